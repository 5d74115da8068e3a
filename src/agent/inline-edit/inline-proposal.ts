/**
 * Claude's proposal for a passage as suggestions in the note, and the user's decisions on them. The note itself is
 * not touched until a change is accepted: the pieces describe the passage as it stands in the note (every unchanged
 * stretch, and each open change's `removed` side), so joining them gives the note's text of the passage at all
 * times, and a change's place in the note is the length of the pieces before it.
 */
import { suggestionPieces, type SuggestionPiece } from "../../shared/suggestions";

export type { SuggestionPiece } from "../../shared/suggestions";

/** The suggestions while Claude is still writing: the pieces so far, and the passage's rest it has not reached yet. */
export interface StreamingSuggestions {
	pieces: SuggestionPiece[];
	/** The end of the passage the proposal has not reached yet (shown as it is, neither kept nor struck). */
	pending: string;
}

/** A change to make in the note, relative to the passage's start. */
export interface PassageEdit {
	from: number;
	to: number;
	insert: string;
}

/**
 * The suggestions for a proposal still arriving. Its text so far is compared with the whole passage; what the
 * passage holds after the last thing the proposal matched or replaced is not struck but pending (Claude has not
 * written that far yet), and a change at the very end shows only what it adds so far.
 */
export function streamingSuggestions(passage: string, partial: string): StreamingSuggestions {
	const pieces = suggestionPieces(passage, partial);
	let pending = "";
	const last = pieces.at(-1);
	if (last?.kind === "change" && last.removed !== "") {
		pending = last.removed;
		if (last.added === "") pieces.pop();
		else last.removed = "";
	}
	return { pieces, pending };
}

/** The suggestions for the whole proposal. */
export function finalSuggestions(passage: string, proposal: string): SuggestionPiece[] {
	return suggestionPieces(passage, proposal);
}

/** The passage as the note holds it: unchanged text and the open changes' `removed` sides. */
export function passageText(pieces: readonly SuggestionPiece[]): string {
	return pieces.map((piece) => (piece.kind === "same" ? piece.text : piece.removed)).join("");
}

/** How many changes wait for a decision. */
export function openChanges(pieces: readonly SuggestionPiece[]): number {
	return pieces.filter((piece) => piece.kind === "change").length;
}

/** Accepting change `id`: the edit that writes it into the note, and the pieces after it (that change now unchanged text). */
export function acceptChange(
	pieces: readonly SuggestionPiece[],
	id: number,
): { pieces: SuggestionPiece[]; edit: PassageEdit } | undefined {
	let offset = 0;
	for (const piece of pieces) {
		if (piece.kind === "change" && piece.id === id) {
			const edit = { from: offset, to: offset + piece.removed.length, insert: piece.added };
			return { pieces: settle(pieces, id, piece.added), edit };
		}
		offset += piece.kind === "same" ? piece.text.length : piece.removed.length;
	}
	return undefined;
}

/** Rejecting change `id`: the note keeps its text there, so nothing is written; the pieces after it. */
export function rejectChange(pieces: readonly SuggestionPiece[], id: number): SuggestionPiece[] {
	const change = pieces.find((piece) => piece.kind === "change" && piece.id === id);
	return change?.kind === "change" ? settle(pieces, id, change.removed) : [...pieces];
}

/** Accepting every open change at once: one edit over the whole passage. */
export function acceptAll(pieces: readonly SuggestionPiece[]): PassageEdit {
	const insert = pieces.map((piece) => (piece.kind === "same" ? piece.text : piece.added)).join("");
	return { from: 0, to: passageText(pieces).length, insert };
}

/** The pieces with change `id` turned into unchanged `text`, merged with its unchanged neighbours. */
function settle(pieces: readonly SuggestionPiece[], id: number, text: string): SuggestionPiece[] {
	const settled: SuggestionPiece[] = [];
	for (const piece of pieces) {
		const next: SuggestionPiece = piece.kind === "change" && piece.id === id ? { kind: "same", text } : piece;
		const last = settled.at(-1);
		if (next.kind === "same" && last?.kind === "same")
			settled[settled.length - 1] = { kind: "same", text: last.text + next.text };
		else if (next.kind !== "same" || next.text !== "") settled.push(next);
	}
	return settled;
}
