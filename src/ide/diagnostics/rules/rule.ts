import type { Diagnostic } from "../diagnostic-types";
import type { NoteFacts } from "../../../vault/markdown/note-model";

/** What a rule may ask about the rest of the vault. */
export interface RuleContext {
	/** The vault path a link path leads to from `sourcePath`, as Obsidian resolves it; undefined when unresolved. */
	resolveLink(linkpath: string, sourcePath: string): string | undefined;
	/** Another note's metadata (headings, block ids); undefined when the path is not a note. */
	factsOf(path: string): NoteFacts | undefined;
	/**
	 * The host's own answer to "does the note at `targetPath` have this heading path or `^block`" (Obsidian's
	 * `resolveSubpath`); undefined, or absent, leaves it to the core's matcher (`subpath-match.ts`).
	 */
	hasSubpath?(targetPath: string, subpath: string): boolean | undefined;
	/**
	 * True for a link that leads, or would lead, into a private note (`target`: where it resolves, if anywhere):
	 * such a link is not checked at all, so its diagnostics say nothing of what the private note holds or
	 * whether it exists. Absent: every link is checked.
	 */
	isHiddenLinkTarget?(linkpath: string, sourcePath: string, target: string | undefined): boolean;
}

export type DiagnosticRule = (note: NoteFacts, context: RuleContext) => Diagnostic[];
