import { compareLines } from "./line-anchors";
import { splitLinesWithoutFinalBreak } from "./text-lines";
import { compareWords } from "./word-tokens";

export type SegmentKind = "equal" | "added" | "removed";

/** A run of characters inside a line; in changed lines, `added`/`removed` mark the words that changed. */
export interface Segment {
	text: string;
	kind: SegmentKind;
}

export type LineKind = "context" | "added" | "removed";

export interface DiffLine {
	kind: LineKind;
	/** 1-based line number in the current note (context and removed lines). */
	oldNumber?: number;
	/** 1-based line number in the proposal (context and added lines). */
	newNumber?: number;
	segments: Segment[];
}

export interface LineDiff {
	lines: DiffLine[];
	added: number;
	removed: number;
}

/** Word-level highlighting is skipped for changed blocks bigger than this (the line diff still shows them). */
const MAX_WORD_DIFF_CHARS = 50_000;
/** Past this many line edits between two unchanged lines, the lines there are shown replaced as a whole. */
const MAX_LINE_EDITS = 1_000;

/**
 * Line diff of two texts, with word-level highlights inside each block of changed lines. Lines are
 * split on LF or CRLF; a final line break does not count as an extra empty line.
 */
export function computeLineDiff(original: string, proposed: string): LineDiff {
	const oldLines = splitLinesWithoutFinalBreak(original);
	const newLines = splitLinesWithoutFinalBreak(proposed);
	const lines: DiffLine[] = [];
	let oldNumber = 1;
	let newNumber = 1;
	let removedBlock: string[] = [];
	let addedBlock: string[] = [];
	const flushChanges = (): void => {
		if (removedBlock.length === 0 && addedBlock.length === 0) return;
		const [oldSegments, newSegments] = wordHighlights(removedBlock, addedBlock);
		oldSegments.forEach((segments) => lines.push({ kind: "removed", oldNumber: oldNumber++, segments }));
		newSegments.forEach((segments) => lines.push({ kind: "added", newNumber: newNumber++, segments }));
		removedBlock = [];
		addedBlock = [];
	};
	for (const run of compareLines(oldLines, newLines, MAX_LINE_EDITS)) {
		if (run.kind === "removed") removedBlock.push(...run.lines);
		else if (run.kind === "added") addedBlock.push(...run.lines);
		else {
			flushChanges();
			for (const text of run.lines) {
				lines.push({
					kind: "context",
					oldNumber: oldNumber++,
					newNumber: newNumber++,
					segments: [{ text, kind: "equal" }],
				});
			}
		}
	}
	flushChanges();
	return {
		lines,
		added: lines.filter((line) => line.kind === "added").length,
		removed: lines.filter((line) => line.kind === "removed").length,
	};
}

/**
 * Diffs a removed block against the added block that replaces it word by word, then cuts the result
 * back into lines, so a sentence rewritten across a line break still shows only the changed words.
 */
function wordHighlights(removed: string[], added: string[]): [Segment[][], Segment[][]] {
	const whole = (lines: string[], kind: SegmentKind): Segment[][] =>
		lines.map((text) => (text === "" ? [] : [{ text, kind }]));
	if (removed.length === 0 || added.length === 0) return [whole(removed, "removed"), whole(added, "added")];
	const oldText = removed.join("\n");
	const newText = added.join("\n");
	if (oldText.length + newText.length > MAX_WORD_DIFF_CHARS)
		return [whole(removed, "removed"), whole(added, "added")];
	const runs = compareWords(oldText, newText);
	if (!runs) return [whole(removed, "removed"), whole(added, "added")];
	const oldSide = new LineBuilder();
	const newSide = new LineBuilder();
	for (const run of runs) {
		if (run.kind === "added") newSide.append(run.text, "added");
		else if (run.kind === "removed") oldSide.append(run.text, "removed");
		else {
			oldSide.append(run.text, "equal");
			newSide.append(run.text, "equal");
		}
	}
	return [oldSide.finish(), newSide.finish()];
}

/** Collects segments into lines, starting a new line at each "\n". */
class LineBuilder {
	private readonly lines: Segment[][] = [[]];

	append(text: string, kind: SegmentKind): void {
		text.split("\n").forEach((part, index) => {
			if (index > 0) this.lines.push([]);
			if (part === "") return;
			const line = this.lines[this.lines.length - 1];
			const last = line?.[line.length - 1];
			if (last && last.kind === kind) last.text += part;
			else line?.push({ text: part, kind });
		});
	}

	finish(): Segment[][] {
		return this.lines;
	}
}
