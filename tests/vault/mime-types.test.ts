import { isTextMimeType, mimeTypeFor } from "../../src/vault/mime-types";

describe("mimeTypeFor", () => {
	it("answers a file's type by its extension, in any case", () => {
		expect(mimeTypeFor("Notes/a.md")).toBe("text/markdown");
		expect(mimeTypeFor("Board.CANVAS")).toBe("application/json");
		expect(mimeTypeFor("photo.JPG")).toBe("image/jpeg");
		expect(mimeTypeFor("view.base")).toBe("text/yaml");
		expect(mimeTypeFor("a.b/c.pdf")).toBe("application/pdf");
	});

	it("answers octet-stream for unknown or missing extensions", () => {
		expect(mimeTypeFor("archive.zip")).toBe("application/octet-stream");
		expect(mimeTypeFor("README")).toBe("application/octet-stream");
		expect(mimeTypeFor("folder.d/README")).toBe("application/octet-stream");
	});
});

describe("isTextMimeType", () => {
	it("counts text/*, JSON and SVG as text, and nothing else", () => {
		expect(["text/markdown", "text/csv", "application/json", "image/svg+xml"].map(isTextMimeType)).toEqual([
			true,
			true,
			true,
			true,
		]);
		expect(["image/png", "application/pdf", "application/octet-stream", "audio/mpeg"].map(isTextMimeType)).toEqual([
			false,
			false,
			false,
			false,
		]);
	});
});
