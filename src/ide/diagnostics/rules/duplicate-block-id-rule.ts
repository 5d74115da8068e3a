import { DIAGNOSTIC_CODES, type Diagnostic } from "../diagnostic-types";
import type { NoteFacts } from "../../../vault/markdown/note-model";
import { blockKey } from "../../../vault/markdown/subpath-match";
import { rangeOnLine } from "../../../vault/markdown/text-position";

/** A block id used again in the same note: links to it reach only one of the blocks. Reported on each repeat. */
export function checkDuplicateBlockIds(note: NoteFacts): Diagnostic[] {
	const firstLine = new Map<string, number>();
	const diagnostics: Diagnostic[] = [];
	for (const block of note.blockIds) {
		const key = blockKey(block.id);
		const first = firstLine.get(key);
		if (first === undefined) {
			firstLine.set(key, block.line);
			continue;
		}
		diagnostics.push({
			message: `Duplicate block id ^${block.id}: already used on line ${first + 1} of this note, so links to it reach only one block`,
			severity: "Warning",
			source: "Obsidian",
			code: DIAGNOSTIC_CODES.duplicateBlockId,
			range: rangeOnLine(block),
		});
	}
	return diagnostics;
}
