import { CodeMask } from "./code-mask";
import { findFrontmatter } from "./frontmatter-check";
import { simpleYamlMap } from "./simple-yaml";
import { eachLineHolding, masksLineByLine, noteHead } from "./line-scan";
import { splitLines } from "../../shared/text-lines";
import type { YamlCodec } from "../../shared/yaml-codec";
import { lazyRegExp } from "../../shared/lazy-regexp";

// A tag starts at a line start, after white space or right after another tag (`#work#private` is two); letters,
// digits, _, - and / (https://help.obsidian.md/tags, "Tag format"). Obsidian ends it at other punctuation, so
// `#private.` is `private`. Two readings are taken and both kept, so neither can hide a private tag: the letters
// above only, and anything up to white space or ASCII punctuation (emoji and other scripts, which Obsidian allows).
// The first is made on first use (lazy-regexp.ts: a `\p{…}` literal costs plugin load).
const LETTERS_READING = lazyRegExp(String.raw`(?<=^|\s|#[^\s#]+)#([\p{L}\p{N}_/-]+)`, "gu");
const UP_TO_PUNCTUATION_READING = /(?<=^|\s|#[^\s#]+)#([^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/gu;
// A `#` where both readings may start a tag (after what their look-behind accepts, or more) followed by a
// character their tags may start with: a line without one has no tag (`[[Note#Heading]]` has none).
const TAG_START = /(?:^|\s|#[^\s#]*)#[^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]/u;
// The frontmatter keys Obsidian reads tags from, matched whatever their case (`Tags:`); `tag` is the older name.
const TAG_KEY = /^tags?$/i;

/**
 * The tags of a note's text, without `#`, for notes Obsidian's metadata cache does not read (the headless host).
 * Meant for privacy: where Obsidian's reading is uncertain it errs towards finding a tag, never away from it,
 * so a note that is private in Obsidian is private here too (https://help.obsidian.md/tags; tests/security/tag-scanner.test.ts).
 */
export function noteTags(text: string, codec: YamlCodec): string[] {
	// A byte order mark (some Windows editors write one) must not hide the frontmatter.
	const source = text.replace(/^\uFEFF/, "");
	if (masksLineByLine(source)) {
		// Only the lines with a `#` can hold a tag: the others are not split off or masked (no comment can be open).
		const head = noteHead(source);
		const block = findFrontmatter(head.lines);
		const found = block ? frontmatterTags(block.yaml, codec) : [];
		const mask = new CodeMask({ maskComments: false });
		eachLineHolding(source, "#", block ? head.bodyOffset : 0, block ? block.endLine + 1 : 0, (line) => {
			const masked = mask.maskLine(line);
			if (masked !== undefined && masked.includes("#")) found.push(...tagsInLine(masked));
		});
		return found;
	}
	const lines = splitLines(source);
	const frontmatter = findFrontmatter(lines);
	const tags = frontmatter ? frontmatterTags(frontmatter.yaml, codec) : [];
	// Comments stay in: a `%% #private %%` still makes the note private even if Obsidian's index skips it.
	const mask = new CodeMask({ maskComments: false });
	for (let line = frontmatter ? frontmatter.endLine + 1 : 0; line < lines.length; line++) {
		const masked = mask.maskLine(lines[line] ?? "");
		if (masked === undefined || !masked.includes("#")) continue;
		tags.push(...tagsInLine(masked));
	}
	return tags;
}

/** The `#tags` of one line of the body whose code is already blanked out (`CodeMask`), without `#`. */
export function tagsInLine(maskedLine: string): string[] {
	// Most lines with a `#` are headings or links to one: no `#` there starts either reading, so neither runs.
	if (!TAG_START.test(maskedLine)) return [];
	const found = new Set<string>();
	for (const reading of [LETTERS_READING(), UP_TO_PUNCTUATION_READING]) {
		for (const match of maskedLine.matchAll(reading)) found.add((match[1] ?? "").replace(/\/+$/, ""));
	}
	// An all-digit `#2024` is not a tag (https://help.obsidian.md/tags, "Tag format").
	return [...found].filter((tag) => tag !== "" && !/^[\d/]+$/.test(tag));
}

/**
 * Tags from the frontmatter's YAML: the values of every top-level `tags`/`tag` key in any case (quoted keys and
 * `tags : x` are the same key to YAML), as a list (block or flow, over several lines, with comments) or as one
 * string of tags separated by commas or spaces (also a folded `>-` scalar), with or without `#`
 * (https://help.obsidian.md/tags, "Tags in properties"; https://help.obsidian.md/properties).
 * With the library's codec they are read from the syntax tree, not the parsed value, so a duplicate key or a YAML
 * error elsewhere in the block (which leaves Obsidian without properties) cannot hide a tag (`YamlCodec.scalarsUnderKeys`).
 */
export function frontmatterTags(yaml: string, codec: YamlCodec): string[] {
	const simple = simpleYamlMap(yaml);
	return simple ? frontmatterTagsOfValues(simple) : frontmatterTagsByCodec(yaml, codec);
}

/** `frontmatterTags` read by the codec alone, for frontmatter `simpleYamlMap` declines. */
export function frontmatterTagsByCodec(yaml: string, codec: YamlCodec): string[] {
	return codec.scalarsUnderKeys(yaml, TAG_KEY).flatMap(splitTagWords);
}

/**
 * `frontmatterTags` of frontmatter read without a YAML parser (`simpleYamlMap`: scalars and lists of them, every
 * key once): the same words, since such a tree holds exactly these values.
 */
export function frontmatterTagsOfValues(properties: Record<string, unknown>): string[] {
	const words: string[] = [];
	for (const [key, value] of Object.entries(properties)) if (TAG_KEY.test(key.trim())) collectValues(value, words);
	return words.flatMap(splitTagWords);
}

function collectValues(value: unknown, into: string[]): void {
	if (Array.isArray(value)) for (const item of value) collectValues(item, into);
	else if (value !== null && value !== undefined) into.push(String(value as string | number | boolean));
}

function splitTagWords(value: string): string[] {
	// One word without a `#` (most tags in properties): nothing to split or strip.
	if (value !== "" && !/[,\s#]/.test(value)) return [value];
	return value
		.split(/[,\s]+/)
		.map((word) => word.replace(/^#+/, ""))
		.filter((word) => word !== "");
}
