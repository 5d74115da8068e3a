import type {
	BlockCache,
	CachedMetadata,
	FrontmatterLinkCache,
	HeadingCache,
	LinkCache,
	ListItemCache,
	Loc,
	Pos,
	SectionCache,
	TagCache,
} from "obsidian";
import { parse } from "yaml";

/**
 * The fake metadata cache's "parser": note text → `CachedMetadata` shaped as Obsidian's (obsidian.d.ts), for the
 * Markdown the tests write. Written apart from the headless scanner (src/vault/markdown/markdown-scanner.ts)
 * so the DiagnosticsNotes contract compares two readings of the same text. Covered: frontmatter (`frontmatter` only when
 * the YAML parses to a mapping, as Obsidian shows no properties otherwise; `frontmatterPosition` and a `yaml`
 * section either way), fenced code (a `code` section; nothing inside counts), ATX headings, paragraphs, list items
 * with their `^id`, `[[wikilinks]]`, `![[embeds]]`, `[text](markdown links)` (also `[text](<with spaces>)`) and `#tags` (not all digits) outside
 * inline code, and `blocks`
 * keyed by lower-cased id (the last use of an id wins, as one entry per id is all Obsidian keeps).
 */
export function parseNoteForCache(text: string): CachedMetadata {
	const lines = text.split(/\r?\n/);
	const offsets: number[] = [];
	let offset = 0;
	for (const line of text.split("\n")) {
		offsets.push(offset);
		offset += line.length + 1;
	}
	const loc = (line: number, col: number): Loc => ({ line, col, offset: (offsets[line] ?? 0) + col });
	const pos = (line: number, col: number, endLine: number, endCol: number): Pos => ({
		start: loc(line, col),
		end: loc(endLine, endCol),
	});

	const cache: CachedMetadata = {};
	const sections: SectionCache[] = [];
	const headings: HeadingCache[] = [];
	const links: LinkCache[] = [];
	const embeds: LinkCache[] = [];
	const tags: TagCache[] = [];
	const listItems: ListItemCache[] = [];
	const blocks: Record<string, BlockCache> = {};
	let line = 0;

	if (lines[0] === "---") {
		const close = lines.findIndex((candidate, index) => index > 0 && candidate === "---");
		if (close > 0) {
			const position = pos(0, 0, close, 3);
			cache.frontmatterPosition = position;
			sections.push({ type: "yaml", position });
			try {
				const value: unknown = parse(lines.slice(1, close).join("\n"));
				if (value !== null && typeof value === "object" && !Array.isArray(value)) {
					cache.frontmatter = value as Record<string, unknown>;
					const frontmatterLinks = propertyWikilinks(cache.frontmatter);
					if (frontmatterLinks.length > 0) cache.frontmatterLinks = frontmatterLinks;
				}
			} catch {
				// Invalid YAML: Obsidian keeps the position and shows no properties.
			}
			line = close + 1;
		}
	}

	const blockIdOf = (textLine: string): string | undefined => / \^([A-Za-z0-9-]+)\s*$/.exec(textLine)?.[1];
	const scanLinks = (textLine: string, at: number): void => {
		// A code span opens with a run of backticks and closes with a run of the same length (CommonMark).
		const masked = textLine.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, (code) => " ".repeat(code.length));
		for (const match of masked.matchAll(/(!?)\[\[([^\]]+)\]\]/g)) {
			const [original = "", bang = "", inner = ""] = [
				textLine.slice(match.index, match.index + match[0].length),
				match[1],
				match[2],
			];
			const [target = "", display] = inner.split("|");
			const link: LinkCache = {
				link: target.trim(),
				original,
				position: pos(at, match.index, at, match.index + original.length),
			};
			if (display !== undefined) link.displayText = display;
			(bang === "!" ? embeds : links).push(link);
		}
		for (const match of masked.matchAll(/(?:^|\s)(#[\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu)) {
			const tag = match[1] ?? "";
			const start = match.index + match[0].length - tag.length;
			tags.push({ tag, position: pos(at, start, at, start + tag.length) });
		}
		// The destination is written bare or, with spaces, between < and > (CommonMark 0.31 §6.3, "link destination").
		for (const match of masked.matchAll(/(!?)\[([^\]]*)\]\((?:<([^<>\n]*)>|([^)\s]+))\)/g)) {
			const target = match[3] ?? match[4] ?? "";
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
			const original = textLine.slice(match.index, match.index + match[0].length);
			const link: LinkCache = {
				link: decodeURI(target),
				original,
				displayText: match[2] ?? "",
				position: pos(at, match.index, at, match.index + original.length),
			};
			(match[1] === "!" ? embeds : links).push(link);
		}
	};
	const addBlock = (id: string, position: Pos): void => {
		blocks[id.toLowerCase()] = { id, position };
	};

	while (line < lines.length) {
		const current = lines[line] ?? "";
		if (current.trim() === "") {
			line++;
			continue;
		}
		const fence = /^ {0,3}(`{3,}|~{3,})/.exec(current)?.[1];
		if (fence) {
			let end = line + 1;
			while (end < lines.length && !(lines[end] ?? "").trimStart().startsWith(fence)) end++;
			const last = Math.min(end, lines.length - 1);
			sections.push({ type: "code", position: pos(line, 0, last, (lines[last] ?? "").length) });
			line = last + 1;
			continue;
		}
		const heading = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(current);
		if (heading) {
			const position = pos(line, 0, line, current.length);
			headings.push({ heading: heading[2] ?? "", level: (heading[1] ?? "").length, position });
			sections.push({ type: "heading", position });
			scanLinks(current, line);
			line++;
			continue;
		}
		const isItem = (candidate: string): boolean => /^\s*(?:[-*+]|\d+[.)])[ \t]/.test(candidate);
		let end = line;
		while (
			end + 1 < lines.length &&
			(lines[end + 1] ?? "").trim() !== "" &&
			isItem(lines[end + 1] ?? "") === isItem(current) &&
			!/^(#{1,6})[ \t]/.test(lines[end + 1] ?? "")
		)
			end++;
		for (let at = line; at <= end; at++) scanLinks(lines[at] ?? "", at);
		const position = pos(line, 0, end, (lines[end] ?? "").length);
		if (isItem(current)) {
			for (let at = line; at <= end; at++) {
				const item: ListItemCache = { parent: -(line + 1), position: pos(at, 0, at, (lines[at] ?? "").length) };
				const id = blockIdOf(lines[at] ?? "");
				if (id) {
					item.id = id;
					addBlock(id, item.position);
				}
				listItems.push(item);
			}
			sections.push({ type: "list", position });
		} else {
			const section: SectionCache = { type: "paragraph", position };
			const id = blockIdOf(lines[end] ?? "");
			if (id) {
				section.id = id;
				addBlock(id, position);
			}
			sections.push(section);
		}
		line = end + 1;
	}

	if (sections.length > 0) cache.sections = sections;
	if (headings.length > 0) cache.headings = headings;
	if (links.length > 0) cache.links = links;
	if (embeds.length > 0) cache.embeds = embeds;
	if (tags.length > 0) cache.tags = tags;
	if (listItems.length > 0) cache.listItems = listItems;
	if (Object.keys(blocks).length > 0) cache.blocks = blocks;
	return cache;
}

/**
 * obsidian.d.ts `CachedMetadata.frontmatterLinks` (since 1.4.0), `FrontmatterLinkCache` (`key`, `link`,
 * `original`, `displayText`): the wikilinks in the properties' string values, a list's items each under
 * `key.index` (the typings leave the key's form for a list item unsaid). Only wikilinks: Obsidian does not read a
 * `[text](path)` in a property as a link (github.com/callumalpass/tasknotes/pull/830; the community plugin
 * obsidian-frontmatter-markdown-links adds them).
 */
function propertyWikilinks(properties: Record<string, unknown>): FrontmatterLinkCache[] {
	const found: FrontmatterLinkCache[] = [];
	const visit = (key: string, value: unknown): void => {
		if (Array.isArray(value)) value.forEach((item, index) => visit(`${key}.${index}`, item));
		else if (typeof value === "string")
			for (const match of value.matchAll(/\[\[([^\]]+)\]\]/g)) {
				const [target = "", display] = (match[1] ?? "").split("|");
				const link: FrontmatterLinkCache = { key, link: target.trim(), original: match[0] };
				if (display !== undefined) link.displayText = display;
				found.push(link);
			}
	};
	for (const [key, value] of Object.entries(properties)) visit(key, value);
	return found;
}

/** `parseNoteForCache` plus inline #tags (which it does not read), so both kinds of tags reach `getAllTags`. */
export function parseWithTags(text: string): CachedMetadata {
	const cache = parseNoteForCache(text);
	const at = { line: 0, col: 0, offset: 0 };
	const tags = [...text.matchAll(/(?:^|\s)(#[\p{L}\p{N}_/-]+)/gu)].map((match) => ({
		tag: match[1] ?? "",
		position: { start: at, end: at },
	}));
	return tags.length > 0 ? { ...cache, tags } : cache;
}
