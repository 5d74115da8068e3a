import type { CachedMetadata, LinkCache } from "obsidian";
import { factsFromText } from "../../vault/notes/note-facts";
import type { BlockIdFact, FrontmatterFact, LinkFact, NoteFacts, TagFact } from "../../vault/notes/vault-index";

/**
 * What Obsidian's cache does not say about the frontmatter, read from its text: the line of each key, why the YAML
 * does not parse, and where the links and tags in properties are (`frontmatterLinks` carries no position).
 */
export interface FrontmatterDetail {
	fact: FrontmatterFact;
	links: LinkFact[];
	tags: TagFact[];
}

/** The frontmatter part of a note's text, read with the shared core; undefined when the note has none. */
export function frontmatterDetail(path: string, text: string, cache: CachedMetadata): FrontmatterDetail | undefined {
	const end = cache.frontmatterPosition?.end.line;
	if (end === undefined) return undefined;
	const lines = text.split("\n");
	const facts = factsFromText(path, `${lines.slice(0, end + 1).join("\n")}\n`);
	if (!facts.frontmatter) return undefined;
	return { fact: facts.frontmatter, links: facts.links, tags: facts.tags };
}

/**
 * A note's facts from Obsidian's metadata cache (headings, block ids, links and embeds, inline tags, properties),
 * with the frontmatter's lines from `detail`. Link targets are left for the caller to resolve.
 */
export function factsFromCache(path: string, cache: CachedMetadata, detail: FrontmatterDetail | undefined): NoteFacts {
	const body = [...(cache.links ?? []).map((link) => linkFact(link, false)), ...(cache.embeds ?? []).map((link) => linkFact(link, true))];
	body.sort((a, b) => a.line - b.line || a.start - b.start);
	const facts: NoteFacts = {
		path,
		headings: (cache.headings ?? []).map((heading) => ({ text: heading.heading, level: heading.level, line: heading.position.start.line, endLine: heading.position.end.line })),
		blockIds: blockIds(cache),
		links: [...(detail?.links ?? []), ...body],
		tags: [...(detail?.tags ?? []), ...(cache.tags ?? []).map((tag) => ({ tag: tag.tag.replace(/^#/, ""), line: tag.position.start.line }))],
	};
	if (detail) {
		const fact = { ...detail.fact };
		// Obsidian's own reading of the properties wins over the shared parser's when it has one.
		if (cache.frontmatter) {
			const properties: Record<string, unknown> = { ...cache.frontmatter };
			delete properties.position;
			fact.properties = properties;
			delete fact.problem;
		}
		facts.frontmatter = fact;
	}
	return facts;
}

function linkFact(link: LinkCache, embed: boolean): LinkFact {
	const hash = link.link.indexOf("#");
	const fact: LinkFact = {
		line: link.position.start.line,
		start: link.position.start.col,
		end: link.position.start.line === link.position.end.line ? link.position.end.col : link.position.start.col + link.original.length,
		original: link.original,
		linkpath: hash < 0 ? link.link : link.link.slice(0, hash),
		embed,
	};
	const subpath = hash < 0 ? "" : link.link.slice(hash + 1).trim();
	if (subpath !== "") fact.subpath = subpath;
	return fact;
}

/**
 * Every `^id` with the line it is written on. `blocks` keeps one entry per id, so the sections and list items,
 * which each carry their own id, are read first: duplicates stay visible.
 */
function blockIds(cache: CachedMetadata): BlockIdFact[] {
	const found: BlockIdFact[] = [];
	for (const section of cache.sections ?? []) if (section.id !== undefined) found.push({ id: section.id, line: section.position.end.line });
	for (const item of cache.listItems ?? []) if (item.id !== undefined) found.push({ id: item.id, line: item.position.end.line });
	if (found.length === 0) for (const block of Object.values(cache.blocks ?? {})) found.push({ id: block.id, line: block.position.end.line });
	return found.sort((a, b) => a.line - b.line);
}
