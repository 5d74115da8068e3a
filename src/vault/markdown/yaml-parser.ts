import { parseDocument } from "yaml";

/**
 * The YAML parser for notes read from their text, where Obsidian's own `parseYaml` is not available (the folder adapters).
 * Throws the first error, which carries `linePos` for the diagnostic's position; warnings are not errors.
 */
export function parseYaml(text: string): unknown {
	const document = parseDocument(text);
	const [error] = document.errors;
	if (error) throw error;
	return document.toJS();
}
