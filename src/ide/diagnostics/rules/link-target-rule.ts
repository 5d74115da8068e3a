import { DIAGNOSTIC_CODES, type Diagnostic } from "../diagnostic-types";
import type { LinkFact, NoteFacts } from "../../../vault/markdown/note-model";
import { hasBlockId, hasHeadingPath } from "../../../vault/markdown/subpath-match";
import { rangeOnLine } from "../../../vault/markdown/text-position";
import type { RuleContext } from "./rule";

/**
 * Links and embeds whose file does not exist, and links to headings or block ids the target does not have. Links
 * resolve as the context says (behind the privacy boundary: as if private notes were not in the vault); links
 * into private notes are skipped whole (`isHiddenLinkTarget`), whether or not the target exists.
 */
export function checkLinkTargets(note: NoteFacts, context: RuleContext): Diagnostic[] {
	const diagnostics: Diagnostic[] = [];
	for (const link of note.links) {
		const target = context.resolveLink(link.linkpath, note.path);
		if (context.isHiddenLinkTarget?.(link.linkpath, note.path, target)) continue;
		if (target === undefined) {
			diagnostics.push(unresolved(link));
			continue;
		}
		if (link.subpath === undefined) continue;
		const targetNote = target === note.path ? note : context.factsOf(target);
		// Subpaths into PDFs, images or canvases (#page=2 …) are not headings; only notes are checked.
		if (!targetNote) continue;
		const problem = subpathProblem(
			link,
			link.subpath,
			targetNote,
			target === note.path,
			context.hasSubpath?.(target, link.subpath),
		);
		if (problem) diagnostics.push(problem);
	}
	return diagnostics;
}

function unresolved(link: LinkFact): Diagnostic {
	return link.embed
		? {
				message: `Embedded file not found: no file named or at "${link.linkpath}" in the vault`,
				severity: "Warning",
				source: "Obsidian",
				code: DIAGNOSTIC_CODES.unresolvedEmbed,
				range: rangeOnLine(link),
			}
		: {
				message: `Unresolved link: no note or file named or at "${link.linkpath}" in the vault`,
				severity: "Warning",
				source: "Obsidian",
				code: DIAGNOSTIC_CODES.unresolvedLink,
				range: rangeOnLine(link),
			};
}

/** `hostMatch` is the host's own matcher's answer, when it has one; otherwise the core's matcher decides. */
function subpathProblem(
	link: LinkFact,
	subpath: string,
	target: NoteFacts,
	sameNote: boolean,
	hostMatch: boolean | undefined,
): Diagnostic | undefined {
	const where = sameNote ? "This note" : `"${displayName(target.path)}"`;
	if (subpath.startsWith("^")) {
		const id = subpath.slice(1);
		if (id === "" || (hostMatch ?? hasBlockId(target.blockIds, id))) return undefined;
		return {
			message: `Block not found: ${where} has no block with id ^${id}`,
			severity: "Warning",
			source: "Obsidian",
			code: DIAGNOSTIC_CODES.missingBlock,
			range: rangeOnLine(link),
		};
	}
	if (hostMatch ?? hasHeadingPath(target.headings, subpath)) return undefined;
	return {
		message: `Heading not found: ${where} has no heading "${subpath}"`,
		severity: "Warning",
		source: "Obsidian",
		code: DIAGNOSTIC_CODES.missingHeading,
		range: rangeOnLine(link),
	};
}

function displayName(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return name.toLowerCase().endsWith(".md") ? name.slice(0, -3) : name;
}
