import type { TextRange } from "../markdown/text-position";

/**
 * What the rules need to know about one note, whoever produced it: the headless Markdown scanner or the
 * Obsidian metadata cache. Positions are 0-based lines and UTF-16 characters.
 */
export interface NoteMetadata {
	/** Vault-relative path, forward slashes. */
	path: string;
	links: NoteLink[];
	headings: NoteHeading[];
	/** Every `^id` marker, in document order, duplicates included. */
	blockIds: NoteBlockId[];
	/** Set when the note starts with a `---` block whose YAML does not parse. */
	frontmatterProblem?: FrontmatterProblem;
	/**
	 * Code blocks and other regions where link syntax is not a link. Producers that already skip them
	 * (the scanner) may leave this empty; the rules ignore links and block ids inside these ranges.
	 */
	codeRanges: TextRange[];
}

export interface NoteLink {
	/** `![[x]]` and `![alt](x)` are embeds. */
	embed: boolean;
	/** The file part as Obsidian resolves it: before `#`, without the alias, percent-decoded for Markdown links. */
	linkpath: string;
	/** What follows the first `#`, without it: a heading path (`A#B`) or a block reference (`^id`). */
	subpath?: string;
	/** The link as written, e.g. `[[Note#Part|shown]]`. */
	original: string;
	range: TextRange;
}

export interface NoteHeading {
	/** The heading text as written, without the `#` marks. */
	text: string;
	level: number;
	range: TextRange;
}

export interface NoteBlockId {
	/** Without the caret. */
	id: string;
	/** Covers `^id`. */
	range: TextRange;
}

export interface FrontmatterProblem {
	message: string;
	range: TextRange;
}
