import { diffArrays } from "diff";
import { lazyRegExp } from "./lazy-regexp";

/** A stretch of two compared texts: in both, only in the old one, or only in the new one. */
export interface WordRun {
	kind: "same" | "removed" | "added";
	text: string;
}

/** Past this many token edits the texts are too different to compare word by word. */
const MAX_TOKEN_EDITS = 1_000;

/**
 * Obsidian's Electron and Node (16 and later) both have it. Made on the first comparison, not when the module loads:
 * a word segmenter loads ICU's break rules, tens of milliseconds of plugin load (issue 31's profile).
 */
let segmenter: Intl.Segmenter | undefined;
const SPACES = /^[^\S\r\n]+$/;

/**
 * The text cut into words as a writer counts them, each with the spaces after it (not line breaks): a word that
 * stays keeps its space, so a comparison counts words, never the spaces between them (comparing spaces as tokens
 * of their own lets a diff keep the spaces and strike the words between them, jsdiff#160). Punctuation marks and
 * line breaks are tokens of their own. Words come from Intl.Segmenter, so scripts without spaces (Chinese,
 * Japanese, Thai) are cut into words too. Joining the tokens gives the text back.
 */
export function wordTokens(text: string): string[] {
	segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
	const parts = Array.from(segmenter.segment(text), (part) => part.segment);
	const tokens: string[] = [];
	for (const part of parts) {
		const last = tokens[tokens.length - 1];
		if (last !== undefined && SPACES.test(part) && !last.endsWith("\n")) tokens[tokens.length - 1] = last + part;
		else tokens.push(part);
	}
	return tokens;
}

/**
 * The word-by-word comparison of two texts (jsdiff's diffArrays over `wordTokens`), as runs that join back to
 * either text byte for byte; undefined when they differ in too many words to compare that way. Where a word is
 * replaced, the spaces and punctuation both sides share at its edges stay unchanged ("shoes~~ and~~, a", not
 * "shoes~~ and ~~, a"), as does a word whose space after it is all that changed.
 */
export function compareWords(before: string, after: string): WordRun[] | undefined {
	const changes = diffArrays(wordTokens(before), wordTokens(after), { maxEditLength: MAX_TOKEN_EDITS });
	if (!changes) return undefined;
	const runs: WordRun[] = [];
	const push = (kind: WordRun["kind"], text: string): void => {
		if (text === "") return;
		const last = runs[runs.length - 1];
		if (last?.kind === kind) last.text += text;
		else runs.push({ kind, text });
	};
	for (let index = 0; index < changes.length; index++) {
		const change = changes[index];
		const next = changes[index + 1];
		if (change.removed && next?.added) {
			const [same, removed, added, sameAfter] = trimShared(change.value.join(""), next.value.join(""));
			push("same", same);
			push("removed", removed);
			push("added", added);
			push("same", sameAfter);
			index++;
		} else push(change.added ? "added" : change.removed ? "removed" : "same", change.value.join(""));
	}
	return runs;
}

/** A letter, mark, digit or underscore; made on first use (lazy-regexp.ts: a `\p{…}` literal costs plugin load). */
const WORD_CHARACTER = lazyRegExp(String.raw`[\p{L}\p{M}\p{N}_]`, "u");

/** What the removed and the added text share at their start and end (cut between words), and what is left. */
function trimShared(removed: string, added: string): [string, string, string, string] {
	const shortest = Math.min(removed.length, added.length);
	let start = 0;
	while (start < shortest && removed[start] === added[start]) start++;
	while (start > 0 && !(atBoundary(removed, start) && atBoundary(added, start))) start--;
	let end = 0;
	while (end < shortest - start && removed[removed.length - 1 - end] === added[added.length - 1 - end]) end++;
	while (end > 0 && !(atBoundary(removed, removed.length - end) && atBoundary(added, added.length - end))) end--;
	return [
		removed.slice(0, start),
		removed.slice(start, removed.length - end),
		added.slice(start, added.length - end),
		removed.slice(removed.length - end),
	];
}

/** Whether a cut at `index` falls between words, not inside one. */
function atBoundary(text: string, index: number): boolean {
	if (index <= 0 || index >= text.length) return true;
	const word = WORD_CHARACTER();
	return !(word.test(text[index - 1]) && word.test(text[index]));
}
