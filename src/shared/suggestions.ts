import { diffWordsWithSpace } from "diff";

/**
 * A proposal read as suggestions: the text that stays, and numbered changes (what goes, what comes). Joining
 * every piece's `added` side gives the proposal, every `removed` side the text before, byte for byte.
 */
export type SuggestionPiece =
	{ kind: "same"; text: string } | { kind: "change"; id: number; removed: string; added: string };

/** Two changes this close (unchanged words between them, on one line) read as one phrase and are one change. */
const MERGE_GAP_WORDS = 2;
const MAX_WORD_DIFF_CHARS = 100_000;
const MAX_WORD_EDIT_LENGTH = 2_000;

/** The word-level suggestions that turn `before` into `after`, nearby changes merged into one. */
export function suggestionPieces(before: string, after: string): SuggestionPiece[] {
	const pieces: SuggestionPiece[] = [];
	const changes =
		before.length + after.length > MAX_WORD_DIFF_CHARS
			? undefined
			: diffWordsWithSpace(before, after, { maxEditLength: MAX_WORD_EDIT_LENGTH });
	// Too big to diff word by word: one change, the whole text.
	if (!changes)
		return before === after ? sameOnly(before) : [{ kind: "change", id: 1, removed: before, added: after }];
	for (const change of changes) {
		const last = pieces[pieces.length - 1];
		if (!change.added && !change.removed) pieces.push({ kind: "same", text: change.value });
		else if (last?.kind === "change") last[change.added ? "added" : "removed"] += change.value;
		else
			pieces.push({
				kind: "change",
				id: 0,
				removed: change.removed ? change.value : "",
				added: change.added ? change.value : "",
			});
	}
	return numbered(mergeNearby(pieces));
}

function sameOnly(text: string): SuggestionPiece[] {
	return text === "" ? [] : [{ kind: "same", text }];
}

function mergeNearby(pieces: SuggestionPiece[]): SuggestionPiece[] {
	const merged: SuggestionPiece[] = [];
	for (let index = 0; index < pieces.length; index++) {
		const piece = pieces[index];
		const previous = merged[merged.length - 1];
		const next = pieces[index + 1];
		if (
			piece?.kind === "same" &&
			previous?.kind === "change" &&
			next?.kind === "change" &&
			isShortGap(piece.text)
		) {
			previous.removed += piece.text + next.removed;
			previous.added += piece.text + next.added;
			index++;
		} else if (piece) merged.push(piece);
	}
	return merged;
}

function isShortGap(text: string): boolean {
	return !text.includes("\n") && (text.match(/\S+/g)?.length ?? 0) <= MERGE_GAP_WORDS;
}

function numbered(pieces: SuggestionPiece[]): SuggestionPiece[] {
	let id = 1;
	for (const piece of pieces) if (piece.kind === "change") piece.id = id++;
	return pieces;
}

/** The text as the user decided it: every change applied except the rejected ones. */
export function decidedText(pieces: readonly SuggestionPiece[], rejected: ReadonlySet<number>): string {
	return pieces
		.map((piece) => (piece.kind === "same" ? piece.text : rejected.has(piece.id) ? piece.removed : piece.added))
		.join("");
}

/** Who changed a stretch of text: the proposer ("claude") or the user editing the proposal ("you"). */
export interface MarkedRun {
	text: string;
	claude?: "added" | "removed";
	you?: "added" | "removed";
}

type Layer = { span: number; mark?: "added" | "removed" } | { insert: string; mark: "added" | "removed" };

/**
 * The user's edits of the decided text laid over the proposer's changes, so each stretch says who changed it:
 * text the proposer added and the user then deleted is marked both ways. Joining the runs that are not marked
 * removed (by either) gives `edited`.
 */
export function markEdits(
	pieces: readonly SuggestionPiece[],
	rejected: ReadonlySet<number>,
	edited: string,
): MarkedRun[] {
	const decided = decidedText(pieces, rejected);
	const proposer: Layer[] = [];
	for (const piece of pieces) {
		if (piece.kind === "same") proposer.push({ span: piece.text.length });
		else if (rejected.has(piece.id)) proposer.push({ span: piece.removed.length });
		else proposer.push({ insert: piece.removed, mark: "removed" }, { span: piece.added.length, mark: "added" });
	}
	const tooBig = decided.length + edited.length > MAX_WORD_DIFF_CHARS;
	const changes = (tooBig
		? undefined
		: diffWordsWithSpace(decided, edited, { maxEditLength: MAX_WORD_EDIT_LENGTH })) ?? [
		{ value: decided, removed: true, added: false, count: 1 },
		{ value: edited, added: true, removed: false, count: 1 },
	];
	const user: Layer[] = changes.map((change) =>
		change.added
			? { insert: change.value, mark: "added" }
			: { span: change.value.length, ...(change.removed ? { mark: "removed" as const } : {}) },
	);
	return overlay(decided, proposer, user);
}

/** Walks the decided text with both layers, cutting it wherever either layer's mark changes. */
function overlay(decided: string, proposer: Layer[], user: Layer[]): MarkedRun[] {
	const runs: MarkedRun[] = [];
	const push = (run: MarkedRun): void => {
		if (run.text === "") return;
		const last = runs[runs.length - 1];
		if (last && last.claude === run.claude && last.you === run.you) last.text += run.text;
		else runs.push(run);
	};
	let at = 0;
	let p = 0;
	let u = 0;
	let leftP = 0;
	let leftU = 0;
	for (;;) {
		const a = proposer[p];
		const b = user[u];
		if (a && "insert" in a) {
			push({ text: a.insert, claude: a.mark });
			p++;
		} else if (b && "insert" in b) {
			push({ text: b.insert, you: b.mark });
			u++;
		} else if (a && leftP === 0 && a.span === 0) p++;
		else if (b && leftU === 0 && b.span === 0) u++;
		else if (a && b) {
			if (leftP === 0) leftP = a.span;
			if (leftU === 0) leftU = b.span;
			const length = Math.min(leftP, leftU);
			push({
				text: decided.slice(at, at + length),
				...(a.mark ? { claude: a.mark } : {}),
				...(b.mark ? { you: b.mark } : {}),
			});
			at += length;
			leftP -= length;
			leftU -= length;
			if (leftP === 0) p++;
			if (leftU === 0) u++;
		} else break;
	}
	return runs;
}
