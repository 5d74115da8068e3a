import type { RuleContext } from "../../../../src/ide/diagnostics/rules/rule";
import type { NoteFacts } from "../../../../src/vault/markdown/note-model";
import { MemoryDiagnosticsNotes } from "../../../vault/notes/memory-diagnostics-notes";

/** A vault in memory and a rule context over it, with the optional host answers given. */
export function ruleVault(
	files: Record<string, string>,
	extra: Partial<Pick<RuleContext, "hasSubpath" | "isHiddenLinkTarget">> = {},
) {
	const source = new MemoryDiagnosticsNotes(files);
	const context: RuleContext = {
		resolveLink: (linkpath, from) => source.resolveLink(linkpath, from),
		factsOf: (path) => source.facts(path),
		...extra,
	};
	const note = (path: string): NoteFacts => {
		const metadata = source.facts(path);
		if (!metadata) throw new Error(`no note ${path}`);
		return metadata;
	};
	return { context, note };
}
