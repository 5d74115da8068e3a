import {
	decidedText,
	markEdits,
	suggestionPieces,
	type MarkedRun,
	type SuggestionPiece,
} from "../../src/shared/suggestions";

/** A compact picture of the pieces: changes as [-removed+added]. */
function picture(pieces: readonly SuggestionPiece[]): string {
	return pieces
		.map((piece) =>
			piece.kind === "same"
				? piece.text
				: `[${piece.removed === "" ? "" : `-${piece.removed}`}${piece.added === "" ? "" : `+${piece.added}`}]`,
		)
		.join("");
}

/** Runs as text with marks: {c+…} Claude added, {c-…} Claude removed, {y+…}/{y-…} the user, {c+y-…} both. */
function marks(runs: readonly MarkedRun[]): string {
	return runs
		.map((run) =>
			run.claude || run.you
				? `{${run.claude ? `c${run.claude === "added" ? "+" : "-"}` : ""}${run.you ? `y${run.you === "added" ? "+" : "-"}` : ""}${run.text}}`
				: run.text,
		)
		.join("");
}

describe("suggestionPieces", () => {
	it("shows one changed word as one change inside the sentence", () => {
		const pieces = suggestionPieces("The quick brown fox.\n", "The quick red fox.\n");
		expect(picture(pieces)).toBe("The quick [-brown+red] fox.\n");
	});

	it("merges changes separated by up to two unchanged words on one line into one phrase", () => {
		expect(picture(suggestionPieces("a quick brown fox jumps\n", "a slow brown fox leaps\n"))).toBe(
			"a [-quick brown fox jumps+slow brown fox leaps]\n",
		);
		// Three words apart: two changes.
		expect(picture(suggestionPieces("one two three four five\n", "ONE two three four FIVE\n"))).toBe(
			"[-one+ONE] two three four [-five+FIVE]\n",
		);
		// Not across a line break.
		expect(picture(suggestionPieces("one\ntwo\n", "ONE\nTWO\n"))).toBe("[-one+ONE]\n[-two+TWO]\n");
	});

	it("numbers the changes from 1, and joins back to either text byte for byte (CRLF too)", () => {
		const before = "# Title\r\n\r\nKeep this.\r\nDrop this line.\r\nEnd\r\n";
		const after = "# Title!\r\n\r\nKeep this.\r\nEnd here\r\n";
		const pieces = suggestionPieces(before, after);
		const ids = pieces.flatMap((piece) => (piece.kind === "change" ? [piece.id] : []));
		expect(ids).toEqual([1, 2, 3]);
		expect(decidedText(pieces, new Set())).toBe(after);
		expect(decidedText(pieces, new Set(ids))).toBe(before);
		expect(decidedText(pieces, new Set([2]))).not.toBe(after);
	});

	it("a new note is one addition; identical texts have no change", () => {
		expect(suggestionPieces("", "Hello\n")).toEqual([{ kind: "change", id: 1, removed: "", added: "Hello\n" }]);
		expect(suggestionPieces("Same\n", "Same\n")).toEqual([{ kind: "same", text: "Same\n" }]);
	});
});

describe("decidedText", () => {
	it("applies the accepted changes and keeps the original words of the rejected ones", () => {
		const pieces = suggestionPieces("one two three four five six\n", "ONE two three four five SIX\n");
		expect(decidedText(pieces, new Set([2]))).toBe("ONE two three four five six\n");
		expect(decidedText(pieces, new Set([1]))).toBe("one two three four five SIX\n");
	});
});

describe("markEdits", () => {
	const pieces = suggestionPieces("The quick brown fox sat.\n", "The quick red fox sat.\n");

	it("marks the user's words apart from the proposer's", () => {
		const runs = markEdits(pieces, new Set(), "The quick red fox sat down.\n");
		expect(marks(runs)).toBe("The quick {c-brown}{c+red} fox sat{y+ down}.\n");
	});

	it("text the proposer added and the user deleted is marked both ways; the unremoved runs give the edited text", () => {
		const edited = "The quick fox sat.\n";
		const runs = markEdits(pieces, new Set(), edited);
		expect(marks(runs)).toContain("{c+y-red}");
		expect(
			runs
				.filter((run) => run.claude !== "removed" && run.you !== "removed")
				.map((run) => run.text)
				.join(""),
		).toBe(edited);
	});

	it("a rejected change shows the original words, unmarked", () => {
		expect(marks(markEdits(pieces, new Set([1]), "The quick brown fox sat.\n"))).toBe("The quick brown fox sat.\n");
	});

	it("a text too big to compare word by word is marked as the user's in one piece, and still joins back to the edit", () => {
		const big = "word ".repeat(30_000);
		const runs = markEdits(suggestionPieces("a\n", "b\n"), new Set(), big);
		expect(runs.filter((run) => run.you === "added").map((run) => run.text)).toEqual([big]);
		expect(
			runs
				.filter((run) => run.claude !== "removed" && run.you !== "removed")
				.map((run) => run.text)
				.join(""),
		).toBe(big);
	});
});
