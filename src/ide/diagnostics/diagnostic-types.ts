import type { TextRange } from "../../vault/markdown/text-position";

/** The severity names the Claude Code CLI understands (it also accepts "Information"). */
export type DiagnosticSeverity = "Error" | "Warning" | "Info" | "Hint";

/** One problem, shaped like an LSP diagnostic as the CLI reads it (protocol.md §4.4). */
export interface Diagnostic {
	message: string;
	severity: DiagnosticSeverity;
	source: "Obsidian";
	/** Stable identifier of the rule; always a string (the CLI requires it). */
	code: DiagnosticCode;
	range: TextRange;
}

/** Every rule's code, in one place so docs and tests refer to the same names. */
export const DIAGNOSTIC_CODES = {
	unresolvedLink: "unresolved-link",
	unresolvedEmbed: "unresolved-embed",
	missingHeading: "missing-heading",
	missingBlock: "missing-block",
	invalidFrontmatter: "invalid-frontmatter",
	duplicateBlockId: "duplicate-block-id",
} as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[keyof typeof DIAGNOSTIC_CODES];

/** The diagnostics of one note, by vault-relative path. */
export interface NoteDiagnostics {
	path: string;
	diagnostics: Diagnostic[];
}
