/**
 * YAML as the vault code reads and writes it (frontmatter). Two adapters: the `yaml` library
 * (`vault/folder/yaml-library-codec.ts`) for the headless host and the command, and Obsidian's own `parseYaml`/`stringifyYaml`
 * in the plugin (`obsidian/notes/obsidian-yaml-codec.ts`), which then ships no YAML library of its own.
 */
export interface YamlCodec {
	/** The value of a YAML text; throws the first error (its message's first line says what is wrong). */
	readonly parse: (yaml: string) => unknown;
	/** A value as YAML text. */
	readonly stringify: (value: unknown) => string;
	/**
	 * The scalars, as text, under every top-level key `key` matches (keys and values of nested lists and maps too,
	 * each of a repeated key). A codec with a syntax tree reads them past an error elsewhere in the text; one
	 * without reads the parsed value, and finds none in a text that does not parse (as Obsidian shows no
	 * properties then).
	 */
	readonly scalarsUnderKeys: (yaml: string, key: RegExp) => string[];
}

/** A codec over a parser that gives values only (no syntax tree): Obsidian's. */
export function codecOverParser(parse: (yaml: string) => unknown, stringify: (value: unknown) => string): YamlCodec {
	return {
		parse,
		stringify,
		scalarsUnderKeys(yaml, key) {
			let value: unknown;
			try {
				value = parse(yaml);
			} catch {
				return [];
			}
			const scalars: string[] = [];
			if (isPlainMap(value))
				for (const [name, item] of Object.entries(value))
					if (key.test(name.trim())) collectScalars(item, scalars);
			return scalars;
		},
	};
}

function collectScalars(value: unknown, into: string[]): void {
	if (Array.isArray(value)) {
		for (const item of value) collectScalars(item, into);
	} else if (isPlainMap(value)) {
		for (const [name, item] of Object.entries(value)) {
			into.push(name);
			collectScalars(item, into);
		}
	} else if (value !== null && value !== undefined) {
		into.push(value instanceof Date ? value.toISOString() : String(value as string | number | boolean));
	}
}

/** A YAML mapping's value: an object that is not a list (nor a date, which some parsers make of timestamps). */
export function isPlainMap(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
