/**
 * What an inline edit rewrites in a note's text: the selection, or without one the paragraph the cursor is in (on
 * an empty line: nothing, and Claude writes new text there); and the section around it that Claude reads with it.
 * Offsets are UTF-16 code units into the note's text, as CodeMirror counts them.
 */

/** A stretch of the note's text, `from` ≤ `to`. */
export interface TextSpan {
	from: number;
	to: number;
}

/** The section around a passage: from its heading (or the note's start) to the next heading at its level or above. */
export interface NoteSection extends TextSpan {
	/** The heading's text, without its `#` marks; absent before the note's first heading. */
	heading?: string;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/** The passage: the selection between `anchor` and `head`, or the cursor's paragraph when they are the same. */
export function editTarget(text: string, anchor: number, head: number): TextSpan {
	if (anchor !== head) return { from: Math.min(anchor, head), to: Math.max(anchor, head) };
	const lines = lineSpans(text);
	const at = lines.findIndex((line) => head >= line.from && head <= line.to);
	const cursorLine = lines[at];
	if (cursorLine === undefined || isBlank(text, cursorLine)) return { from: head, to: head };
	// A heading is a paragraph of its own; a paragraph ends at a blank line, a heading or a code fence.
	if (isHeading(text, cursorLine)) return { from: cursorLine.from, to: cursorLine.to };
	let first = at;
	let last = at;
	while (first > 0 && isParagraphLine(text, lines[first - 1])) first--;
	while (last < lines.length - 1 && isParagraphLine(text, lines[last + 1])) last++;
	return { from: lines[first]?.from ?? head, to: lines[last]?.to ?? head };
}

/** The section the passage is in: headings inside fenced code do not count. */
export function surroundingSection(text: string, passage: TextSpan): NoteSection {
	const headings = headingsOf(text);
	const own = headings.filter((heading) => heading.from <= passage.from).at(-1);
	const level = own?.level ?? 0;
	const next = headings.find(
		(heading) =>
			heading.from >= passage.to && heading.from > (own?.from ?? -1) && (level === 0 || heading.level <= level),
	);
	return { from: own?.from ?? 0, to: next?.from ?? text.length, ...(own ? { heading: own.text } : {}) };
}

/** The 1-based lines a span covers (a span ending just after a line break ends on the line before it). */
export function lineNumbers(text: string, span: TextSpan): { first: number; last: number } {
	const first = countBreaks(text, 0, span.from) + 1;
	const end = span.to > span.from && text[span.to - 1] === "\n" ? span.to - 1 : span.to;
	return { first, last: first + countBreaks(text, span.from, end) };
}

type LineSpan = TextSpan;

function lineSpans(text: string): LineSpan[] {
	const spans: LineSpan[] = [];
	let from = 0;
	for (;;) {
		const end = text.indexOf("\n", from);
		if (end < 0) {
			spans.push({ from, to: text.length });
			return spans;
		}
		spans.push({ from, to: end });
		from = end + 1;
	}
}

function isBlank(text: string, line: LineSpan): boolean {
	return text.slice(line.from, line.to).trim() === "";
}

function isHeading(text: string, line: LineSpan): boolean {
	return HEADING.test(text.slice(line.from, line.to));
}

/** A line that continues a paragraph: not blank, not a heading, not a code fence. */
function isParagraphLine(text: string, line: LineSpan | undefined): boolean {
	return (
		line !== undefined &&
		!isBlank(text, line) &&
		!isHeading(text, line) &&
		!FENCE.test(text.slice(line.from, line.to))
	);
}

function headingsOf(text: string): (LineSpan & { level: number; text: string })[] {
	const headings: (LineSpan & { level: number; text: string })[] = [];
	let fence: string | undefined;
	for (const line of lineSpans(text)) {
		const content = text.slice(line.from, line.to);
		const marker = FENCE.exec(content)?.[1];
		if (marker !== undefined) {
			if (fence === undefined) fence = marker;
			else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
			continue;
		}
		if (fence !== undefined) continue;
		const match = HEADING.exec(content);
		if (match) headings.push({ ...line, level: match[1]?.length ?? 1, text: match[2] ?? "" });
	}
	return headings;
}

function countBreaks(text: string, from: number, to: number): number {
	let count = 0;
	for (let index = text.indexOf("\n", from); index >= 0 && index < to; index = text.indexOf("\n", index + 1)) count++;
	return count;
}
