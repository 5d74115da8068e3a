import fc from "fast-check";
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

/** Fragments notes are made of: words, spaces, punctuation, list bullets, line breaks (LF and CRLF), other scripts. */
const fragment = fc.constantFrom(
	"walk",
	"wander",
	"without",
	"a",
	"the",
	"plan",
	"map",
	"I",
	"Lisbon",
	"tram",
	"is",
	"it",
	" ",
	" ",
	" ",
	"  ",
	",",
	".",
	";",
	":",
	"!",
	"—",
	"’",
	"\n",
	"\n",
	"\r\n",
	"\n\n",
	"- ",
	"# ",
	"> ",
	"公园",
	"散步",
	"мир",
	"Ça",
	"\t",
);
const noteText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(""));
/** A note and an edit of it: stretches cut out, stretches put in, stretches replaced. */
const noteAndEdit = fc
	.tuple(noteText, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), noteText), { maxLength: 4 }))
	.map(([before, edits]) => {
		let after = before;
		for (const [at, length, text] of edits) {
			const start = at % (after.length + 1);
			after = after.slice(0, start) + text + after.slice(start + length);
		}
		return { before, after };
	});

const changeIds = (pieces: readonly SuggestionPiece[]): number[] =>
	pieces.flatMap((piece) => (piece.kind === "change" ? [piece.id] : []));

/** Distinct words, so a word comparison cannot match a word anywhere but where it stayed. */
const distinctWords = fc.uniqueArray(fc.stringMatching(/^[a-z]{4,8}$/), { minLength: 4, maxLength: 12 });

describe("suggestionPieces", () => {
	it("shows one changed word as one change inside the sentence", () => {
		const pieces = suggestionPieces("The quick brown fox.\n", "The quick red fox.\n");
		expect(picture(pieces)).toBe("The quick [-brown+red] fox.\n");
	});

	it("never strikes and adds back words that stay: changes with unchanged words between them stay apart", () => {
		expect(
			picture(
				suggestionPieces(
					"The best walks have no plan. I wander without a map, and I wander without a watch.\n",
					"The best walks have no plan. I walk without a map; I wander without a destination.\n",
				),
			),
		).toBe(
			"The best walks have no plan. I [-wander+walk] without a map[-, and+;] I wander without a [-watch+destination].\n",
		);
		expect(picture(suggestionPieces("a quick brown fox jumps\n", "a slow brown fox leaps\n"))).toBe(
			"a [-quick+slow] brown fox [-jumps+leaps]\n",
		);
		expect(picture(suggestionPieces("one\ntwo\n", "ONE\nTWO\n"))).toBe("[-one+ONE]\n[-two+TWO]\n");
	});

	it("leaves the spaces and punctuation a change shares with the text around it unmarked", () => {
		expect(
			picture(
				suggestionPieces(
					"Comfortable shoes and a light jacket.\n",
					"Comfortable shoes, a light jacket and sunscreen.\n",
				),
			),
		).toBe("Comfortable shoes[- and+,] a light jacket[+ and sunscreen].\n");
	});

	it("reads changes with only spaces or punctuation between them, or one short word stranded in a rewrite, as one", () => {
		expect(picture(suggestionPieces("Hello, world\n", "Hi, there\n"))).toBe("[-Hello, world+Hi, there]\n");
		expect(
			picture(
				suggestionPieces(
					"Visit the tile museum if there is time.\n",
					"Book the tile museum ahead: it is closed on Mondays.\n",
				),
			),
		).toBe("[-Visit+Book] the tile museum [-if there is time+ahead: it is closed on Mondays].\n");
		// Two words between: two changes, in any script.
		expect(picture(suggestionPieces("我们明天去公园散步。\n", "我们今天去公园跑步。\n"))).toBe(
			"我们[-明天+今天]去公园[-散步+跑步]。\n",
		);
	});

	it("a deleted list line goes whole with its own bullet, never the next line's", () => {
		expect(picture(suggestionPieces("- a\n- b\n- c\n", "- a\n- c\n"))).toBe("- a\n[-- b\n]- c\n");
		expect(picture(suggestionPieces("- a\n- b\n- c\n", "- a\n- c, then d\n"))).toBe(
			"- a\n[-- b\n]- c[+, then d]\n",
		);
		expect(picture(suggestionPieces("- apples\n- pears\n", "- pears\n"))).toBe("[-- apples\n]- pears\n");
	});

	it("a paragraph split in two is a line break put in, and a paragraph added after an edited one starts its own line", () => {
		expect(picture(suggestionPieces("A long sentence. Another one.\n", "A long sentence.\n\nAnother one.\n"))).toBe(
			"A long sentence.[- +\n\n]Another one.\n",
		);
		expect(picture(suggestionPieces("Para one.\n", "Para one changed.\n\nNew para.\n"))).toBe(
			"Para one[+ changed].\n[+\nNew para.\n]",
		);
	});

	it("a sentence rewritten through and through is one change, not words picked apart", () => {
		expect(picture(suggestionPieces("The cat sat on the mat.\n", "A dog barked at the mailman.\n"))).toBe(
			"[-The cat sat on the mat+A dog barked at the mailman].\n",
		);
	});

	it("numbers the changes from 1, and joins back to either text byte for byte (CRLF too)", () => {
		const before = "# Title\r\n\r\nKeep this.\r\nDrop this line.\r\nEnd\r\n";
		const after = "# Title!\r\n\r\nKeep this.\r\nEnd here\r\n";
		const pieces = suggestionPieces(before, after);
		expect(picture(pieces)).toBe("# Title[+!]\r\n\r\nKeep this.\r\n[-Drop this line.\r\n]End[+ here]\r\n");
		expect(changeIds(pieces)).toEqual([1, 2, 3]);
		expect(decidedText(pieces, new Set())).toBe(after);
		expect(decidedText(pieces, new Set([1, 2, 3]))).toBe(before);
		expect(decidedText(pieces, new Set([2]))).not.toBe(after);
	});

	it("a new note is one addition; identical texts have no change", () => {
		expect(suggestionPieces("", "Hello\n")).toEqual([{ kind: "change", id: 1, removed: "", added: "Hello\n" }]);
		expect(suggestionPieces("Same\n", "Same\n")).toEqual([{ kind: "same", text: "Same\n" }]);
		expect(suggestionPieces("", "")).toEqual([]);
	});

	it("keeps the text after a deletion at the note's end that slides back to a line start (found by the property below)", () => {
		const before = "公园> # \r\n\n公园";
		const after = "公#   公园";
		const pieces = suggestionPieces(before, after);
		expect(decidedText(pieces, new Set())).toBe(after);
		expect(decidedText(pieces, new Set(changeIds(pieces)))).toBe(before);
		expect(suggestionPieces("keep\nx\n\nx", "keep\nx")).toEqual([
			{ kind: "same", text: "keep\n" },
			{ kind: "change", id: 1, removed: "x\n\n", added: "" },
			{ kind: "same", text: "x" },
		]);
	});

	it("for any note and edit: accepting every change gives the proposal, rejecting every change the note", () => {
		fc.assert(
			fc.property(noteAndEdit, ({ before, after }) => {
				const pieces = suggestionPieces(before, after);
				expect(decidedText(pieces, new Set())).toBe(after);
				expect(decidedText(pieces, new Set(changeIds(pieces)))).toBe(before);
			}),
			{ numRuns: 600 },
		);
	});

	it("for any note and edit: each change changes something, numbered 1, 2, …; unchanged text is never cut in two", () => {
		fc.assert(
			fc.property(noteAndEdit, fc.nat(), ({ before, after }, pick) => {
				const pieces = suggestionPieces(before, after);
				const ids = changeIds(pieces);
				expect(ids).toEqual(ids.map((_, index) => index + 1));
				for (const [index, piece] of pieces.entries()) {
					if (piece.kind === "change") expect(piece.removed).not.toBe(piece.added);
					else {
						expect(piece.text).not.toBe("");
						expect(pieces[index + 1]?.kind).not.toBe("same");
					}
				}
				// Rejecting one change keeps its words and only its words.
				const one = ids[pick % Math.max(1, ids.length)];
				if (one === undefined) return;
				const kept = pieces
					.map((piece) =>
						piece.kind === "same" ? piece.text : piece.id === one ? piece.removed : piece.added,
					)
					.join("");
				expect(decidedText(pieces, new Set([one]))).toBe(kept);
			}),
			{ numRuns: 400 },
		);
	});

	it("for any list: deleting one item is one change, that item's whole line", () => {
		fc.assert(
			fc.property(distinctWords, fc.nat(), (words, at) => {
				const items = words.map((word) => `- ${word}\n`);
				const gone = at % items.length;
				const pieces = suggestionPieces(items.join(""), items.filter((_, index) => index !== gone).join(""));
				expect(pieces.filter((piece) => piece.kind === "change")).toEqual([
					{ kind: "change", id: 1, removed: items[gone], added: "" },
				]);
			}),
		);
	});

	it("for any sentence: replacing words far apart gives exactly those words, each its own change", () => {
		fc.assert(
			fc.property(
				distinctWords,
				fc.uniqueArray(fc.stringMatching(/^[A-Z]{4,8}$/), { minLength: 2, maxLength: 2 }),
				fc.nat(),
				(words, [first, second], at) => {
					if (words.length < 6 || first === undefined || second === undefined) return;
					const i = at % (words.length - 3);
					const j = i + 3;
					const edited = words.map((word, index) => (index === i ? first : index === j ? second : word));
					const pieces = suggestionPieces(`${words.join(" ")}.\n`, `${edited.join(" ")}.\n`);
					expect(pieces.filter((piece) => piece.kind === "change")).toEqual([
						{ kind: "change", id: 1, removed: words[i], added: first },
						{ kind: "change", id: 2, removed: words[j], added: second },
					]);
				},
			),
		);
	});

	it("for any note: a paragraph no edit touches is never part of a change, whatever lines move around it", () => {
		// Longer than any line of a generated note, so no line moved across it outweighs it.
		const line = `${"This paragraph stays exactly as it is. ".repeat(8)}\n`;
		fc.assert(
			fc.property(noteText, noteText, noteText, noteText, (head, tail, newHead, newTail) => {
				const pieces = suggestionPieces(`${head}\n${line}${tail}`, `${newHead}\n${line}${newTail}`);
				expect(pieces.some((piece) => piece.kind === "same" && piece.text.includes(line))).toBe(true);
			}),
			{ numRuns: 300 },
		);
	});

	it("a proposal too different to compare line by line is one change, the whole text", () => {
		const before = Array.from({ length: 1_500 }, (_, index) => `old ${index}\n`).join("");
		const after = Array.from({ length: 1_500 }, (_, index) => `new ${index}\n`).join("");
		expect(suggestionPieces(before, after)).toEqual([{ kind: "change", id: 1, removed: before, added: after }]);
	});
});

describe("decidedText", () => {
	it("applies the accepted changes and keeps the original words of the rejected ones", () => {
		const pieces = suggestionPieces("one two three four five six\n", "ONE two three four five SIX\n");
		expect(changeIds(pieces)).toEqual([1, 2]);
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
