import { comparePositions, rangeContains } from "../../../vault/markdown/text-position";
import type { Diagnostic } from "../diagnostic-types";
import type { NoteMetadata } from "../../../vault/markdown/note-metadata";
import { checkDuplicateBlockIds } from "./duplicate-block-id-rule";
import { checkFrontmatterRule } from "./frontmatter-rule";
import { checkLinkTargets } from "./link-target-rule";
import type { DiagnosticRule, RuleContext } from "./rule";

export const RULES: readonly DiagnosticRule[] = [checkFrontmatterRule, checkLinkTargets, checkDuplicateBlockIds];

/** Every rule's diagnostics for one note, in document order. Links and block ids inside code do not count. */
export function diagnoseNote(note: NoteMetadata, context: RuleContext): Diagnostic[] {
	const visible = withoutCode(note);
	return RULES.flatMap((rule) => rule(visible, context)).sort((a, b) => comparePositions(a.range.start, b.range.start));
}

function withoutCode(note: NoteMetadata): NoteMetadata {
	if (note.codeRanges.length === 0) return note;
	const outside = (range: NoteMetadata["links"][number]["range"]): boolean => !note.codeRanges.some((code) => rangeContains(code, range));
	return {
		...note,
		links: note.links.filter((link) => outside(link.range)),
		blockIds: note.blockIds.filter((block) => outside(block.range)),
	};
}
