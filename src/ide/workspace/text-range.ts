import { splitLinesWithoutFinalBreak } from "../../shared/text-lines";
import type { Position, TextRange } from "./workspace-port";

/** The position of a UTF-16 offset in a text (0-based line and character; LF or CRLF line breaks). */
export function positionAt(text: string, offset: number): Position {
	let line = 0;
	let lineStart = 0;
	for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) {
		line++;
		lineStart = index + 1;
	}
	return { line, character: offset - lineStart };
}

/**
 * The range from the first `startText` to the end of the first `endText` after it (VS Code's openFile).
 * Without `endText` the range is `startText` itself. Undefined when a text is not found.
 */
export function findTextRange(
	text: string,
	startText: string,
	endText: string | undefined,
	selectToEndOfLine: boolean,
): TextRange | undefined {
	const startOffset = text.indexOf(startText);
	if (startOffset === -1) return undefined;
	let endOffset = startOffset + startText.length;
	if (endText !== undefined && endText !== "") {
		const found = text.indexOf(endText, startOffset + startText.length);
		if (found === -1) return undefined;
		endOffset = found + endText.length;
	}
	if (selectToEndOfLine) endOffset = endOfLine(text, endOffset);
	return { start: positionAt(text, startOffset), end: positionAt(text, endOffset) };
}

/** Whole lines `startLine`…`endLine` (1-based, inclusive, clamped to the note). */
export function lineRange(text: string, startLine: number, endLine: number | undefined): TextRange {
	const lines = splitLinesWithoutFinalBreak(text);
	const last = Math.max(0, lines.length - 1);
	const first = Math.min(Math.max(startLine, 1) - 1, last);
	const end = Math.min(Math.max((endLine ?? startLine) - 1, first), last);
	return { start: { line: first, character: 0 }, end: { line: end, character: (lines[end] ?? "").length } };
}

export function lineCount(text: string): number {
	return Math.max(1, splitLinesWithoutFinalBreak(text).length);
}

function endOfLine(text: string, offset: number): number {
	const newline = text.indexOf("\n", offset);
	if (newline === -1) return text.length;
	return newline > 0 && text[newline - 1] === "\r" ? newline - 1 : newline;
}
