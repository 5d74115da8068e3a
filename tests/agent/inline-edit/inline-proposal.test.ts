import fc from "fast-check";
import {
	acceptAll,
	acceptChange,
	finalSuggestions,
	openChanges,
	passageText,
	rejectChange,
	StreamingDiff,
	streamingSuggestions,
	type PassageEdit,
	type SuggestionPiece,
} from "../../../src/agent/inline-edit/inline-proposal";
import { decidedText } from "../../../src/shared/suggestions";

const PASSAGE = "The cat sat on the mat. It was warm there.";
const PROPOSAL = "The old cat sat on the rug. It was warm there.";

const apply = (text: string, edit: PassageEdit): string => text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
const changeIds = (pieces: readonly SuggestionPiece[]): number[] =>
	pieces.flatMap((piece) => (piece.kind === "change" ? [piece.id] : []));

describe("the inline proposal's suggestions", () => {
	it("are the review's word-level changes: two here, each with what goes and what comes", () => {
		const pieces = finalSuggestions(PASSAGE, PROPOSAL);
		expect(pieces.filter((piece) => piece.kind === "change")).toEqual([
			{ kind: "change", id: 1, removed: "", added: "old " },
			{ kind: "change", id: 2, removed: "mat", added: "rug" },
		]);
		expect(passageText(pieces)).toBe(PASSAGE);
	});

	it("accepting one of two changes writes exactly that one; the other stays open where the note now has it", () => {
		const first = acceptChange(finalSuggestions(PASSAGE, PROPOSAL), 2);
		if (!first) throw new Error("no change 2");
		const written = apply(PASSAGE, first.edit);
		expect(written).toBe("The cat sat on the rug. It was warm there.");
		expect(passageText(first.pieces)).toBe(written);
		expect(changeIds(first.pieces)).toEqual([1]);
		const rejected = rejectChange(first.pieces, 1);
		expect(openChanges(rejected)).toBe(0);
		expect(passageText(rejected)).toBe(written);
	});

	it("accepting all writes the whole proposal in one edit over the passage", () => {
		const pieces = finalSuggestions(PASSAGE, PROPOSAL);
		expect(apply(PASSAGE, acceptAll(pieces))).toBe(PROPOSAL);
		const afterOne = acceptChange(pieces, 1);
		if (!afterOne) throw new Error("no change 1");
		expect(apply(apply(PASSAGE, afterOne.edit), acceptAll(afterOne.pieces))).toBe(PROPOSAL);
		expect(acceptChange(pieces, 9)).toBeUndefined();
	});

	it("while Claude writes, the passage's rest it has not reached is pending, not struck", () => {
		expect(streamingSuggestions(PASSAGE, "")).toEqual({ pieces: [], pending: PASSAGE });
		const partial = streamingSuggestions(PASSAGE, "The old cat sat on the r");
		expect(partial.pending).toBe("mat. It was warm there.");
		expect(partial.pieces.at(-1)).toEqual({ kind: "change", id: 2, removed: "", added: "r" });
		expect(passageText(partial.pieces) + partial.pending).toBe(PASSAGE);
		const whole = streamingSuggestions(PASSAGE, PROPOSAL);
		expect(whole.pending).toBe("");
	});

	it("whatever is accepted or rejected in whatever order, the pieces are the note's passage, and accepting the rest gives the review's decided text", () => {
		const words = fc.constantFrom("a", "b", "cat", "sat", "mat", " ", " ", "\n", ".", "the");
		const text = fc.array(words, { maxLength: 14 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(
				text,
				text,
				fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 8 }),
				(before, after, steps) => {
					const proposed = finalSuggestions(before, after);
					let pieces = proposed;
					let note = before;
					const rejected = new Set<number>();
					for (const [pick, accept] of steps) {
						const ids = changeIds(pieces);
						const id = ids[pick % Math.max(ids.length, 1)];
						if (id === undefined) break;
						if (accept) {
							const result = acceptChange(pieces, id);
							if (!result) return false;
							note = apply(note, result.edit);
							pieces = result.pieces;
						} else {
							pieces = rejectChange(pieces, id);
							rejected.add(id);
						}
						if (passageText(pieces) !== note) return false;
					}
					return apply(note, acceptAll(pieces)) === decidedText(proposed, rejected);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("streamed chunk by chunk, every preview is the passage (its pieces, then what is pending) and the proposal so far, with each change numbered once", () => {
		const words = fc.constantFrom("a", "bb", "cat", "sat", "mat", " ", " ", " ", "\n", ".", "the", "rain");
		const text = fc.array(words, { maxLength: 120 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(
				text,
				text,
				fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }),
				(passage, proposal, sizes) => {
					const stream = new StreamingDiff(passage);
					for (let at = 0, step = 0; at < proposal.length; step++) {
						at = Math.min(proposal.length, at + (sizes[step % sizes.length] ?? 1));
						const partial = proposal.slice(0, at);
						const { pieces, pending } = stream.update(partial);
						const proposed = pieces
							.map((piece) => (piece.kind === "same" ? piece.text : piece.added))
							.join("");
						const ids = changeIds(pieces);
						if (passageText(pieces) + pending !== passage || proposed !== partial) return false;
						if (ids.some((id, index) => id !== index + 1)) return false;
					}
					return true;
				},
			),
			{ numRuns: 300 },
		);
	});

	it("streamed, a long passage costs each chunk a comparison of about the same size: what lies well behind the proposal's end is settled", () => {
		const passage = Array.from({ length: 400 }, (_, index) => `word${index % 17}`).join(" ");
		const proposal = passage.replace(/word3 /g, "WORD ");
		const stream = new StreamingDiff(passage);
		let last = stream.update("");
		for (let at = 5; at <= proposal.length; at += 5) last = stream.update(proposal.slice(0, at));
		// Settled pieces are the same objects from one chunk to the next: nothing before them is compared again.
		const before = stream.update(proposal.slice(0, proposal.length - 100)).pieces[0];
		expect(stream.update(proposal.slice(0, proposal.length - 95)).pieces[0]).toBe(before);
		expect(passageText(last.pieces) + last.pending).toBe(passage);
	});
});
