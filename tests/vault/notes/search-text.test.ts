import { sameLengthLowerCase, searchTextOf, searchableText, utf8Bytes } from "../../../src/vault/notes/search-text";

describe("search text", () => {
	it("is the note lower-cased with every UTF-16 offset kept, a character that grows when lower-cased left as it is", () => {
		expect(sameLengthLowerCase("Zebra ÉTÉ")).toBe("zebra été");
		// "İ".toLowerCase() is two code units: it stays, so what follows keeps its offset.
		expect(sameLengthLowerCase("İx Y")).toBe("İx y");
		expect(sameLengthLowerCase("İx Y")).toHaveLength("İx Y".length);
	});

	it("makes every carriage return a line feed, so a line ends only at \\n, offsets unchanged", () => {
		expect(searchableText("A\r\nB\rC\n")).toBe("a\n\nb\nc\n");
		expect(searchableText("A\r\nB")).toHaveLength("A\r\nB".length);
	});

	it("is UTF-8 in a buffer of its own, not a slice of Node's shared pool", () => {
		const bytes = searchTextOf("Été 😀");
		expect(bytes.toString("utf8")).toBe("été 😀");
		expect(bytes.byteOffset).toBe(0);
		expect(bytes.buffer.byteLength).toBe(bytes.length);
		expect(utf8Bytes("")).toHaveLength(0);
	});
});
