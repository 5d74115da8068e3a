import { DIAGNOSTIC_CODES, type Diagnostic } from "../diagnostic-types";
import type { NoteFacts } from "../../../vault/markdown/note-model";

/** Frontmatter that is not valid YAML: Obsidian then ignores every property of the note. */
export function checkFrontmatterRule(note: NoteFacts): Diagnostic[] {
	const problem = note.frontmatterProblem;
	if (!problem) return [];
	return [
		{
			message: problem.message,
			severity: "Error",
			source: "Obsidian",
			code: DIAGNOSTIC_CODES.invalidFrontmatter,
			range: problem.range,
		},
	];
}
