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
	return (cache.frontmatterLinks?.length ?? 0) > 0 || mayHoldLink(properties);
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
