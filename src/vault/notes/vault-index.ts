import type { FrontmatterFact, LinkFact, NoteFacts, TagFact } from "../markdown/note-model";
import type { Notes, WorkPace } from "./notes";

/**
 * The notes as the vault tools read and write them: the one `Notes` port, plus the notes' texts, backlinks and the
 * three writes the tools make. Two adapters implement it: the folder on disk (`folder/`) and Obsidian's metadata
 * cache and file manager. Paths are vault paths (forward slashes, no leading slash); lines are 0-based here and
 * 1-based only in the tools' answers. `refresh` is called before each tool call.
 */
export interface VaultIndex extends Notes {
	/** Every Markdown note, in no particular order. */
	notePaths(): readonly string[];
	/**
	 * Optional: whether `path` is one of `notePaths()`, answered without going through the list (an index that keeps
	 * its notes by path). With it, and privacy rules that look at paths alone, a question about one note is decided
	 * without deciding every note of the vault (`VisibleVault`).
	 */
	isNote?(path: string): boolean;
	/** Whether any file or folder exists at this vault path (for create and move targets). */
	exists(path: string): Promise<boolean>;
	/** The note's text; undefined when it is not a note. */
	readText(path: string): Promise<string | undefined>;
	/**
	 * The same text without waiting, from an index that has every text at hand (the folder's): a search over every
	 * note then needs no await per note. Optional; undefined when it is not a note.
	 */
	textNow?(path: string): string | undefined;
	/**
	 * Optional: `facts` whose links may be left unresolved (or resolved for an earlier set of files), for a reader that
	 * does not look at them (the heading a search hit is under): resolving needs every file's name at hand.
	 */
	factsWithoutLinks?(path: string): NoteFacts | undefined;
	/**
	 * Optional parts of `facts` for questions asked of every note (tag and property search, the tags and properties
	 * overviews, privacy's tag rules), from an index that keeps them apart from the rest of the facts (the folder's):
	 * the same values as `facts(path)?.tags` and `facts(path)?.frontmatter`.
	 */
	tagsOf?(path: string): readonly TagFact[] | undefined;
	frontmatterOf?(path: string): FrontmatterFact | undefined;
	/**
	 * Optional: what text search scans (`searchTextOf` of the note's text), from an index that keeps it per note
	 * version; undefined when it is not a note. Without it the search makes its own from `readText`.
	 */
	searchText?(path: string): Buffer | undefined;
	/**
	 * Optional, with `searchText`: calls `each` with the search text of each of `paths` that is a note, with its
	 * position in `paths`. The text is lent for that call alone (one the index does not keep yet is not kept).
	 */
	forEachSearchText?(paths: readonly string[], each: (position: number, text: Buffer) => void): void;
	/**
	 * Optional, with `searchText`, for an index that reads texts asynchronously (Obsidian's): `forEachSearchText`
	 * in path order, a few reads at a time and in slices of `pace`. A text not kept is lent for the call alone; the
	 * index keeps them afterwards (in the background), so that `searchText` answers for them until the note changes.
	 */
	scanSearchTexts?(paths: readonly string[], each: (position: number, text: Buffer) => void): Promise<void>;
	/** Every link in another note (or in the note itself) that resolves to `path`. */
	backlinks(path: string): Promise<Backlink[]>;
	/**
	 * Optional, for an index that may have to read every note to answer `backlinks` (a folder's first session): the
	 * backlinks from the notes looked at so far, going through the notes in path order (`comparePaths`) until it has
	 * links from at least `want.sources` notes other than `path`, has looked at every note, or `want.deadline`
	 * (`performance.now()`) passed. Asked again for the same note, it goes on where it stopped (unless a note changed or files came or
	 * went: then it looks again from the first). Without it, `backlinks` answers complete (`backlinksSoFar`).
	 */
	backlinksFrom?(path: string, want: BacklinksWanted): Promise<BacklinksFound>;
	/**
	 * Optional: the pace of work over every note on a thread that must stay responsive (Obsidian's main thread); the
	 * tools then look through the notes in slices. Absent (a process of its own), they run in one go.
	 */
	readonly pace?: WorkPace;
	/**
	 * Replaces an existing note's text, only if it still is `expected` at the moment of writing; otherwise
	 * throws NoteChangedError and writes nothing. Every write throws WriteRefusedError, and writes nothing, when
	 * the place is not a real folder of the vault at the moment of writing (an adapter that can tell).
	 */
	writeText(path: string, text: string, expected: string, origin?: WriteOrigin): Promise<void>;
	/** Creates a note (and its folders); fails when anything exists at `path`. */
	createNote(path: string, text: string, origin?: WriteOrigin): Promise<void>;
	/** Renames a note and rewrites every link to it so each still leads to it. */
	renameNote(from: string, to: string, origin?: WriteOrigin): Promise<RenameReport>;
}

/** Who asks for a write: the call it belongs to in the activity journal (a tool call's context is one). */
export interface WriteOrigin {
	readonly journalId?: string;
}

export interface Backlink {
	source: string;
	link: LinkFact;
}

export interface BacklinksWanted {
	/** How many linking notes are enough (the note itself not counted). */
	sources: number;
	/** When to stop looking (as `performance.now()`) with fewer. */
	deadline: number;
	/**
	 * Once links from enough notes are found, the pass goes on to the last note when it expects to get there by this
	 * time (as `performance.now()`, from its pace so far): a vault read whole in a page's time has its total said on
	 * the first page. Without it, the pass stops as soon as it has enough.
	 */
	finishBy?: number;
}

/**
 * Backlinks from a complete prefix of the notes in path order: every link to the note from the notes up to and
 * including `through`. A note found later always sorts after `through`, so what a prefix holds never changes order
 * when it grows.
 */
export interface BacklinksFound {
	backlinks: Backlink[];
	/** Whether every note was looked at (`backlinks` is then all of them). */
	complete: boolean;
	/** The last note of the prefix looked at; undefined when it is empty or `complete`. */
	through: string | undefined;
	/** How many notes were looked at, of how many (equal when `complete`). */
	looked: number;
	notes: number;
}

/** `index.backlinksFrom`, or (an index without it) all of `backlinks` at once. */
export async function backlinksSoFar(
	index: Pick<VaultIndex, "backlinks" | "backlinksFrom">,
	path: string,
	want: BacklinksWanted,
): Promise<BacklinksFound> {
	if (index.backlinksFrom) return index.backlinksFrom(path, want);
	return completeBacklinks(await index.backlinks(path));
}

export function completeBacklinks(backlinks: Backlink[]): BacklinksFound {
	return { backlinks, complete: true, through: undefined, looked: 0, notes: 0 };
}

export interface RenameReport {
	/** Each note whose links were rewritten (by its path after the move) and how many links in it. */
	updates: { path: string; links: number }[];
}

/** The note is not what the caller last read: someone else changed it. Nothing was written. */
/**
 * A write refused at the moment of writing because its place left the vault's own folders since it was checked
 * (a folder on the way replaced by a symbolic link, say). The message says which part, and that nothing was written.
 */
export class WriteRefusedError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "WriteRefusedError";
	}
}

export class NoteChangedError extends Error {
	constructor(readonly path: string) {
		super(`${path} changed since it was read`);
		this.name = "NoteChangedError";
	}
}

/** A link a move could not keep leading where it led: the note it is in (its path after the move) and its text. */
export interface StrandedLink {
	path: string;
	/** 0-based. */
	line: number;
	original: string;
	/** Set for a note whose links could not be written at all: why (`line` and `original` are then not shown). */
	reason?: string;
}

/** Links named in a `LinksNotKeptError` before the rest are left out. */
const MAX_NAMED_LINKS = 10;

/** What a caller that hides some notes says, once, in place of their links. */
export const WITHHELD_LINK = "a link in a note the vault tools cannot show";

/**
 * A move that could not keep every link leading where it led, either refused (`moved` false: nothing changed) or
 * done with some links left as they were. `describe` names only the notes a caller may show: links in the others
 * are reported once, generically, without note, line, text or number (privacy). `message` shows them all.
 */
export class LinksNotKeptError extends Error {
	constructor(
		readonly from: string,
		readonly to: string,
		readonly moved: boolean,
		readonly links: readonly StrandedLink[],
		/** A hint for the user when the cause is likely a setting, e.g. Obsidian's link updating turned off. */
		private readonly hint = "",
	) {
		super("");
		this.name = "LinksNotKeptError";
		this.message = this.describe(() => true);
	}

	describe(canShow: (path: string) => boolean): string {
		const showable = this.links.filter((link) => canShow(link.path));
		const shown = showable.slice(0, MAX_NAMED_LINKS).map((link) => this.item(link));
		if (showable.length > MAX_NAMED_LINKS) shown.push("…");
		if (showable.length < this.links.length) shown.push(WITHHELD_LINK);
		const list = shown.join(", ");
		if (!this.moved) return `cannot rewrite ${list} so that every link still leads where it led; nothing was moved`;
		return `moved ${this.from} to ${this.to}, but links no longer lead where they led${this.hint}: ${list}`;
	}

	private item(link: StrandedLink): string {
		if (link.reason !== undefined) return `${link.path} (${link.reason})`;
		return this.moved
			? `${link.path}:${link.line + 1} ${link.original}`
			: `${link.original} in ${link.path} (line ${link.line + 1})`;
	}
}
