import { createHash } from "node:crypto";
import { noteVersion } from "../../../src/vault/notes/note-version";

describe("noteVersion", () => {
	it("is the first 12 characters of the text's SHA-256 in base64url", () => {
		expect(noteVersion("")).toBe("47DEQpj8HBSa");
		expect(noteVersion("# Note\n")).toBe(createHash("sha256").update("# Note\n").digest("base64url").slice(0, 12));
		expect(noteVersion("# Note\n")).toMatch(/^[A-Za-z0-9_-]{12}$/);
	});

	it("changes with any change of the text, line endings and Unicode normalisation included", () => {
		const versions = new Set(["a\n", "a\r\n", "a", "é", "e\u0301"].map(noteVersion));
		expect(versions.size).toBe(5);
	});
});
