import { splitLines } from "../../../src/vault/markdown/text-lines";

describe("splitLines", () => {
	it("ends a line at CRLF, LF or a lone CR, as CodeMirror and LSP count", () => {
		expect(splitLines("a\r\nb\nc\rd")).toEqual(["a", "b", "c", "d"]);
		expect(splitLines("a\n\nb\n")).toEqual(["a", "", "b", ""]);
		expect(splitLines("")).toEqual([""]);
	});
});
