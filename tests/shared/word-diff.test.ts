import { groupHunks, toSideBySide } from "../../src/review/diff-layout";
import { computeLineDiff, type DiffLine } from "../../src/shared/word-diff";

/** A compact picture of a line: prefix, then changed words in [-…] / [+…]. */
function picture(line: DiffLine): string {
	const prefix = { context: " ", added: "+", removed: "-" }[line.kind];
	const body = line.segments
		.map((s) => (s.kind === "equal" ? s.text : s.kind === "added" ? `[+${s.text}]` : `[-${s.text}]`))
		.join("");
	return `${prefix}${body}`;
}

describe("computeLineDiff", () => {
	it("highlights only the changed words inside a changed prose line", () => {
		const diff = computeLineDiff(
			"# Title\n\nThe quick brown fox jumps.\n",
			"# Title\n\nThe quick red fox leaps.\n",
		);
		expect(diff.lines.map(picture)).toEqual([
			" # Title",
			" ",
			"-The quick [-brown] fox [-jumps].",
			"+The quick [+red] fox [+leaps].",
		]);
		expect([diff.added, diff.removed]).toEqual([1, 1]);
		expect(diff.lines.map((line) => [line.oldNumber, line.newNumber])).toEqual([
			[1, 1],
			[2, 2],
			[3, undefined],
			[undefined, 3],
		]);
	});

	it("keeps word highlights when a sentence is rewrapped across lines", () => {
		const diff = computeLineDiff("One two three four.\n", "One two\nthree five.\n");
		expect(diff.lines.map(picture)).toEqual(["-One two[- ]three [-four].", "+One two", "+three [+five]."]);
	});

	it("shows a new note as all added and an empty proposal as all removed", () => {
		expect(computeLineDiff("", "a\nb\n").lines.map(picture)).toEqual(["+[+a]", "+[+b]"]);
		expect(computeLineDiff("a\nb", "").lines.map(picture)).toEqual(["-[-a]", "-[-b]"]);
		expect(computeLineDiff("", "").lines).toEqual([]);
	});

	it("treats CRLF like LF and a final line break as no extra line", () => {
		expect(computeLineDiff("a\r\nb\r\n", "a\nb").lines.map(picture)).toEqual([" a", " b"]);
	});

	it("handles unicode and pure insertions between unchanged lines", () => {
		const diff = computeLineDiff("Café ☕\nEnd\n", "Café ☕\nNew 🎉 line\nEnd\n");
		expect(diff.lines.map(picture)).toEqual([" Café ☕", "+[+New 🎉 line]", " End"]);
	});

	it("falls back to whole-line highlights for huge changed blocks", () => {
		const big = "word ".repeat(20_000);
		const diff = computeLineDiff(big, `${big}x`);
		expect(diff.lines.map((line) => line.segments.map((s) => s.kind))).toEqual([["removed"], ["added"]]);
	});
});

describe("groupHunks", () => {
	it("keeps three lines of context and folds the rest", () => {
		const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
		const after = [...before];
		after[9] = "changed";
		const { hunks, hiddenAfter } = groupHunks(computeLineDiff(before.join("\n"), after.join("\n")).lines);
		expect(hunks).toHaveLength(1);
		expect(hunks[0]?.hiddenBefore).toBe(6);
		expect(hunks[0]?.lines.map(picture)).toEqual([
			" line 7",
			" line 8",
			" line 9",
			"-[-line 10]",
			"+[+changed]",
			" line 11",
			" line 12",
			" line 13",
		]);
		expect(hiddenAfter).toBe(7);
	});
});

describe("toSideBySide", () => {
	it("pairs removed and added lines row by row and repeats context on both sides", () => {
		const rows = toSideBySide(computeLineDiff("a\nold 1\nold 2\nz\n", "a\nnew 1\nz\n").lines);
		expect(rows.map((row) => [row.left && picture(row.left), row.right && picture(row.right)])).toEqual([
			[" a", " a"],
			["-[-old] 1", "+[+new] 1"],
			["-[-old 2]", undefined],
			[" z", " z"],
		]);
	});
});
