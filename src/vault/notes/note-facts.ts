import { CodeMask } from "../markdown/code-mask";
import type { Document } from "yaml";
import { frontmatterTagsOf, frontmatterTagsOfValues, tagsInLine } from "../markdown/note-tags";
import { simpleYamlMap } from "../markdown/simple-yaml";
import { findFrontmatter, type FrontmatterBlock } from "../markdown/frontmatter-check";
import { findLinks } from "../markdown/link-syntax";
import { scanLinks, scanNote } from "../markdown/markdown-scanner";
import type { NoteLink } from "../markdown/note-metadata";
import { splitLines } from "../markdown/text-lines";
import { parseYaml, parseYamlDocument, yamlValue } from "../markdown/yaml-parser";
import type { FrontmatterFact, LinkFact, NoteFacts, TagFact } from "./vault-index";
import { describeError } from "../../shared/describe-error";

const TOP_LEVEL_KEY = /^([^\s#:-][^:]*?|"[^"]+"|'[^']+'):(?:\s|$)/;

/**
 * The facts of one note from its text, for adapters that have no metadata cache (the folder). Uses the
 * headless host's scanner for headings, block ids and links; link targets are left for the adapter to resolve.
 * Its parts (`linkFactsFromText`, `tagsAndFrontmatterFromText`) give exactly the same links, tags
 * and frontmatter for indexes that keep only those of every note.
 */
export function factsFromText(path: string, text: string): NoteFacts {
	const lines = splitLines(text);
	const metadata = scanNote(path, text, parseYaml);
	const block = findFrontmatter(lines);
	const facts: NoteFacts = {
		path,
		headings: metadata.headings.map((heading) => ({ text: heading.text, level: heading.level, line: heading.range.start.line, endLine: heading.range.end.line })),
		blockIds: metadata.blockIds.map((block) => ({ id: block.id, line: block.range.start.line })),
		links: [...propertyLinks(lines, block), ...metadata.links.map(linkFact)],
		tags: [],
	};
	const described = describe(lines, block);
	facts.tags = described.tags;
	if (described.frontmatter) facts.frontmatter = described.frontmatter;
	return facts;
}

/** The note's links, as `factsFromText` gives them: wikilinks in the frontmatter's properties, then the body's links. */
export function linkFactsFromText(text: string): LinkFact[] {
	const lines = splitLines(text);
	const block = findFrontmatter(lines);
	return [...propertyLinks(lines, block), ...scanLinks(lines, block ? block.endLine + 1 : 0).map(linkFact)];
}

/** The note's tags and frontmatter, as `factsFromText` gives them (the frontmatter's YAML parsed once for both). */
export function tagsAndFrontmatterFromText(text: string): { tags: TagFact[]; frontmatter?: FrontmatterFact } {
	const lines = splitLines(text);
	return describe(lines, findFrontmatter(lines));
}

function describe(lines: readonly string[], block: FrontmatterBlock | undefined): { tags: TagFact[]; frontmatter?: FrontmatterFact } {
	const inline = inlineTags(lines, block ? block.endLine + 1 : 0);
	if (!block) return { tags: inline };
	const keyLines = keyLinesOf(lines, block);
	const tagLine = Object.entries(keyLines).find(([key]) => /^tags?$/i.test(key))?.[1] ?? 0;
	// Most frontmatter is plain `key: value` lines: read without the YAML library, to the same values.
	const simple = simpleYamlMap(block.yaml);
	if (simple) return { tags: [...frontmatterTagsOfValues(simple).map((tag) => ({ tag, line: tagLine })), ...inline], frontmatter: { endLine: block.endLine, keyLines, properties: simple } };
	const document = parseYamlDocument(block.yaml);
	// The frontmatter's tags for display, read as `frontmatterTags` of note-tags.ts does (any key case, YAML errors); privacy reads `noteTags`.
	const tags = [...frontmatterTagsOf(document).map((tag) => ({ tag, line: tagLine })), ...inline];
	return { tags, frontmatter: frontmatterFact(block, keyLines, document) };
}

function linkFact(link: NoteLink): LinkFact {
	const fact = { line: link.range.start.line, start: link.range.start.character, end: link.range.end.character, original: link.original, linkpath: link.linkpath, embed: link.embed };
	return link.subpath === undefined ? fact : { ...fact, subpath: link.subpath };
}

/** Obsidian treats wikilinks in properties (`related: "[[Note]]"`) as links: moves must rewrite them too. */
function propertyLinks(lines: readonly string[], block: FrontmatterBlock | undefined): LinkFact[] {
	const links: LinkFact[] = [];
	if (!block) return links;
	for (let line = 1; line < block.endLine; line++) {
		const text = lines[line] ?? "";
		if (!text.includes("[[")) continue;
		for (const link of findLinks(text, text, line)) {
			if (!link.original.startsWith("[[")) continue;
			const fact = { line, start: link.range.start.character, end: link.range.end.character, original: link.original, linkpath: link.linkpath, embed: false };
			links.push(link.subpath === undefined ? fact : { ...fact, subpath: link.subpath });
		}
	}
	return links;
}

/** Line of each top-level key of the frontmatter. */
function keyLinesOf(lines: readonly string[], block: FrontmatterBlock): Record<string, number> {
	const keyLines: Record<string, number> = {};
	for (let line = 1; line < block.endLine; line++) {
		const key = TOP_LEVEL_KEY.exec(lines[line] ?? "")?.[1];
		if (key !== undefined) keyLines[key.replace(/^["']|["']$/g, "").trim()] ??= line;
	}
	return keyLines;
}

function frontmatterFact(block: FrontmatterBlock, keyLines: Record<string, number>, document: Document.Parsed): FrontmatterFact {
	const fact: FrontmatterFact = { endLine: block.endLine, keyLines };
	try {
		const parsed = yamlValue(document);
		if (parsed === null || parsed === undefined) fact.properties = {};
		else if (typeof parsed === "object" && !Array.isArray(parsed)) fact.properties = parsed as Record<string, unknown>;
		else fact.problem = "the frontmatter is not a list of key: value properties";
	} catch (error) {
		fact.problem = `the frontmatter YAML does not parse (${describeError(error).split("\n", 1)[0] ?? ""})`;
	}
	return fact;
}

function inlineTags(lines: readonly string[], from: number): TagFact[] {
	const mask = new CodeMask();
	const tags: TagFact[] = [];
	for (let line = from; line < lines.length; line++) {
		const masked = mask.maskLine(lines[line] ?? "");
		if (masked === undefined || !masked.includes("#")) continue;
		for (const tag of tagsInLine(masked)) tags.push({ tag, line });
	}
	return tags;
}

/** Words of the note's body (frontmatter excluded), counted as runs of non-space characters. */
export function wordCount(text: string, facts: NoteFacts): number {
	const lines = splitLines(text);
	const body = facts.frontmatter ? lines.slice(facts.frontmatter.endLine + 1) : lines;
	let count = 0;
	for (const line of body) count += line.match(/\S+/g)?.length ?? 0;
	return count;
}
