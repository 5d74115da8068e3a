import { findTextRange, lineCount, lineRange, positionAt } from "../../../src/ide/workspace/text-range";

const TEXT = "alpha\r\nbeta gamma\ndelta";

describe("positionAt", () => {
	it("answers the 0-based line and character of an offset, across LF and CRLF", () => {
		expect(positionAt(TEXT, 0)).toEqual({ line: 0, character: 0 });
		expect(positionAt(TEXT, 7)).toEqual({ line: 1, character: 0 });
		expect(positionAt(TEXT, 12)).toEqual({ line: 1, character: 5 });
		expect(positionAt(TEXT, TEXT.length)).toEqual({ line: 2, character: 5 });
	});
});

describe("findTextRange", () => {
	it("selects the first startText, or through the first endText after it", () => {
		expect(findTextRange(TEXT, "beta", undefined, false)).toEqual({
			start: { line: 1, character: 0 },
			end: { line: 1, character: 4 },
		});
		expect(findTextRange(TEXT, "alpha", "delta", false)).toEqual({
			start: { line: 0, character: 0 },
			end: { line: 2, character: 5 },
		});
		expect(findTextRange("a b a c", "a", "a", false)).toEqual({
			start: { line: 0, character: 0 },
			end: { line: 0, character: 5 },
		});
	});

	it("extends to the end of the line, stopping before CR", () => {
		expect(findTextRange(TEXT, "al", undefined, true)).toEqual({
			start: { line: 0, character: 0 },
			end: { line: 0, character: 5 },
		});
		expect(findTextRange(TEXT, "gam", undefined, true)).toEqual({
			start: { line: 1, character: 5 },
			end: { line: 1, character: 10 },
		});
	});

	it("answers undefined when either text is missing", () => {
		expect(findTextRange(TEXT, "omega", undefined, false)).toBeUndefined();
		expect(findTextRange(TEXT, "beta", "alpha", false)).toBeUndefined();
	});
});

describe("lineRange", () => {
	it("selects whole 1-based lines, clamped to the note", () => {
		expect(lineRange(TEXT, 2, undefined)).toEqual({
			start: { line: 1, character: 0 },
			end: { line: 1, character: 10 },
		});
		expect(lineRange(TEXT, 1, 3)).toEqual({ start: { line: 0, character: 0 }, end: { line: 2, character: 5 } });
		expect(lineRange(TEXT, 0, 99)).toEqual({ start: { line: 0, character: 0 }, end: { line: 2, character: 5 } });
		expect(lineRange(TEXT, 3, 1)).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 5 } });
	});
});

describe("lineCount", () => {
	it("counts lines, at least one", () => {
		expect(lineCount("")).toBe(1);
		expect(lineCount(TEXT)).toBe(3);
	});
});
