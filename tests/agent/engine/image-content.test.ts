import {
	hasImageExtension,
	imageBlock,
	imageBytesRefusal,
	imageMediaType,
	imageRefusalWords,
	MAX_IMAGE_BYTES,
} from "../../../src/agent/engine/image-content";
import { JPEG_START as JPEG, TINY_PNG as PNG } from "../../helpers/image-bytes";

const GIF89 = Uint8Array.from([...Buffer.from("GIF89a"), 1, 0, 1, 0]);
const GIF87 = Uint8Array.from([...Buffer.from("GIF87a"), 1, 0, 1, 0]);
const WEBP = Uint8Array.from([...Buffer.from("RIFF"), 36, 0, 0, 0, ...Buffer.from("WEBPVP8 ")]);

describe("image content", () => {
	it("reads the media type from the bytes' signature, whatever the name says", () => {
		expect(imageMediaType(PNG)).toBe("image/png");
		expect(imageMediaType(JPEG)).toBe("image/jpeg");
		expect(imageMediaType(GIF89)).toBe("image/gif");
		expect(imageMediaType(GIF87)).toBe("image/gif");
		expect(imageMediaType(WEBP)).toBe("image/webp");
		// Near misses: a RIFF that is a WAV, a GIF of no known version, text, a truncated PNG, nothing.
		expect(imageMediaType(Uint8Array.from([...Buffer.from("RIFF"), 36, 0, 0, 0, ...Buffer.from("WAVE")]))).toBe(
			undefined,
		);
		expect(imageMediaType(Uint8Array.from([...Buffer.from("GIF88a")]))).toBe(undefined);
		expect(imageMediaType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBe(undefined);
		expect(imageMediaType(PNG.subarray(0, 7))).toBe(undefined);
		expect(imageMediaType(new Uint8Array())).toBe(undefined);
	});

	it("makes the block the CLI receives: base64 of the exact bytes with the signature's type", () => {
		const bytes = Uint8Array.from([...JPEG, ...Array.from({ length: 70_000 }, (_, index) => index % 256)]);
		const block = imageBlock(bytes);
		expect(block).toEqual({
			type: "image",
			source: { type: "base64", media_type: "image/jpeg", data: Buffer.from(bytes).toString("base64") },
		});
		expect(imageBlock(Buffer.from("not an image"))).toBeUndefined();
	});

	it("refuses what is too large or no image, and says why in words with the size", () => {
		const large = new Uint8Array(MAX_IMAGE_BYTES + 1);
		large.set(PNG);
		expect(imageBytesRefusal(large)).toBe("too-large");
		expect(imageBlock(large)).toBeUndefined();
		expect(imageBytesRefusal(Buffer.from("%PDF-1.7"))).toBe("not-image");
		expect(imageBytesRefusal(PNG)).toBeUndefined();
		expect(imageRefusalWords("scan.png", "too-large", 12.4 * 1024 * 1024)).toBe(
			"“scan.png” is 12.4 MB; images of up to 10 MB can be sent.",
		);
		expect(imageRefusalWords("Private/face.jpg", "private")).toContain("private place");
		expect(imageRefusalWords("drawing.heic", "not-image")).toBe(
			"“drawing.heic” is not a PNG, JPEG, GIF or WebP image, so Claude cannot read it.",
		);
	});

	it("offers vault files by the endings of the types Claude reads", () => {
		expect(["a.png", "b.JPG", "c.jpeg", "d.gif", "e.webp"].every(hasImageExtension)).toBe(true);
		expect(["a.svg", "b.heic", "c.md", "png", "d.png.md"].some(hasImageExtension)).toBe(false);
	});
});
