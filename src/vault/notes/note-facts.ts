import { CodeMask } from "../markdown/code-mask";
import { frontmatterTags, tagsInLine } from "../markdown/note-tags";
import { findFrontmatter } from "../markdown/frontmatter-check";
import { findLinks } from "../markdown/link-syntax";
import { scanNote } from "../markdown/markdown-scanner";
import { splitLines } from "../markdown/text-lines";
import { parseYaml } from "../markdown/yaml-parser";
import type { FrontmatterFact, NoteFacts, TagFact } from "./vault-index";
import { describeError } from "../../shared/describe-error";

const TOP_LEVEL_KEY = /^([^\s#:-][^:]*?|"[^"]+"|'[^']+'):(?:\s|$)/;

/**
 * The facts of one note from its text, for adapters that have no metadata cache (the folder). Uses the
 * headless host's scanner for headings, block ids and links; link targets are left for the adapter to resolve.
 */
export function factsFromText(path: string, text: string): NoteFacts {
	const lines = splitLines(text);
	const metadata = scanNote(path, text, parseYaml);
	const facts: NoteFacts = {
		path,
		headings: metadata.headings.map((heading) => ({ text: heading.text, level: heading.level, line: heading.range.start.line, endLine: heading.range.end.line })),
		blockIds: metadata.blockIds.map((block) => ({ id: block.id, line: block.range.start.line })),
		links: metadata.links.map((link) => {
			const fact = { line: link.range.start.line, start: link.range.start.character, end: link.range.end.character, original: link.original, linkpath: link.linkpath, embed: link.embed };
			return link.subpath === undefined ? fact : { ...fact, subpath: link.subpath };
		}),
		tags: [],
	};
	const frontmatter = frontmatterFact(lines);
	if (frontmatter) {
		facts.frontmatter = frontmatter;
		// Obsidian treats wikilinks in properties (`related: "[[Note]]"`) as links: moves must rewrite them too.
		const inProperties: NoteFacts["links"] = [];
		for (let line = 1; line < frontmatter.endLine; line++) {
			const text = lines[line] ?? "";
			if (!text.includes("[[")) continue;
			for (const link of findLinks(text, text, line)) {
				if (!link.original.startsWith("[[")) continue;
				const fact = { line, start: link.range.start.character, end: link.range.end.character, original: link.original, linkpath: link.linkpath, embed: false };
				inProperties.push(link.subpath === undefined ? fact : { ...fact, subpath: link.subpath });
			}
		}
		if (inProperties.length > 0) facts.links = [...inProperties, ...facts.links];
	}
	facts.tags = [...frontmatterTagFacts(frontmatter, lines), ...inlineTags(lines, frontmatter ? frontmatter.endLine + 1 : 0)];
	return facts;
}

function frontmatterFact(lines: readonly string[]): FrontmatterFact | undefined {
	const block = findFrontmatter(lines);
	if (!block) return undefined;
	const keyLines: Record<string, number> = {};
	for (let line = 1; line < block.endLine; line++) {
		const key = TOP_LEVEL_KEY.exec(lines[line] ?? "")?.[1];
		if (key !== undefined) keyLines[key.replace(/^["']|["']$/g, "").trim()] ??= line;
	}
	const fact: FrontmatterFact = { endLine: block.endLine, keyLines };
	try {
		const parsed = parseYaml(block.yaml);
		if (parsed === null || parsed === undefined) fact.properties = {};
		else if (typeof parsed === "object" && !Array.isArray(parsed)) fact.properties = parsed as Record<string, unknown>;
		else fact.problem = "the frontmatter is not a list of key: value properties";
	} catch (error) {
		fact.problem = `the frontmatter YAML does not parse (${describeError(error).split("\n", 1)[0] ?? ""})`;
	}
	return fact;
}

/** The frontmatter's tags for display, read by `frontmatterTags` of note-tags.ts (any key case, YAML errors); privacy reads `noteTags`. */
function frontmatterTagFacts(frontmatter: FrontmatterFact | undefined, lines: readonly string[]): TagFact[] {
	if (!frontmatter) return [];
	const line = Object.entries(frontmatter.keyLines).find(([key]) => /^tags?$/i.test(key))?.[1] ?? 0;
	return frontmatterTags(lines.slice(1, frontmatter.endLine).join("\n")).map((tag) => ({ tag, line }));
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
