import type { CachedMetadata } from "obsidian";
import type { FrontmatterNeed } from "../../vault/notes/notes";

/**
 * Whether a note's frontmatter text must be read for `need`, judged from its cache entry alone (a note without
 * frontmatter never needs it). True whenever what the text gives may differ from the entry: for links, the text's
 * wikilinks on a frontmatter line (`linkFactsFromText`'s property links) show in Obsidian's parse as a string
 * with `[[` (in a value, or a key), or as a list in a list (`key: [[A]]` unquoted is YAML for `[["A"]]`);
 * `frontmatterLinks` (obsidian.d.ts, since 1.4) is taken too, though it holds only wikilinks in string values
 * (Obsidian does not read `[text](path)` in a property as a link: github.com/callumalpass/tasknotes/pull/830,
 * whence the community plugin obsidian-frontmatter-markdown-links). For tags, a `tags`/`tag` key in any case (the
 * keys `frontmatterTagsOfValues` reads). A frontmatter Obsidian could not parse (no `frontmatter`) is read either
 * way. Not seen in the entry: a wikilink in a YAML comment, which the text's reader takes as a property link.
 */
export function needsFrontmatterText(need: FrontmatterNeed, cache: CachedMetadata): boolean {
	if (!cache.frontmatterPosition || need === "none") return false;
	const properties = cache.frontmatter;
	if (need === "every note" || !properties) return true;
	if (need === "tags") {
		for (const key in properties) if (TAG_KEY.test(key.trim())) return true;
		return false;
	}
	if (need === "backlinks") return mayHoldLinkBeyond(properties, cache.frontmatterLinks ?? []);
	return (cache.frontmatterLinks?.length ?? 0) > 0 || mayHoldLink(properties);
}

/**
 * For `backlinks`: whether the properties may hold a link the entry's `frontmatterLinks` do not list, so that only
 * the text tells where it leads. A string that is one wikilink listed there (`related: "[[Hub]]"`, a list's items
 * each one) is not: the entry says where it leads, and the note's text is read when it leads to the note asked
 * (`linksInCacheTo`). Any other string with `[[` or `](` is (text around a link, two links in one value, a link
 * Obsidian does not read as one), and so is a key with one, and a list in a list.
 */
function mayHoldLinkBeyond(properties: Record<string, unknown>, listed: readonly { original: string }[]): boolean {
	const originals = new Set(listed.map((link) => link.original));
	const beyond = (value: unknown): boolean => {
		if (typeof value === "string")
			return value.includes("](") || (value.includes("[[") && !originals.has(value.trim()));
		if (Array.isArray(value)) return value.some((item) => Array.isArray(item) || beyond(item));
		if (value === null || typeof value !== "object") return false;
		for (const key in value) if (mayHoldLink(key) || beyond((value as Record<string, unknown>)[key])) return true;
		return false;
	};
	return beyond(properties);
}

/** Whether one of the entry's `frontmatterLinks` leads to `target` by `resolve` (a link to a heading of it too). */
export function linksInCacheTo(
	cache: CachedMetadata,
	target: string,
	resolve: (linkpath: string) => string | undefined,
): boolean {
	for (const link of cache.frontmatterLinks ?? []) {
		const linkpath = link.link.split("#")[0] ?? "";
		if (linkpath !== "" && resolve(linkpath) === target) return true;
	}
	return false;
}

const TAG_KEY = /^tags?$/i;

function mayHoldLink(value: unknown): boolean {
	if (typeof value === "string") return value.includes("[[") || value.includes("](");
	if (Array.isArray(value)) return value.some((item) => Array.isArray(item) || mayHoldLink(item));
	if (value === null || typeof value !== "object") return false;
	// `for...in` makes no array per note (every note's frontmatter is looked at after a restart).
	for (const key in value) if (mayHoldLink(key) || mayHoldLink((value as Record<string, unknown>)[key])) return true;
	return false;
}
