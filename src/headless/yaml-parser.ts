import { parseDocument } from "yaml";

/**
 * The headless host's YAML parser for frontmatter checks (Obsidian's own `parseYaml` is not available here).
 * Throws the first error, which carries `linePos` for the diagnostic's position; warnings are not errors.
 */
export function parseYaml(text: string): unknown {
	const document = parseDocument(text);
	const [error] = document.errors;
	if (error) throw error;
	return document.toJS();
}
