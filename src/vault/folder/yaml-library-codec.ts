import { isMap, isPair, isScalar, isSeq, parseDocument, stringify, type Document } from "yaml";
import type { YamlCodec } from "../../shared/yaml-codec";
import { simpleYamlMap } from "../markdown/simple-yaml";

/**
 * The `yaml` library as the vault's YAML codec, where Obsidian's parser is not available (the headless host, the
 * command, the folder adapters). The plugin never imports this file: it uses Obsidian's (`obsidian-yaml-codec.ts`).
 */
export const libraryYamlCodec: YamlCodec = {
	// Most frontmatter is plain `key: value` lines, read to the library's values without it (most of an index build's time).
	parse: (yaml) => simpleYamlMap(yaml) ?? parseYaml(yaml),
	// No padding in [a, b] and no folding of long values: the spelling people write by hand.
	stringify: (value) => stringify(value, { flowCollectionPadding: false, lineWidth: 0 }),
	// Read from the syntax tree, duplicates allowed, so a repeated key or an error elsewhere cannot hide a scalar.
	scalarsUnderKeys: (yaml, key) => scalarsUnderKeysOf(parseDocument(yaml, { uniqueKeys: false }), key),
};

/** Throws the first error, which carries `linePos` for the diagnostic's position; warnings are not errors. */
export function parseYaml(text: string): unknown {
	const document = parseDocument(text);
	const [error] = document.errors;
	if (error) throw error;
	return document.toJS();
}

function scalarsUnderKeysOf(document: Document.Parsed, key: RegExp): string[] {
	const root = document.contents;
	if (!isMap(root)) return [];
	const scalars: string[] = [];
	for (const pair of root.items) {
		if (!isScalar(pair.key) || !key.test(String(pair.key.value).trim())) continue;
		collectScalars(pair.value, scalars);
	}
	return scalars;
}

function collectScalars(node: unknown, into: string[]): void {
	if (isScalar(node)) {
		if (node.value !== null && node.value !== undefined) into.push(String(node.value as string | number | boolean));
	} else if (isSeq(node) || isMap(node)) {
		for (const item of node.items) collectScalars(item, into);
	} else if (isPair(node)) {
		collectScalars(node.key, into);
		collectScalars(node.value, into);
	}
}
