import { pathToFileURL } from "node:url";

/** 0-based line, and character as a UTF-16 offset in that line (LSP style, like the CLI expects). */
export interface Position {
	line: number;
	character: number;
}

export interface SelectionRange {
	start: Position;
	end: Position;
	isEmpty: boolean;
}

/**
 * The active note's selection in the exact shape of `selection_changed` params. `text` is empty for a
 * cursor; with an empty text the CLI tells the model "the user opened <file>".
 */
export interface SelectionSnapshot {
	text: string;
	filePath: string;
	fileUrl: string;
	selection: SelectionRange;
	[key: string]: unknown;
}

/** A backwards selection (anchor after head) is reported start → end: the CLI counts lines as end.line − start.line + 1. */
export function selectionSnapshot(absolutePath: string, text: string, anchor: Position, head: Position): SelectionSnapshot {
	const [start, end] = comparePositions(anchor, head) <= 0 ? [anchor, head] : [head, anchor];
	const isEmpty = start.line === end.line && start.character === end.character;
	return { text: isEmpty ? "" : text, filePath: absolutePath, fileUrl: pathToFileURL(absolutePath).href, selection: { start, end, isEmpty } };
}

function comparePositions(a: Position, b: Position): number {
	return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

/** A cursor (empty selection) in a note: what is sent when the active note changes. */
export function cursorSnapshot(absolutePath: string, at: Position = { line: 0, character: 0 }): SelectionSnapshot {
	return selectionSnapshot(absolutePath, "", at, at);
}

/** The text between two positions of a document, by 0-based line and UTF-16 character. */
export function textBetween(documentText: string, start: Position, end: Position): string {
	const lineStarts = [0];
	for (let i = 0; i < documentText.length; i++) if (documentText[i] === "\n") lineStarts.push(i + 1);
	const offset = (position: Position): number => {
		const line = Math.min(Math.max(position.line, 0), lineStarts.length - 1);
		const lineStart = lineStarts[line] ?? 0;
		// A line's content excludes its break ("\n" or "\r\n"), as in LSP: a character past it stops before the break.
		let lineEnd = line + 1 < lineStarts.length ? (lineStarts[line + 1] ?? documentText.length) - 1 : documentText.length;
		if (lineEnd > lineStart && documentText[lineEnd - 1] === "\r" && line + 1 < lineStarts.length) lineEnd--;
		return Math.min(lineStart + Math.max(position.character, 0), lineEnd);
	};
	const [from, to] = [offset(start), offset(end)].sort((a, b) => a - b) as [number, number];
	return documentText.slice(from, to);
}

/** A tag for Claude (`at_mentioned`): a note with an optional 0-based line range, or a folder (path ending in "/"). */
export interface Mention {
	filePath: string;
	lineStart?: number;
	lineEnd?: number;
	[key: string]: unknown;
}
