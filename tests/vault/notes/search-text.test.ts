import {
	lowerAsciiInPlace,
	sameLengthLowerCase,
	searchTextOf,
	searchableText,
	utf8Bytes,
	writeAsciiSearchText,
} from "../../../src/vault/notes/search-text";

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

	it("of a plain-ASCII text is written into the buffer given and lower-cased there, at any offset, as searchTextOf", () => {
		const every = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join("");
		const texts = ["", "A", "AZ@[`{", "Hello\r\nWORLD\r", every, `${every}${every.toUpperCase()}`, "x".repeat(37)];
		for (const text of texts)
			for (let offset = 0; offset < 8; offset++) {
				const slab = Buffer.alloc(text.length + 16, 0xff);
				const written = writeAsciiSearchText(text, (size) => slab.subarray(offset, offset + size));
				expect(written?.equals(searchTextOf(text))).toBe(true);
				expect(written?.byteOffset).toBe(offset);
				// Nothing outside the bytes given is touched.
				expect(slab[offset + text.length]).toBe(0xff);
			}
	});

	it("of any other text is left to searchableText (undefined, nothing asked of the buffer)", () => {
		const into = jest.fn((size: number) => Buffer.alloc(size));
		for (const text of ["Été", "\u0080", "İx", "😀"]) expect(writeAsciiSearchText(text, into)).toBeUndefined();
		expect(into).not.toHaveBeenCalled();
	});

	it("lower-cases ASCII bytes in place and makes every carriage return a line feed", () => {
		const bytes = Buffer.from("ABC def\rGHI\r\n[Z]");
		lowerAsciiInPlace(bytes.subarray(1));
		expect(bytes.toString()).toBe("Abc def\nghi\n\n[z]");
	});
});
