import { draftChanges, tidyChanges, type DraftPiece } from "../../src/shared/suggestion-tidy";

const picture = (pieces: readonly DraftPiece[]): string =>
	pieces
		.map((piece) =>
			piece.kind === "same"
				? piece.text
				: `[${piece.removed === "" ? "" : `-${piece.removed}`}${piece.added === "" ? "" : `+${piece.added}`}]`,
		)
		.join("");

describe("draftChanges", () => {
	it("makes what goes and what comes between two unchanged runs one change", () => {
		expect(
			draftChanges([
				{ kind: "same", text: "a " },
				{ kind: "removed", text: "b" },
				{ kind: "added", text: "c" },
				{ kind: "same", text: " d" },
			]),
		).toEqual([
			{ kind: "same", text: "a " },
			{ kind: "change", removed: "b", added: "c" },
			{ kind: "same", text: " d" },
		]);
	});
});

describe("tidyChanges", () => {
	it("slides a deleted line to start at its line's start, so it takes its own bullet and not the next one's", () => {
		const pieces: DraftPiece[] = [
			{ kind: "same", text: "- a\n- " },
			{ kind: "change", removed: "b\n- ", added: "" },
			{ kind: "same", text: "c\n" },
		];
		expect(picture(tidyChanges(pieces))).toBe("- a\n[-- b\n]- c\n");
	});

	it("slides an added paragraph to start on its own line", () => {
		const pieces: DraftPiece[] = [
			{ kind: "same", text: "One." },
			{ kind: "change", removed: "", added: "\n\nTwo." },
			{ kind: "same", text: "\n" },
		];
		expect(picture(tidyChanges(pieces))).toBe("One.\n[+\nTwo.\n]");
	});

	it("joins changes with only spaces or punctuation between them, or one short word inside a rewrite", () => {
		const change = (removed: string, added: string): DraftPiece => ({ kind: "change", removed, added });
		const same = (text: string): DraftPiece => ({ kind: "same", text });
		expect(picture(tidyChanges([change("quick", "slow"), same(" "), change("brown", "red")]))).toBe(
			"[-quick brown+slow red]",
		);
		expect(picture(tidyChanges([change("if there", "ahead: it"), same(" is "), change("time", "closed")]))).toBe(
			"[-if there is time+ahead: it is closed]",
		);
		// Not two words, not a long word, not around a pure addition, not across a line break.
		expect(picture(tidyChanges([change("a", "b"), same(" on the "), change("c", "d")]))).toBe(
			"[-a+b] on the [-c+d]",
		);
		expect(picture(tidyChanges([change("a", "b"), same(" without "), change("c", "d")]))).toBe(
			"[-a+b] without [-c+d]",
		);
		expect(picture(tidyChanges([change("", "b"), same(" is "), change("c", "d")]))).toBe("[+b] is [-c+d]");
		expect(picture(tidyChanges([change("a", "b"), same("\n"), change("c", "d")]))).toBe("[-a+b]\n[-c+d]");
	});
});
