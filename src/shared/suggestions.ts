import { compareLines } from "./line-anchors";
import { draftChanges, tidyChanges, type DraftPiece } from "./suggestion-tidy";
import { pairLines } from "./line-pairing";
import { compareWords } from "./word-tokens";

/**
 * A proposal read as suggestions: the text that stays, and numbered changes (what goes, what comes). Joining
 * every piece's `added` side gives the proposal, every `removed` side the text before, byte for byte.
 */
export type SuggestionPiece =
	{ kind: "same"; text: string } | { kind: "change"; id: number; removed: string; added: string };

/** Past this many line edits between two unchanged lines, the lines there are shown replaced as a whole. */
const MAX_LINE_EDITS = 1_000;
/** A block of replaced lines longer than this is one change, not compared word by word. */
const MAX_BLOCK_CHARS = 20_000;
const MAX_WORD_DIFF_CHARS = 100_000;
/** Each change costs the reader this much more than the characters it marks (it is one more thing to decide). */
const COST_PER_CHANGE = 4;
/** What a change that crosses a line start without taking its whole line costs the reader: it reads as wrong. */
const COST_OF_BROKEN_LINE = 40;

/**
 * The smallest changes a writer would mark by hand that turn `before` into `after`: lines first (an unchanged line
 * is never part of a change, a deleted list line goes whole, with its own bullet), then the words of each block of
 * replaced lines, compared either as one stretch of text (a paragraph split or joined) or line by line with each
 * old line beside the new line that rewords it (a line deleted next to one edited), whichever marks less.
 */
export function suggestionPieces(before: string, after: string): SuggestionPiece[] {
	if (before === after) return before === "" ? [] : [{ kind: "same", text: before }];
	const pieces: DraftPiece[] = [];
	let removed: string[] = [];
	let added: string[] = [];
	const flush = (): void => {
		if (removed.length + added.length > 0) pieces.push(...blockChanges(removed, added));
		removed = [];
		added = [];
	};
	for (const run of compareLines(linesOf(before), linesOf(after), MAX_LINE_EDITS)) {
		if (run.kind === "removed") removed.push(...run.lines);
		else if (run.kind === "added") added.push(...run.lines);
		else {
			flush();
			pieces.push({ kind: "same", text: run.lines.join("") });
		}
	}
	flush();
	return numbered(pieces);
}

/** The text's lines, each with its line break (LF or CRLF); none for an empty text. */
function linesOf(text: string): string[] {
	return text === "" ? [] : text.split(/(?<=\n)/);
}

/** The changes in a block of replaced lines (starting and ending at line ends). */
function blockChanges(removed: readonly string[], added: readonly string[]): DraftPiece[] {
	const before = removed.join("");
	const after = added.join("");
	const whole: DraftPiece[] = [{ kind: "change", removed: before, added: after }];
	if (removed.length === 0 || added.length === 0 || before.length + after.length > MAX_BLOCK_CHARS) return whole;
	const candidates = [wordChanges(before, after) ?? whole];
	if (removed.length > 1 || added.length > 1) {
		const groups = pairLines(removed, added);
		if (groups)
			candidates.push(
				groups.flatMap((group) =>
					group.paired
						? (wordChanges(group.removed, group.added) ?? [
								{ kind: "change", removed: group.removed, added: group.added },
							])
						: [{ kind: "change", removed: group.removed, added: group.added }],
				),
			);
	}
	return candidates.reduce((best, candidate) => (readingCost(candidate) < readingCost(best) ? candidate : best));
}

/** Word by word, tidied as a writer would mark it; undefined when the texts differ in too many words. */
function wordChanges(before: string, after: string): DraftPiece[] | undefined {
	const runs = compareWords(before, after);
	return runs && tidyChanges(draftChanges(runs));
}

/**
 * How much a reader has to take in: the characters struck and added, each change, and, heavily, each change that
 * crosses into a line without taking the whole line (striking the next line's bullet).
 */
function readingCost(pieces: readonly DraftPiece[]): number {
	let cost = 0;
	pieces.forEach((piece, index) => {
		if (piece.kind === "same") return;
		cost += piece.removed.length + piece.added.length + COST_PER_CHANGE;
		const previous = pieces[index - 1];
		const next = pieces[index + 1];
		const startsLine = previous === undefined || (previous.kind === "same" && previous.text.endsWith("\n"));
		const endsLine = next === undefined || (next.kind === "same" && /^\r?\n/.test(next.text));
		for (const side of [piece.removed, piece.added]) {
			const crossesLines = side.replace(/\r?\n$/, "").includes("\n") && !/^[\r\n]*$/.test(side);
			if (crossesLines && !(startsLine && (endsLine || side.endsWith("\n")))) cost += COST_OF_BROKEN_LINE;
		}
	});
	return cost;
}

function numbered(pieces: readonly DraftPiece[]): SuggestionPiece[] {
	const joined: SuggestionPiece[] = [];
	let id = 1;
	for (const piece of pieces) {
		const last = joined[joined.length - 1];
		if (piece.kind === "same") {
			if (piece.text === "") continue;
			if (last?.kind === "same") last.text += piece.text;
			else joined.push({ kind: "same", text: piece.text });
		} else joined.push({ kind: "change", id: id++, removed: piece.removed, added: piece.added });
	}
	return joined;
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
	const runs = (tooBig ? undefined : compareWords(decided, edited)) ?? [
		{ kind: "removed", text: decided },
		{ kind: "added", text: edited },
	];
	const user: Layer[] = runs.map((run) =>
		run.kind === "added"
			? { insert: run.text, mark: "added" }
			: { span: run.text.length, ...(run.kind === "removed" ? { mark: "removed" as const } : {}) },
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
