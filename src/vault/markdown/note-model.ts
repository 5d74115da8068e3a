import type { TextRange } from "./text-position";

/**
 * The one model of a note, whoever builds it (the shared scanner from the note's text, or Obsidian's metadata
 * cache) and whoever reads it (the diagnostics rules, the vault tools). Lines are 0-based; characters are UTF-16
 * offsets in their line, `end` exclusive (LSP and CodeMirror agree).
 */
export interface NoteFacts {
	/** Vault path, forward slashes. */
	path: string;
	/** In document order. */
	headings: HeadingFact[];
	/** Every `^id`, in document order, duplicates included. */
	blockIds: BlockIdFact[];
	/**
	 * Links outside code and comments, in document order, with their resolution: first the wikilinks in the
	 * frontmatter's properties (a builder without the frontmatter's text leaves them out), then the body's.
	 */
	links: LinkFact[];
	/** Frontmatter tags (line of the frontmatter) and inline tags, without `#`, as written. */
	tags: TagFact[];
	frontmatter?: FrontmatterFact;
	/** Where the frontmatter's YAML breaks, as the diagnostics report it; set when a `---` block does not parse. */
	frontmatterProblem?: FrontmatterProblem;
	/**
	 * Regions where link syntax is not a link, for builders that do not skip them themselves (Obsidian's code
	 * sections); links and block ids inside them do not count. Absent: nothing to skip.
	 */
	codeRanges?: TextRange[];
}

export interface HeadingFact {
	/** The heading text as written, without the `#` marks. */
	text: string;
	level: number;
	/** First line of the heading (the text line of a setext heading). */
	line: number;
	/** Last line of the heading (the underline of a setext heading). */
	endLine: number;
}

export interface BlockIdFact {
	/** Without the caret. */
	id: string;
	line: number;
	/** Where `^id` is on its line. */
	start: number;
	end: number;
}

export interface LinkFact {
	line: number;
	/** Where the link is on its line. */
	start: number;
	end: number;
	/** The link as written, e.g. `[[Note#Part|shown]]`. */
	original: string;
	/** The file part as Obsidian resolves it: before `#`, without the alias, percent-decoded for Markdown links. */
	linkpath: string;
	/** What follows the first `#`, without it: a heading path (`A#B`) or a block reference (`^id`). */
	subpath?: string;
	/** `![[x]]` and `![alt](x)` are embeds. */
	embed: boolean;
	/** Where it leads; undefined when unresolved (or not resolved yet: the index resolves it). */
	target?: string;
}

export interface TagFact {
	/** Without `#`, as written. */
	tag: string;
	line: number;
}

export interface FrontmatterFact {
	/** Line of the closing `---`; the block spans lines 0..endLine. */
	endLine: number;
	/** The parsed properties; undefined when the YAML does not parse or is not a map. */
	properties?: Record<string, unknown>;
	/** Why `properties` is missing. */
	problem?: string;
	/** Line of each top-level key. */
	keyLines: Record<string, number>;
}

export interface FrontmatterProblem {
	message: string;
	range: TextRange;
}
