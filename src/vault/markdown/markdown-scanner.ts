import { CodeMask } from "./code-mask";
import { checkFrontmatter, findFrontmatter, type YamlParser } from "./frontmatter-check";
import { findLinks } from "./link-syntax";
import type { BlockIdFact, HeadingFact, LinkFact, NoteFacts } from "./note-model";
import { splitLines } from "../../shared/text-lines";

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
// Lines that cannot be the text of a setext heading: list items, quotes, tables, ATX headings.
const NOT_PARAGRAPH = /^\s*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\||#{1,6}(?:[ \t]|$))/;
const BLOCK_ID = /(?:^|\s)(\^([A-Za-z0-9-]+))[ \t]*$/d;

/** What the scanner reads of a note; `factsFromText` (notes/) adds the tags and the frontmatter's properties. */
export type ScannedNote = Pick<NoteFacts, "path" | "headings" | "blockIds" | "links" | "frontmatterProblem">;

/**
 * The shared producer of the note model from text: a line scanner for the parts of Obsidian's Markdown the
 * rules need. It follows Obsidian where it matters for links and is not a full CommonMark parser: indented
 * code blocks, math blocks, reference-style links and code spans across lines are not recognised, and links in
 * frontmatter properties are not checked.
 */
export function scanNote(path: string, text: string, parseYaml: YamlParser): ScannedNote {
	const lines = splitLines(text);
	const links: LinkFact[] = [];
	const headings: HeadingFact[] = [];
	const blockIds: BlockIdFact[] = [];
	const frontmatter = findFrontmatter(lines);
	const mask = new CodeMask();
	let paragraphStart: number | undefined;

	for (let line = frontmatter ? frontmatter.endLine + 1 : 0; line < lines.length; line++) {
		const original = lines[line] ?? "";
		const wasInComment = mask.inComment;
		const masked = mask.maskLine(original);
		if (masked === undefined || masked.trim() === "") {
			paragraphStart = undefined;
			continue;
		}
		const setext = wasInComment ? null : SETEXT_UNDERLINE.exec(masked);
		if (setext?.[1] && paragraphStart !== undefined) {
			headings.push(setextHeading(lines, paragraphStart, line, setext[1].startsWith("=") ? 1 : 2));
			paragraphStart = undefined;
			continue;
		}
		links.push(...findLinks(original, masked, line));
		const atx = wasInComment ? null : ATX_HEADING.exec(masked);
		if (atx?.[1]) {
			headings.push(atxHeading(original, line, atx[1].length));
			paragraphStart = undefined;
			continue;
		}
		const blockId = BLOCK_ID.exec(masked);
		const idRange = blockId?.indices?.[1];
		if (blockId?.[2] && idRange) {
			blockIds.push({ id: blockId[2], line, start: idRange[0], end: idRange[1] });
		}
		if (NOT_PARAGRAPH.test(masked) || SETEXT_UNDERLINE.test(masked)) paragraphStart = undefined;
		else paragraphStart ??= line;
	}

	const scanned: ScannedNote = { path, links, headings, blockIds };
	const frontmatterProblem = checkFrontmatter(lines, parseYaml);
	if (frontmatterProblem) scanned.frontmatterProblem = frontmatterProblem;
	return scanned;
}

/**
 * The links of a note's body (from `from`, the line after the frontmatter), exactly as `scanNote` finds them,
 * without the rest of its work: for indexes that need every note's links and nothing else.
 */
export function scanLinks(lines: readonly string[], from: number): LinkFact[] {
	const links: LinkFact[] = [];
	const mask = new CodeMask();
	for (let line = from; line < lines.length; line++) {
		const original = lines[line] ?? "";
		const masked = mask.maskLine(original);
		// A setext underline, which scanNote does not search for links, is only `=` or `-`: it holds none.
		if (masked === undefined || !masked.includes("[")) continue;
		links.push(...findLinks(original, masked, line));
	}
	return links;
}

function atxHeading(original: string, line: number, level: number): HeadingFact {
	const text = (ATX_HEADING.exec(original)?.[2] ?? "").replace(/(?:^|[ \t]+)#+$/, "").trim();
	return { text, level, line, endLine: line };
}

function setextHeading(lines: readonly string[], from: number, underline: number, level: number): HeadingFact {
	const text = lines
		.slice(from, underline)
		.map((part) => part.trim())
		.join(" ");
	return { text, level, line: from, endLine: underline };
}
