import { parseDocument, type Document } from "yaml";

/**
 * The YAML parser for notes read from their text, where Obsidian's own `parseYaml` is not available (the folder adapters).
 * Throws the first error, which carries `linePos` for the diagnostic's position; warnings are not errors.
 */
export function parseYaml(text: string): unknown {
	return yamlValue(parseDocument(text));
}

/** The YAML as a document (errors inside), for readers that need both its tree and its value. */
export function parseYamlDocument(text: string): Document.Parsed {
	return parseDocument(text);
}

/** `parseYaml` of a document parsed once for several readers (`parseDocument` with its default options). */
export function yamlValue(document: Document.Parsed): unknown {
	const [error] = document.errors;
	if (error) throw error;
	return document.toJS();
}
