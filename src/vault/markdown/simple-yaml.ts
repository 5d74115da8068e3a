import { lazyRegExp } from "../../shared/lazy-regexp";

/**
 * The frontmatter most notes have (`key: value` lines, quoted values, lists written `[a, b]` or as `- item`
 * lines) read without the YAML library, which costs about ten times more and is most of reading a vault. The
 * answer is the value the library's `parseDocument(yaml).toJS()` gives (YAML 1.2 core schema); anything outside
 * this narrow form, or anything the library would report as an error, answers undefined and the caller parses
 * with the library as before. tests/vault/markdown/simple-yaml.test.ts compares the two on every form accepted.
 */
export function simpleYamlMap(yaml: string): Record<string, unknown> | undefined {
	const lines = yaml.split("\n");
	const map: Record<string, unknown> = {};
	let keys = 0;
	/** The list being filled by `- item` lines, and the indentation its items share. */
	let list: { items: unknown[]; indent: number } | undefined;
	/** The key whose value is still empty: `- item` lines may follow it. */
	let open: string | undefined;
	for (const line of lines) {
		if (hasUnsafeCharacter(line)) return undefined;
		const content = line.trimStart();
		if (content === "" || content.startsWith("#")) continue;
		const indent = line.length - content.length;
		if (content.startsWith("- ") || content === "-") {
			if (open === undefined && list === undefined) return undefined;
			if (list === undefined) {
				list = { items: [], indent };
				map[open as string] = list.items;
				open = undefined;
			} else if (indent !== list.indent) {
				return undefined;
			}
			const item = blockValue(content.slice(2));
			if (item === NOT_SIMPLE || item === null) return undefined;
			list.items.push(item);
			continue;
		}
		if (indent > 0) return undefined;
		list = undefined;
		open = undefined;
		const colon = KEY_LINE().exec(line);
		const key = colon?.[1];
		if (
			key === undefined ||
			key.length > MAX_KEY_LENGTH ||
			RESERVED_KEYS.has(key) ||
			Object.prototype.hasOwnProperty.call(map, key)
		)
			return undefined;
		const rest = line.slice(key.length + 1);
		const value = blockValue(rest);
		if (value === NOT_SIMPLE) return undefined;
		map[key] = value;
		if (value === null && stripComment(rest) === "") open = key;
		keys++;
	}
	return keys > 0 ? map : undefined;
}

/** Tabs, control characters, a byte order mark and the line separators YAML treats apart: left to the library. */
function hasUnsafeCharacter(line: string): boolean {
	for (let at = 0; at < line.length; at++) {
		const code = line.charCodeAt(at);
		if (
			code < 0x20 ||
			(code >= 0x7f && code <= 0x9f) ||
			code === 0x2028 ||
			code === 0x2029 ||
			code === 0xfeff ||
			code === 0xfffe ||
			code === 0xffff
		)
			return true;
	}
	return false;
}
/**
 * A plain key at the start of the line (a letter or `_` first, so never a number, and no `#`, `:` or quote in it), then
 * `:` and a space or the end. Made on first use (lazy-regexp.ts: a `\p{…}` literal costs plugin load).
 */
const KEY_LINE = lazyRegExp(String.raw`^([\p{L}_](?:[\p{L}\p{N}_ -]*[\p{L}\p{N}_-])?):(?: |$)`, "u");
/** Keys the core schema reads as something other than their text, and the one a plain object treats apart. */
const RESERVED_KEYS = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "__proto__"]);
/** YAML limits an implicit key to 1024 characters; longer ones (an error there) are left to the library. */
const MAX_KEY_LENGTH = 1000;
const NOT_SIMPLE = Symbol("not simple");

/** What follows `key:` or `- `: empty (null), one quoted or plain scalar, or a one-line `[a, b]` list. */
function blockValue(rest: string): unknown {
	const text = stripComment(rest).trim();
	if (text === "") return null;
	if (text.startsWith("[")) return flowList(text);
	if (text.startsWith('"') || text.startsWith("'")) {
		const quoted = quotedScalar(text, 0);
		return quoted && quoted.end === text.length ? quoted.value : NOT_SIMPLE;
	}
	if (
		INDICATOR_FIRST.test(text) ||
		text.endsWith(":") ||
		text.includes(": ") ||
		(text.startsWith("-") && text.length === 1)
	)
		return NOT_SIMPLE;
	return plainScalar(text);
}

/** Characters a plain scalar may not start with (YAML's indicators), `-`, `?` and `:` followed by a space included. */
const INDICATOR_FIRST = /^(?:[[\]{},#&*!|>'"%@`]|[-?:](?: |$))/;

/** The text before a ` #` comment (a `#` right after a space starts one; inside quotes it does not, so quoted text with ` #` is left to the library). */
function stripComment(text: string): string {
	const at = text.indexOf(" #");
	if (at < 0) return text;
	const before = text.slice(0, at);
	return before.includes('"') || before.includes("'") ? NOT_SIMPLE_TEXT : before;
}

/** Stands for text that is never simple (a quote before a comment): a quote alone does not close. */
const NOT_SIMPLE_TEXT = '"';

/** `[a, "b", 'c']` on one line: plain items without flow indicators or `:`, or quoted ones. */
function flowList(text: string): unknown {
	if (!text.endsWith("]")) return NOT_SIMPLE;
	const inner = text.slice(1, -1);
	const items: unknown[] = [];
	if (inner.trim() === "") return items;
	let at = 0;
	while (at <= inner.length) {
		while (inner.charAt(at) === " ") at++;
		let item: unknown;
		if (inner.charAt(at) === '"' || inner.charAt(at) === "'") {
			const quoted = quotedScalar(inner, at);
			if (!quoted) return NOT_SIMPLE;
			item = quoted.value;
			at = quoted.end;
			while (inner.charAt(at) === " ") at++;
		} else {
			const comma = inner.indexOf(",", at);
			const end = comma < 0 ? inner.length : comma;
			const plain = inner.slice(at, end).trim();
			if (plain === "" || /[[\]{}:#]/.test(plain) || INDICATOR_FIRST.test(plain)) return NOT_SIMPLE;
			item = plainScalar(plain);
			at = end;
		}
		items.push(item);
		if (at === inner.length) return items;
		if (inner.charAt(at) !== ",") return NOT_SIMPLE;
		at++;
		// A comma at the end (`[a, ]`) is left to the library.
		if (inner.slice(at).trim() === "") return NOT_SIMPLE;
	}
	return NOT_SIMPLE;
}

/** A quoted scalar starting at `start`: single-quoted (`''` is a quote) or double-quoted without escapes. */
function quotedScalar(text: string, start: number): { value: string; end: number } | undefined {
	const quote = text.charAt(start);
	if (quote === '"') {
		const close = text.indexOf('"', start + 1);
		if (close < 0) return undefined;
		const value = text.slice(start + 1, close);
		return value.includes("\\") ? undefined : { value, end: close + 1 };
	}
	let value = "";
	let at = start + 1;
	for (;;) {
		const close = text.indexOf("'", at);
		if (close < 0) return undefined;
		value += text.slice(at, close);
		if (text.charAt(close + 1) !== "'") return { value, end: close + 1 };
		value += "'";
		at = close + 2;
	}
}

/** The first characters of every plain scalar that is not text in the core schema (null, booleans, numbers). */
const MAY_NOT_BE_TEXT = /^[~nNtTfF0-9+.-]/;

/** A plain scalar as the core schema reads it: null, a boolean, a number, or the text itself. */
function plainScalar(text: string): unknown {
	// Text that starts none of the forms below (most values) is itself.
	if (!MAY_NOT_BE_TEXT.test(text)) return text;
	if (/^(?:~|[Nn]ull|NULL)$/.test(text)) return null;
	if (/^(?:[Tt]rue|TRUE)$/.test(text)) return true;
	if (/^(?:[Ff]alse|FALSE)$/.test(text)) return false;
	if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
	if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
	if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
	if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text))
		return text.slice(-3).toLowerCase() === "nan" ? NaN : text.startsWith("-") ? -Infinity : Infinity;
	if (
		/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text) ||
		/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)
	)
		return parseFloat(text);
	return text;
}
