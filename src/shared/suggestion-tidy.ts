import { lazyRegExp } from "./lazy-regexp";
import { wordTokens, type WordRun } from "./word-tokens";

/** A suggestion before it is numbered: text that stays, or a change (what goes, what comes). */
export type DraftPiece = { kind: "same"; text: string } | { kind: "change"; removed: string; added: string };

/** A line break a slid change may not pass more than this many characters away from. */
const MAX_SLIDE_CHARS = 200;
/** An unchanged word this short between two rewritten phrases is part of the rewrite ("if there is time"). */
const MAX_STRANDED_WORD_CHARS = 3;

/** A letter or digit; made on first use (lazy-regexp.ts: a `\p{…}` literal costs plugin load). */
const ANY_WORD = lazyRegExp(String.raw`[\p{L}\p{N}]`, "u");

/** A word comparison's runs as pieces: what goes and what comes between two unchanged runs is one change. */
export function draftChanges(runs: readonly WordRun[]): DraftPiece[] {
	const pieces: DraftPiece[] = [];
	for (const run of runs) {
		const last = pieces[pieces.length - 1];
		if (run.kind === "same") pieces.push({ kind: "same", text: run.text });
		else if (last?.kind === "change") last[run.kind] += run.text;
		else
			pieces.push({
				kind: "change",
				removed: run.kind === "removed" ? run.text : "",
				added: run.kind === "added" ? run.text : "",
			});
	}
	return pieces;
}

/**
 * Marks changes as a writer would by hand: a change that adds or deletes
 * whole lines starts at a line's start, so a deleted list item takes its own bullet, not the next one's; changes
 * with only spaces or punctuation between them, or one short word stranded in a rewritten phrase, read as one.
 */
export function tidyChanges(pieces: readonly DraftPiece[]): DraftPiece[] {
	return mergeClose(slideToLines(pieces));
}

/**
 * A change that only adds or only deletes text across a line break is slid along the same text around it (the
 * same text results) to where it starts a line and ends with a line break, when there is such a place nearby.
 */
function slideToLines(pieces: readonly DraftPiece[]): DraftPiece[] {
	// Empty unchanged text at both ends, so text slid past either end of the draft has a piece to land in.
	const slid: DraftPiece[] = [
		{ kind: "same", text: "" },
		...pieces.map((piece) => ({ ...piece })),
		{ kind: "same", text: "" },
	];
	slid.forEach((piece, index) => {
		if (piece.kind === "same" || (piece.removed !== "" && piece.added !== "")) return;
		const side = piece.removed === "" ? "added" : "removed";
		const text = piece[side];
		if (!text.includes("\n")) return;
		const previous = slid[index - 1];
		const next = slid[index + 1];
		// Either neighbour being another change would make sliding move text across it.
		if (previous?.kind !== "same" || next?.kind !== "same") return;
		const best = bestLinePlace(previous.text, text, next.text);
		if (!best) return;
		previous.text = best.before;
		next.text = best.after;
		piece[side] = best.text;
	});
	return joinSame(slid);
}

/** Where `text` between `before` and `after` can slide to so it spans whole lines; undefined if nowhere near. */
function bestLinePlace(
	before: string,
	text: string,
	after: string,
): { before: string; text: string; after: string } | undefined {
	const wholeLines = (place: { before: string; text: string }): boolean =>
		(place.before === "" || place.before.endsWith("\n")) && place.text.endsWith("\n");
	const here = { before, text, after };
	if (wholeLines(here)) return undefined;
	let left = here;
	for (
		let step = 0;
		step < MAX_SLIDE_CHARS && left.before !== "" && left.before.endsWith(left.text.slice(-1));
		step++
	) {
		const moved = left.text.slice(-1);
		left = { before: left.before.slice(0, -1), text: moved + left.text.slice(0, -1), after: moved + left.after };
		if (wholeLines(left)) return left;
	}
	let right = here;
	for (
		let step = 0;
		step < MAX_SLIDE_CHARS && right.after !== "" && right.after.startsWith(right.text[0] ?? "");
		step++
	) {
		const moved = right.text[0] ?? "";
		right = { before: right.before + moved, text: right.text.slice(1) + moved, after: right.after.slice(1) };
		if (wholeLines(right)) return right;
	}
	return undefined;
}

/** Joins two changes on one line whose unchanged text between them reads as part of them. */
function mergeClose(pieces: readonly DraftPiece[]): DraftPiece[] {
	const merged: DraftPiece[] = [];
	for (let index = 0; index < pieces.length; index++) {
		const piece = pieces[index];
		const previous = merged[merged.length - 1];
		const next = pieces[index + 1];
		if (
			piece?.kind === "same" &&
			previous?.kind === "change" &&
			next?.kind === "change" &&
			readsAsOne(previous, piece.text, next)
		) {
			previous.removed += piece.text + next.removed;
			previous.added += piece.text + next.added;
			index++;
		} else if (piece) merged.push({ ...piece });
	}
	return merged;
}

function readsAsOne(
	first: { removed: string; added: string },
	gap: string,
	second: { removed: string; added: string },
): boolean {
	if (gap.includes("\n")) return false;
	if (!ANY_WORD().test(gap)) return true;
	const rewrites = (change: { removed: string; added: string }): boolean =>
		ANY_WORD().test(change.removed) && ANY_WORD().test(change.added);
	const words = wordTokens(gap).filter((token) => ANY_WORD().test(token));
	return (
		words.length === 1 &&
		[...(words[0] ?? "").trim()].length <= MAX_STRANDED_WORD_CHARS &&
		rewrites(first) &&
		rewrites(second)
	);
}

function joinSame(pieces: readonly DraftPiece[]): DraftPiece[] {
	const joined: DraftPiece[] = [];
	for (const piece of pieces) {
		const last = joined[joined.length - 1];
		if (piece.kind === "same" && piece.text === "") continue;
		if (piece.kind === "same" && last?.kind === "same") last.text += piece.text;
		else joined.push(piece);
	}
	return joined;
}
