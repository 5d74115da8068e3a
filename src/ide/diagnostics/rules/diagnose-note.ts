import { comparePositions, rangeContains, rangeOnLine } from "../../../vault/markdown/text-position";
import type { Diagnostic } from "../diagnostic-types";
import type { NoteFacts } from "../../../vault/markdown/note-model";
import { checkDuplicateBlockIds } from "./duplicate-block-id-rule";
import { checkFrontmatterRule } from "./frontmatter-rule";
import { checkLinkTargets } from "./link-target-rule";
import type { DiagnosticRule, RuleContext } from "./rule";

export const RULES: readonly DiagnosticRule[] = [checkFrontmatterRule, checkLinkTargets, checkDuplicateBlockIds];

/**
 * Every rule's diagnostics for one note, in document order. Links and block ids inside code do not count, nor do
 * the links in the frontmatter's properties (Obsidian does not report them either).
 */
export function diagnoseNote(note: NoteFacts, context: RuleContext): Diagnostic[] {
	const visible = withoutCode(note);
	return RULES.flatMap((rule) => rule(visible, context)).sort((a, b) =>
		comparePositions(a.range.start, b.range.start),
	);
}

function withoutCode(note: NoteFacts): NoteFacts {
	const codeRanges = note.codeRanges ?? [];
	const bodyFrom = note.frontmatter ? note.frontmatter.endLine + 1 : 0;
	if (codeRanges.length === 0 && (bodyFrom === 0 || (note.links[0]?.line ?? bodyFrom) >= bodyFrom)) return note;
	const outside = (span: { line: number; start: number; end: number }): boolean =>
		!codeRanges.some((code) => rangeContains(code, rangeOnLine(span)));
	return {
		...note,
		links: note.links.filter((link) => link.line >= bodyFrom && outside(link)),
		blockIds: note.blockIds.filter(outside),
	};
}
