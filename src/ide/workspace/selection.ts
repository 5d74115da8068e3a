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
export function selectionSnapshot(
	absolutePath: string,
	text: string,
	anchor: Position,
	head: Position,
): SelectionSnapshot {
	const [start, end] = comparePositions(anchor, head) <= 0 ? [anchor, head] : [head, anchor];
	const isEmpty = start.line === end.line && start.character === end.character;
	return {
		text: isEmpty ? "" : text,
		filePath: absolutePath,
		fileUrl: fileUrlOf(absolutePath),
		selection: { start, end, isEmpty },
	};
}

/** The last note's file URL: selections follow each other in one note, and building a URL costs more than the rest of a snapshot. */
let lastFileUrl = { absolutePath: "", href: "" };

function fileUrlOf(absolutePath: string): string {
	if (lastFileUrl.absolutePath !== absolutePath)
		lastFileUrl = { absolutePath, href: pathToFileURL(absolutePath).href };
	return lastFileUrl.href;
}

function comparePositions(a: Position, b: Position): number {
	return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

/** A cursor (empty selection) in a note: what is sent when the active note changes. */
export function cursorSnapshot(absolutePath: string, at: Position = { line: 0, character: 0 }): SelectionSnapshot {
	return selectionSnapshot(absolutePath, "", at, at);
}

/**
 * Offsets of a document's lines, so positions can be clamped and turned into offsets. Built once per text, it can
 * serve many selections in it (the headless editor keeps one with the note's text).
 */
export class LineIndex {
	private readonly starts = [0];

	constructor(readonly text: string) {
		for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) this.starts.push(at + 1);
	}

	/** The position moved inside the document: an existing line, a character within that line's content. */
	clamp(position: Position): Position {
		const line = Math.min(Math.max(position.line, 0), this.starts.length - 1);
		const lineStart = this.starts[line] ?? 0;
		return { line, character: Math.min(Math.max(position.character, 0), this.contentEnd(line) - lineStart) };
	}

	offset(position: Position): number {
		const clamped = this.clamp(position);
		return (this.starts[clamped.line] ?? 0) + clamped.character;
	}

	/** The text between two positions (clamped first), in either order. */
	between(start: Position, end: Position): string {
		const [from, to] = [this.offset(start), this.offset(end)];
		return from <= to ? this.text.slice(from, to) : this.text.slice(to, from);
	}

	/** A line's content excludes its break ("\n" or "\r\n"), as in LSP. */
	private contentEnd(line: number): number {
		const isLast = line + 1 >= this.starts.length;
		let end = isLast ? this.text.length : (this.starts[line + 1] ?? this.text.length) - 1;
		if (!isLast && end > (this.starts[line] ?? 0) && this.text[end - 1] === "\r") end--;
		return end;
	}
}

/** The text between two positions of a document, by 0-based line and UTF-16 character. */
export function textBetween(documentText: string, start: Position, end: Position): string {
	return new LineIndex(documentText).between(start, end);
}

/** A position moved inside the document (an existing line, a character within it). */
export function clampPosition(documentText: string, position: Position): Position {
	return new LineIndex(documentText).clamp(position);
}

/** A tag for Claude (`at_mentioned`): a note with an optional 0-based line range, or a folder (path ending in "/"). */
export interface Mention {
	filePath: string;
	lineStart?: number;
	lineEnd?: number;
	[key: string]: unknown;
}
