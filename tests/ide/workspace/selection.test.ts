import {
	clampPosition,
	cursorSnapshot,
	LineIndex,
	selectionSnapshot,
	textBetween,
} from "../../../src/ide/workspace/selection";

const at = (line: number, character: number) => ({ line, character });

describe("selectionSnapshot", () => {
	it("has exactly the selection_changed shape: text, absolute filePath, file URL and a 0-based range", () => {
		expect(selectionSnapshot("/vault/Notes/a.md", "hello", at(1, 2), at(3, 0))).toEqual({
			text: "hello",
			filePath: "/vault/Notes/a.md",
			fileUrl: "file:///vault/Notes/a.md",
			selection: { start: at(1, 2), end: at(3, 0), isEmpty: false },
		});
	});

	it("percent-encodes the file URL (spaces, #, %, unicode) while filePath stays as given", () => {
		const snapshot = selectionSnapshot("/my vault/C# 100%/Ünïcode 📝.md", "x", at(0, 0), at(0, 1));
		expect(snapshot.filePath).toBe("/my vault/C# 100%/Ünïcode 📝.md");
		expect(snapshot.fileUrl).toBe("file:///my%20vault/C%23%20100%25/%C3%9Cn%C3%AFcode%20%F0%9F%93%9D.md");
	});

	it("gives each note its own file URL when selections move between notes", () => {
		const urls = ["/v/a.md", "/v/b c.md", "/v/a.md", "/v/a.md", "/v/b c.md"].map(
			(path) => cursorSnapshot(path).fileUrl,
		);
		expect(urls).toEqual([
			"file:///v/a.md",
			"file:///v/b%20c.md",
			"file:///v/a.md",
			"file:///v/a.md",
			"file:///v/b%20c.md",
		]);
	});

	it("drops the text of an empty selection (the CLI reads empty text as 'the user opened the file')", () => {
		const snapshot = selectionSnapshot("/v/a.md", "stale text", at(2, 4), at(2, 4));
		expect(snapshot.text).toBe("");
		expect(snapshot.selection.isEmpty).toBe(true);
	});

	it("is not empty when only the line differs", () => {
		expect(selectionSnapshot("/v/a.md", "\n", at(0, 3), at(1, 3)).selection.isEmpty).toBe(false);
	});

	it("orders a backwards selection start → end (the CLI computes the line count as end.line − start.line + 1)", () => {
		const snapshot = selectionSnapshot("/v/a.md", "b\nc", at(2, 1), at(1, 0));
		expect(snapshot.selection).toEqual({ start: at(1, 0), end: at(2, 1), isEmpty: false });
		const sameLine = selectionSnapshot("/v/a.md", "bc", at(4, 7), at(4, 5));
		expect(sameLine.selection).toEqual({ start: at(4, 5), end: at(4, 7), isEmpty: false });
	});
});

describe("cursorSnapshot", () => {
	it("defaults to the start of the note with empty text", () => {
		expect(cursorSnapshot("/v/a.md")).toEqual({
			text: "",
			filePath: "/v/a.md",
			fileUrl: "file:///v/a.md",
			selection: { start: at(0, 0), end: at(0, 0), isEmpty: true },
		});
	});

	it("puts both ends at the given position", () => {
		expect(cursorSnapshot("/v/a.md", at(7, 3)).selection).toEqual({
			start: at(7, 3),
			end: at(7, 3),
			isEmpty: true,
		});
	});
});

describe("textBetween", () => {
	const doc = "first line\nsecond line\nthird";

	it("selects within one line", () => {
		expect(textBetween(doc, at(1, 0), at(1, 6))).toBe("second");
	});

	it("selects across lines, including the newlines", () => {
		expect(textBetween(doc, at(0, 6), at(2, 3))).toBe("line\nsecond line\nthi");
	});

	it("gives the same text for a backwards range", () => {
		expect(textBetween(doc, at(2, 3), at(0, 6))).toBe("line\nsecond line\nthi");
	});

	it("selecting to the start of the next line includes the line break", () => {
		expect(textBetween(doc, at(0, 0), at(1, 0))).toBe("first line\n");
	});

	it("is empty for a cursor", () => {
		expect(textBetween(doc, at(1, 3), at(1, 3))).toBe("");
	});

	it("clamps a character past the end of a line to that line's end (never into the next line)", () => {
		expect(textBetween(doc, at(0, 6), at(0, 999))).toBe("line");
	});

	it("clamps lines past the end to the last line, and negative numbers to 0", () => {
		expect(textBetween(doc, at(2, 0), at(99, 99))).toBe("third");
		expect(textBetween(doc, at(-5, -5), at(0, 5))).toBe("first");
	});

	it("handles an empty document and a trailing newline", () => {
		expect(textBetween("", at(0, 0), at(3, 3))).toBe("");
		expect(textBetween("a\n", at(0, 0), at(1, 0))).toBe("a\n");
		expect(textBetween("a\n", at(1, 0), at(1, 5))).toBe("");
	});

	it("counts characters in UTF-16 code units: an emoji outside the BMP is two", () => {
		const text = "a😀b\n😀😀";
		expect(textBetween(text, at(0, 1), at(0, 3))).toBe("😀");
		expect(textBetween(text, at(0, 3), at(0, 4))).toBe("b");
		expect(textBetween(text, at(1, 2), at(1, 4))).toBe("😀");
		// A position inside a surrogate pair is taken literally (as LSP/CodeMirror offsets would be): half the pair.
		expect(textBetween(text, at(0, 0), at(0, 2))).toBe("a\ud83d");
	});

	it("counts combining marks and non-Latin letters as the code units they are", () => {
		const text = "e\u0301té — 日本語";
		expect(textBetween(text, at(0, 0), at(0, 2))).toBe("e\u0301");
		expect(textBetween(text, at(0, 7), at(0, 10))).toBe("日本語");
	});

	it("with CRLF line breaks, keeps the \\r\\n inside a multi-line selection (byte-faithful)", () => {
		const crlf = "one\r\ntwo\r\nthree";
		expect(textBetween(crlf, at(0, 0), at(1, 0))).toBe("one\r\n");
		expect(textBetween(crlf, at(0, 1), at(2, 2))).toBe("ne\r\ntwo\r\nth");
		expect(textBetween(crlf, at(1, 0), at(1, 3))).toBe("two");
	});

	it("with CRLF, a character past the end of a line stops before the \\r (the line's content excludes its break)", () => {
		const crlf = "one\r\ntwo\r\nthree";
		expect(textBetween(crlf, at(0, 0), at(0, 99))).toBe("one");
		expect(textBetween(crlf, at(1, 1), at(1, 4))).toBe("wo");
	});
});

describe("clampPosition", () => {
	it("moves positions past the end of a line or the document back inside it", () => {
		const text = "alpha\r\nbe\nlast";
		expect(clampPosition(text, { line: 0, character: 99 })).toEqual({ line: 0, character: 5 });
		expect(clampPosition(text, { line: 1, character: 3 })).toEqual({ line: 1, character: 2 });
		expect(clampPosition(text, { line: 50, character: 0 })).toEqual({ line: 2, character: 0 });
		expect(clampPosition(text, { line: -1, character: -4 })).toEqual({ line: 0, character: 0 });
		expect(clampPosition("", { line: 3, character: 3 })).toEqual({ line: 0, character: 0 });
	});
});

describe("LineIndex", () => {
	it("serves many selections of one text as textBetween and clampPosition do, CRLF and a missing last break included", () => {
		const doc = "first line\r\nsecond\n\nlast";
		const lines = new LineIndex(doc);
		const cases: [ReturnType<typeof at>, ReturnType<typeof at>][] = [
			[at(0, 0), at(0, 99)],
			[at(1, 3), at(0, 6)],
			[at(2, 0), at(3, 4)],
			[at(9, 9), at(1, 0)],
			[at(0, 10), at(1, 0)],
		];
		for (const [start, end] of cases) {
			expect(lines.between(start, end)).toBe(textBetween(doc, start, end));
			expect(lines.clamp(start)).toEqual(clampPosition(doc, start));
		}
		expect(lines.between(at(0, 0), at(0, 99))).toBe("first line");
		expect(lines.between(at(9, 9), at(1, 0))).toBe("second\n\nlast");
	});
});
