import { isPlainMap, type YamlCodec } from "../../shared/yaml-codec";

/**
 * Frontmatter YAML (a top-level mapping, `properties` its parsed value) with properties set and removed, keeping
 * every other line as it is, comments included: a set key's lines are replaced by the codec's YAML of that one
 * property (a list written `[a, b]` stays so, a comment after a one-line value stays), a new key goes at the end,
 * a removed key's lines go. The result is parsed back and must give exactly the intended properties; where the
 * YAML is too unusual for that (a flow map, anchors, a key over several lines), the whole mapping is written anew
 * by the codec, as Obsidian's `processFrontMatter` does (comments and spelling are lost then, never a value).
 */
export function editProperties(
	yaml: string,
	properties: Readonly<Record<string, unknown>>,
	set: Readonly<Record<string, unknown>>,
	remove: readonly string[],
	codec: YamlCodec,
): string {
	const wanted = withChanges(properties, set, remove);
	const edited = editLines(yaml, set, remove, codec);
	if (edited !== undefined && sameValue(mappingOf(edited, codec), wanted)) return edited;
	return Object.keys(wanted).length === 0 ? "" : codec.stringify(wanted).replace(/\n+$/, "");
}

/** `properties` with `set` applied and `remove` gone, in the order the edit writes them: new keys last. */
export function withChanges(
	properties: Readonly<Record<string, unknown>>,
	set: Readonly<Record<string, unknown>>,
	remove: readonly string[],
): Record<string, unknown> {
	const result: Record<string, unknown> = { ...properties };
	for (const [key, value] of Object.entries(set)) result[key] = value;
	for (const key of remove) delete result[key];
	return result;
}

/** Equal as YAML values: scalars, lists in order, mappings whatever their key order, dates by their time. */
export function sameValue(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
	if (a instanceof Date || b instanceof Date)
		return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
	if (Array.isArray(a) || Array.isArray(b))
		return (
			Array.isArray(a) &&
			Array.isArray(b) &&
			a.length === b.length &&
			a.every((item, index) => sameValue(item, b[index]))
		);
	if (!isPlainMap(a) || !isPlainMap(b)) return false;
	const keys = Object.keys(a);
	return (
		keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
	);
}

/** The mapping a YAML text holds (an empty text: none), or undefined when it does not parse to one. */
function mappingOf(yaml: string, codec: YamlCodec): Record<string, unknown> | undefined {
	let value: unknown;
	try {
		value = codec.parse(yaml);
	} catch {
		return undefined;
	}
	if (value === null || value === undefined) return {};
	return isPlainMap(value) ? value : undefined;
}

interface KeyLines {
	key: string;
	start: number;
	/** One past the key's last line (trailing blank lines are not the key's). */
	end: number;
}

function editLines(
	yaml: string,
	set: Readonly<Record<string, unknown>>,
	remove: readonly string[],
	codec: YamlCodec,
): string | undefined {
	const lines = yaml === "" ? [] : yaml.split("\n");
	const keys = keyLines(lines, codec);
	if (keys === undefined) return undefined;
	const out: string[] = [];
	let next = 0;
	for (const { key, start, end } of keys) {
		out.push(...lines.slice(next, start));
		next = end;
		if (remove.includes(key)) continue;
		out.push(
			...(Object.hasOwn(set, key)
				? propertyLines(key, set[key], lines.slice(start, end), codec)
				: lines.slice(start, end)),
		);
	}
	out.push(...lines.slice(next));
	const present = new Set(keys.map(({ key }) => key));
	for (const [key, value] of Object.entries(set))
		if (!present.has(key)) out.push(...propertyLines(key, value, [], codec));
	return out.join("\n");
}

/**
 * Where each top-level key's lines are: a key starts at a line that is not indented, not a comment and not a `- `
 * list item, and holds the indented and list lines after it. Undefined when a line that should start a key
 * does not parse as one key (the caller then writes the whole mapping anew).
 */
function keyLines(lines: readonly string[], codec: YamlCodec): KeyLines[] | undefined {
	const keys: KeyLines[] = [];
	for (let line = 0; line < lines.length; line++) {
		const text = lines[line] ?? "";
		if (text.trim() === "" || text.startsWith("#")) continue;
		if (isContinuation(text)) {
			const last = keys.at(-1);
			if (!last) return undefined;
			last.end = line + 1;
			continue;
		}
		const parsed = mappingOf(text, codec);
		const names = parsed ? Object.keys(parsed) : [];
		const key = names[0];
		if (names.length !== 1 || key === undefined || keys.some((known) => known.key === key)) return undefined;
		keys.push({ key, start: line, end: line + 1 });
	}
	return keys;
}

function isContinuation(line: string): boolean {
	return /^\s/.test(line) || line === "-" || line.startsWith("- ");
}

/** One property as YAML lines, in the old value's style where that reads back the same. */
function propertyLines(key: string, value: unknown, old: readonly string[], codec: YamlCodec): string[] {
	const written = codec
		.stringify({ [key]: value })
		.replace(/\n+$/, "")
		.split("\n");
	const oldLine = old.length === 1 ? (old[0] ?? "") : undefined;
	if (oldLine === undefined) return written;
	const reads = (line: string): boolean => sameValue(mappingOf(line, codec), { [key]: value });
	const candidates: string[] = [];
	const flow = /^[^#]*?:\s*\[/.test(oldLine) && Array.isArray(value) ? flowLines(written[0] ?? "", value, codec) : [];
	const single = written.length === 1 ? [written[0] ?? ""] : [];
	// A comment after the old one-line value (outside quotes) stays after the new one.
	const comment = /\s#[^"'\n]*$/.exec(oldLine)?.[0];
	for (const line of [...flow, ...single]) {
		if (comment !== undefined) candidates.push(line + comment);
		candidates.push(line);
	}
	const kept = candidates.find(reads);
	return kept === undefined ? written : [kept];
}

/** `key: [a, b]` spellings of a list, from the codec's own spelling of the key and of each item. */
function flowLines(keyLine: string, items: readonly unknown[], codec: YamlCodec): string[] {
	const keyPart = /^(.*):(?:\s.*)?$/.exec(keyLine)?.[1];
	if (keyPart === undefined) return [];
	const own = items.map((item) => codec.stringify(item).replace(/\n+$/, ""));
	const quoted = items.map((item) => JSON.stringify(item));
	return [own, quoted]
		.filter((spelled) => spelled.every((item) => !item.includes("\n")))
		.map((spelled) => `${keyPart}: [${spelled.join(", ")}]`);
}
