import { CodeMask } from "../markdown/code-mask";
import { frontmatterTagsByCodec, frontmatterTagsOfValues, tagsInLine } from "../markdown/note-tags";
import { simpleYamlMap } from "../markdown/simple-yaml";
import { findFrontmatter, type FrontmatterBlock } from "../markdown/frontmatter-check";
import { findLinks } from "../markdown/link-syntax";
import { scanLinks, scanNote } from "../markdown/markdown-scanner";
import { splitLines } from "../../shared/text-lines";
import { eachLineHolding, masksLineByLine, noteHead } from "../markdown/line-scan";
import {
	eachLineHoldingHashOrFence,
	headOfBytes,
	headSpanOfBytes,
	mayHoldComment,
	mayHoldInlineTag,
} from "../markdown/tag-bytes";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { FrontmatterFact, LinkFact, NoteFacts, TagFact } from "../markdown/note-model";
import { describeError } from "../../shared/describe-error";

const TOP_LEVEL_KEY = /^([^\s#:-][^:]*?|"[^"]+"|'[^']+'):(?:\s|$)/;

/**
 * The note model from a note's text, for builders that have no metadata cache (the folder; Obsidian for a note it
 * has not parsed yet). The shared scanner gives headings, block ids, body links and the frontmatter's problem
 * (`codec`: Obsidian's own YAML in the plugin); link targets are left for the index to resolve. Its parts
 * (`linkFactsFromText`, `tagsAndFrontmatterFromText`) give exactly the same links, tags and frontmatter for
 * indexes that keep only those of every note.
 */
export function factsFromText(path: string, text: string, codec: YamlCodec): NoteFacts {
	const lines = splitLines(text);
	const scanned = scanNote(path, text, codec.parse);
	const block = findFrontmatter(lines);
	const facts: NoteFacts = {
		path,
		headings: scanned.headings,
		blockIds: scanned.blockIds,
		links: [...propertyLinks(lines, block), ...scanned.links],
		tags: [],
	};
	const described = describe(lines, block, codec, inlineTags(lines, block ? block.endLine + 1 : 0));
	facts.tags = described.tags;
	if (described.frontmatter) facts.frontmatter = described.frontmatter;
	if (scanned.frontmatterProblem) facts.frontmatterProblem = scanned.frontmatterProblem;
	return facts;
}

/** The note's links, as `factsFromText` gives them: wikilinks in the frontmatter's properties, then the body's links. */
export function linkFactsFromText(text: string): LinkFact[] {
	if (masksLineByLine(text)) {
		// Only the lines with a bracket can hold a link: the others are not split off or masked.
		const head = noteHead(text);
		const block = findFrontmatter(head.lines);
		const links = propertyLinks(head.lines, block);
		const mask = new CodeMask();
		eachLineHolding(text, "[", block ? head.bodyOffset : 0, block ? block.endLine + 1 : 0, (line, number) => {
			const masked = mask.maskLine(line);
			if (masked !== undefined && masked.includes("["))
				for (const link of findLinks(line, masked, number)) links.push(link);
		});
		return links;
	}
	const lines = splitLines(text);
	const block = findFrontmatter(lines);
	return [...propertyLinks(lines, block), ...scanLinks(lines, block ? block.endLine + 1 : 0)];
}

/** The note's tags and frontmatter, as `factsFromText` gives them (the frontmatter's YAML parsed once for both). */
export function tagsAndFrontmatterFromText(
	text: string,
	codec: YamlCodec,
): { tags: TagFact[]; frontmatter?: FrontmatterFact } {
	if (masksLineByLine(text)) {
		// Only the lines with a `#` can hold a tag: the others are not split off or masked.
		const head = noteHead(text);
		const block = findFrontmatter(head.lines);
		const tags: TagFact[] = [];
		const mask = new CodeMask();
		eachLineHolding(text, "#", block ? head.bodyOffset : 0, block ? block.endLine + 1 : 0, (line, number) => {
			const masked = mask.maskLine(line);
			if (masked !== undefined && masked.includes("#"))
				for (const tag of tagsInLine(masked)) tags.push({ tag, line: number });
		});
		return describe(head.lines, block, codec, tags);
	}
	const lines = splitLines(text);
	const block = findFrontmatter(lines);
	return describe(lines, block, codec, inlineTags(lines, block ? block.endLine + 1 : 0));
}

/**
 * `tagsAndFrontmatterFromText` of a note's bytes (UTF-8), decoding only its frontmatter and, when its body has a `#`
 * that may start a tag, the lines with a `#` or a fence (for a note without comments, which may span any lines);
 * undefined for the others (the caller decodes the text).
 */
export function tagsAndFrontmatterFromBytes(
	bytes: Buffer,
	codec: YamlCodec,
): { tags: TagFact[]; frontmatter?: FrontmatterFact } | undefined {
	const described = tagsFromBytes(bytes, codec);
	if (!described?.later) return described;
	const frontmatter = frontmatterOfBlock(described.later, codec);
	return frontmatter ? { tags: described.tags, frontmatter } : { tags: described.tags };
}

/**
 * `tagsAndFrontmatterFromBytes`, leaving a frontmatter that cannot hold a tag key unread: then `later` is its block,
 * for `frontmatterOfBlock` when the frontmatter is asked for (a tags overview of every note makes no property objects).
 */
export function tagsFromBytes(
	bytes: Buffer,
	codec: YamlCodec,
): { tags: TagFact[]; frontmatter?: FrontmatterFact; later?: FrontmatterBlock } | undefined {
	const head = headOfBytes(bytes);
	if (!head) return undefined;
	const block = findFrontmatter(head.lines);
	let tags: TagFact[] = [];
	if (mayHoldInlineTag(bytes, head.bodyOffset)) {
		if (mayHoldComment(bytes)) return undefined;
		// As `inlineTags` reads every line of the body: the other lines neither hold a tag nor change the mask's state.
		const inline: TagFact[] = [];
		const mask = new CodeMask();
		eachLineHoldingHashOrFence(
			bytes,
			block ? head.bodyOffset : 0,
			block ? block.endLine + 1 : 0,
			(line, number) => {
				const masked = mask.maskLine(line);
				if (masked !== undefined && masked.includes("#"))
					for (const tag of tagsInLine(masked)) inline.push({ tag, line: number });
			},
		);
		tags = inline;
	}
	if (block && !mayHoldTagKey(block.yaml)) return { tags, later: block };
	return describe(head.lines, block, codec, tags);
}

/**
 * The note's tags alone, as `tagsAndFrontmatterFromText` gives them, from its bytes (decoded only where
 * `tagsFromBytes` cannot read them): for a look at every note that keeps no frontmatter.
 */
export function tagsOfBytes(bytes: Buffer, codec: YamlCodec): readonly TagFact[] {
	const head = headSpanOfBytes(bytes);
	if (!head || head.mayHoldTagKey) return tagsOfWhole(bytes, codec);
	// The frontmatter holds no tag: the body's tags are all, read as `tagsFromBytes` reads them.
	if (!mayHoldInlineTag(bytes, head.bodyOffset)) return NO_TAGS;
	if (mayHoldComment(bytes)) return tagsOfWhole(bytes, codec);
	const tags: TagFact[] = [];
	const mask = new CodeMask();
	eachLineHoldingHashOrFence(bytes, head.bodyOffset, head.endLine + 1, (line, number) => {
		const masked = mask.maskLine(line);
		if (masked !== undefined && masked.includes("#"))
			for (const tag of tagsInLine(masked)) tags.push({ tag, line: number });
	});
	return tags;
}

const NO_TAGS: readonly TagFact[] = Object.freeze([]);

function tagsOfWhole(bytes: Buffer, codec: YamlCodec): readonly TagFact[] {
	return tagsFromBytes(bytes, codec)?.tags ?? tagsAndFrontmatterFromText(bytes.toString("utf8"), codec).tags;
}

/** The frontmatter `describe` gives for this block (every line of it is in `block.yaml`). */
export function frontmatterOfBlock(block: FrontmatterBlock, codec: YamlCodec): FrontmatterFact | undefined {
	// `describe` reads the lines between the fences alone (1 to endLine - 1).
	return describe(["", ...block.yaml.split("\n")], block, codec, []).frontmatter;
}

/**
 * Whether a frontmatter's YAML may have a `tags` or `tag` key: a key is spelt in its text (any case), or with an
 * escape in a quoted key.
 */
function mayHoldTagKey(yaml: string): boolean {
	return /tag/i.test(yaml) || yaml.includes("\\");
}

/** The tags and frontmatter, given the body's tags (`inline`) and the lines up to the frontmatter's end at least. */
function describe(
	lines: readonly string[],
	block: FrontmatterBlock | undefined,
	codec: YamlCodec,
	inline: TagFact[],
): { tags: TagFact[]; frontmatter?: FrontmatterFact } {
	if (!block) return { tags: inline };
	const keyLines = keyLinesOf(lines, block);
	const tagLine = Object.entries(keyLines).find(([key]) => /^tags?$/i.test(key))?.[1] ?? 0;
	// Most frontmatter is plain `key: value` lines: read without a YAML parser, to the same values.
	const simple = simpleYamlMap(block.yaml);
	if (simple)
		return {
			tags: [...frontmatterTagsOfValues(simple).map((tag) => ({ tag, line: tagLine })), ...inline],
			frontmatter: { endLine: block.endLine, keyLines, properties: simple },
		};
	// The frontmatter's tags for display, read as `frontmatterTags` reads them (any key case, YAML errors as the codec can); privacy reads `noteTags`.
	const tags = [...frontmatterTagsByCodec(block.yaml, codec).map((tag) => ({ tag, line: tagLine })), ...inline];
	return { tags, frontmatter: frontmatterFact(block, keyLines, codec) };
}

/** Obsidian treats wikilinks in properties (`related: "[[Note]]"`) as links: moves must rewrite them too. */
function propertyLinks(lines: readonly string[], block: FrontmatterBlock | undefined): LinkFact[] {
	const links: LinkFact[] = [];
	if (!block) return links;
	for (let line = 1; line < block.endLine; line++) {
		const text = lines[line] ?? "";
		if (!text.includes("[[")) continue;
		for (const link of findLinks(text, text, line)) if (link.original.startsWith("[[")) links.push(link);
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

function frontmatterFact(block: FrontmatterBlock, keyLines: Record<string, number>, codec: YamlCodec): FrontmatterFact {
	const fact: FrontmatterFact = { endLine: block.endLine, keyLines };
	try {
		const parsed = codec.parse(block.yaml);
		if (parsed === null || parsed === undefined) fact.properties = {};
		else if (typeof parsed === "object" && !Array.isArray(parsed))
			fact.properties = parsed as Record<string, unknown>;
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
