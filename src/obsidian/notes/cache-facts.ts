import type { CachedMetadata, LinkCache, Pos } from "obsidian";
import { isExternalTarget } from "../../vault/markdown/link-syntax";
import type { BlockIdFact, FrontmatterFact, LinkFact, NoteFacts, TagFact } from "../../vault/markdown/note-model";
import type { TextRange } from "../../vault/markdown/text-position";
import { linkFactsFromText, tagsAndFrontmatterFromText } from "../../vault/notes/note-facts";
import type { YamlCodec } from "../../shared/yaml-codec";

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
export function frontmatterDetail(text: string, cache: CachedMetadata, yaml: YamlCodec): FrontmatterDetail | undefined {
	const end = cache.frontmatterPosition?.end.line;
	if (end === undefined) return undefined;
	const head = `${text.split("\n", end + 1).join("\n")}\n`;
	// The head has no body: its tags, frontmatter and links are the frontmatter's (`factsFromText` gives the same).
	const { tags, frontmatter } = tagsAndFrontmatterFromText(head, yaml);
	if (!frontmatter) return undefined;
	return { fact: frontmatter, links: linkFactsFromText(head), tags };
}

/**
 * The note model from Obsidian's metadata cache (headings, block ids, links and embeds, inline tags, properties, code
 * sections), with the frontmatter's lines from `detail`: the one builder for the diagnostics and the vault tools.
 * Link targets are left for the caller to resolve. Without `detail` the model has no frontmatter, property links or
 * frontmatter tags (the diagnostics need none of them).
 */
export function factsFromCache(path: string, cache: CachedMetadata, detail: FrontmatterDetail | undefined): NoteFacts {
	const body: LinkFact[] = [];
	for (const [items, embed] of [
		[cache.links ?? [], false],
		[cache.embeds ?? [], true],
	] as const) {
		for (const item of items) {
			const link = linkFact(item, embed);
			if (link) body.push(link);
		}
	}
	body.sort((a, b) => a.line - b.line || a.start - b.start);
	const facts: NoteFacts = {
		path,
		headings: (cache.headings ?? []).map((heading) => ({
			text: heading.heading,
			level: heading.level,
			line: heading.position.start.line,
			endLine: heading.position.end.line,
		})),
		blockIds: blockIds(cache),
		links: [...(detail?.links ?? []), ...body],
		tags: tagsFromCache(cache, detail),
	};
	const codeRanges = (cache.sections ?? [])
		.filter((section) => section.type === "code")
		.map((section) => toRange(section.position));
	if (codeRanges.length > 0) facts.codeRanges = codeRanges;
	const frontmatter = frontmatterFromCache(cache, detail);
	if (frontmatter) facts.frontmatter = frontmatter;
	return facts;
}

/** The tags of `factsFromCache`, alone (the tags overview and tag search ask every note for nothing else). */
export function tagsFromCache(cache: CachedMetadata, detail: FrontmatterDetail | undefined): TagFact[] {
	return [
		...(detail?.tags ?? []),
		...(cache.tags ?? []).map((tag) => ({ tag: tag.tag.replace(/^#/, ""), line: tag.position.start.line })),
	];
}

/** The frontmatter of `factsFromCache`, alone (property search and the properties overview). */
export function frontmatterFromCache(
	cache: CachedMetadata,
	detail: FrontmatterDetail | undefined,
): FrontmatterFact | undefined {
	if (!detail) return undefined;
	const fact = { ...detail.fact };
	// Obsidian's own reading of the properties wins over the shared parser's when it has one.
	if (cache.frontmatter) {
		const properties: Record<string, unknown> = { ...cache.frontmatter };
		delete properties.position;
		fact.properties = properties;
		delete fact.problem;
	}
	return fact;
}

/** A link as the model has it; undefined for a URL, or a link with neither a path nor a subpath. */
function linkFact(link: LinkCache, embed: boolean): LinkFact | undefined {
	if (isExternalTarget(link.link)) return undefined;
	const hash = link.link.indexOf("#");
	const linkpath = (hash < 0 ? link.link : link.link.slice(0, hash)).trim();
	const subpath = hash < 0 ? "" : link.link.slice(hash + 1).trim();
	if (linkpath === "" && subpath === "") return undefined;
	const fact: LinkFact = {
		line: link.position.start.line,
		start: link.position.start.col,
		end:
			link.position.start.line === link.position.end.line
				? link.position.end.col
				: link.position.start.col + link.original.length,
		original: link.original,
		linkpath,
		embed,
	};
	if (subpath !== "") fact.subpath = subpath;
	return fact;
}

/**
 * Every `^id` with its place. `blocks` keeps one entry per id, so the sections and list items, which each carry
 * their own id, are read first (one per line: a list and its last item may both carry it): duplicates stay visible.
 * Obsidian gives the block's position, not the marker's; the marker is taken to end the block's last line.
 */
function blockIds(cache: CachedMetadata): BlockIdFact[] {
	const byLine = new Map<number, BlockIdFact>();
	const add = (id: string, position: Pos): void => {
		const end = position.end;
		if (!byLine.has(end.line))
			byLine.set(end.line, { id, line: end.line, start: Math.max(0, end.col - id.length - 1), end: end.col });
	};
	for (const item of [...(cache.sections ?? []), ...(cache.listItems ?? [])])
		if (item.id !== undefined) add(item.id, item.position);
	if (byLine.size === 0) for (const block of Object.values(cache.blocks ?? {})) add(block.id, block.position);
	return [...byLine.values()].sort((a, b) => a.line - b.line);
}

function toRange(position: Pos): TextRange {
	return {
		start: { line: position.start.line, character: position.start.col },
		end: { line: position.end.line, character: position.end.col },
	};
}
