import { splitLines, splitLinesWithoutFinalBreak } from "../../src/shared/text-lines";

describe("splitLines", () => {
	it("ends a line at CRLF, LF or a lone CR, as CodeMirror and LSP count", () => {
		expect(splitLines("a\r\nb\nc\rd")).toEqual(["a", "b", "c", "d"]);
		expect(splitLines("a\n\nb\n")).toEqual(["a", "", "b", ""]);
		expect(splitLines("")).toEqual([""]);
	});
});

describe("splitLinesWithoutFinalBreak (diffs, line counts)", () => {
	it("ends a line at LF or CRLF only; a final break adds no empty line; an empty text has none", () => {
		expect(splitLinesWithoutFinalBreak("a\r\nb\nc\rd")).toEqual(["a", "b", "c\rd"]);
		expect(splitLinesWithoutFinalBreak("a\n\nb\n")).toEqual(["a", "", "b"]);
		expect(splitLinesWithoutFinalBreak("a\r\n")).toEqual(["a"]);
		expect(splitLinesWithoutFinalBreak("a\n\n")).toEqual(["a", ""]);
		expect(splitLinesWithoutFinalBreak("\n")).toEqual([""]);
		expect(splitLinesWithoutFinalBreak("")).toEqual([]);
	});
});
