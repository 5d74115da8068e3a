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

/** The end of the proposal so far that may still be aligned differently as more arrives: never settled. */
const UNSETTLED_CHARS = 40;
/** How much further into the passage than the unsettled proposal a streaming comparison looks, beyond twice its length. */
const WINDOW_SLACK_CHARS = 200;

/**
 * The suggestions for a proposal still arriving, kept up to date chunk by chunk. The proposal so far is compared
 * with the passage word by word; what the passage holds after the last thing the proposal matched or replaced is not
 * struck but pending (Claude has not written that far yet), and a change at the very end shows only what it adds so
 * far. So that each chunk costs about the same however long the passage, the comparison settles: what lies well
 * before the proposal's end (behind an unchanged stretch, `UNSETTLED_CHARS` back or more) is kept, and only the rest
 * of the proposal is compared, with a window of the passage after what is kept. The whole proposal is compared
 * afresh when it is complete (`finalSuggestions`), so a preview aligned differently never reaches a decision.
 */
export class StreamingDiff {
	private readonly settled: SuggestionPiece[] = [];
	private settledChanges = 0;
	/** How much of the passage and of the proposal the settled pieces cover. */
	private passageAt = 0;
	private proposalAt = 0;

	constructor(private readonly passage: string) {}

	update(partial: string): StreamingSuggestions {
		const rest = partial.slice(this.proposalAt);
		const windowEnd = Math.min(this.passage.length, this.passageAt + rest.length * 2 + WINDOW_SLACK_CHARS);
		const tail = suggestionPieces(this.passage.slice(this.passageAt, windowEnd), rest);
		this.settle(tail, rest.length);
		let id = this.settledChanges;
		for (const piece of tail) if (piece.kind === "change") piece.id = ++id;
		let pending = this.passage.slice(windowEnd);
		const last = tail.at(-1);
		if (last?.kind === "change" && last.removed !== "") {
			pending = last.removed + pending;
			if (last.added === "") tail.pop();
			else last.removed = "";
		}
		return { pieces: [...this.settled, ...tail], pending };
	}

	/** Moves the pieces up to the last unchanged stretch well before the proposal's end from `tail` to the settled ones. */
	private settle(tail: SuggestionPiece[], restLength: number): void {
		let proposalEnd = 0;
		let keep = 0;
		for (let index = 0; index < tail.length - 1; index++) {
			const piece = tail[index];
			if (piece === undefined) break;
			proposalEnd += piece.kind === "same" ? piece.text.length : piece.added.length;
			if (proposalEnd > restLength - UNSETTLED_CHARS) break;
			if (piece.kind === "same" && /\s/.test(piece.text)) keep = index + 1;
		}
		for (const piece of tail.splice(0, keep)) {
			if (piece.kind === "change") piece.id = ++this.settledChanges;
			this.settled.push(piece);
			this.passageAt += piece.kind === "same" ? piece.text.length : piece.removed.length;
			this.proposalAt += piece.kind === "same" ? piece.text.length : piece.added.length;
		}
	}
}

/** The suggestions for a proposal still arriving, compared in one go (`StreamingDiff` keeps them up to date chunk by chunk). */
export function streamingSuggestions(passage: string, partial: string): StreamingSuggestions {
	return new StreamingDiff(passage).update(partial);
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
