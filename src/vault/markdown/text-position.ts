/** A place in a note: 0-based line, and character as a UTF-16 offset in that line (LSP and CodeMirror agree). */
export interface TextPosition {
	line: number;
	character: number;
}

export interface TextRange {
	start: TextPosition;
	end: TextPosition;
}

export function comparePositions(a: TextPosition, b: TextPosition): number {
	return a.line - b.line || a.character - b.character;
}

export function rangeContains(outer: TextRange, inner: TextRange): boolean {
	return comparePositions(outer.start, inner.start) <= 0 && comparePositions(inner.end, outer.end) <= 0;
}

/** A span on one line (a link, a `^id`): `start` and `end` are UTF-16 offsets in that line. */
export function rangeOnLine(span: { line: number; start: number; end: number }): TextRange {
	return { start: { line: span.line, character: span.start }, end: { line: span.line, character: span.end } };
}
