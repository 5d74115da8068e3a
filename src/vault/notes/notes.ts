import type { NoteFacts } from "../markdown/note-model";

/**
 * What of the notes' frontmatter a caller reads after `refresh`: all of it (`every note`), only the links in
 * properties (`links`), only the links in properties that `backlinks` asks for (`backlinks`: the adapter may read the
 * frontmatter of a note that may link to the one asked only then), only the tags in properties (`tags`), or none of
 * it (a text or path search). Whatever the need, a note's body and what the adapter knows without reading its text
 * stay exact.
 */
export type FrontmatterNeed = "every note" | "links" | "backlinks" | "tags" | "none";

/**
 * The one port for "the notes": every note's model (`NoteFacts`) and links resolved as Obsidian resolves them. Two
 * adapters build it (the folder on disk, Obsidian's metadata cache) and both features read it: the diagnostics as
 * `DiagnosticsNotes`, the vault tools as `VaultIndex` (which adds the notes' texts and the writes).
 */
export interface Notes {
	/**
	 * Brings the notes up to date with the vault; cheap when nothing changed. `need` says what of the notes'
	 * frontmatter the caller reads next (every note's, the default): an adapter that reads the frontmatter from the
	 * text may read only what is needed.
	 */
	refresh(need?: FrontmatterNeed): Promise<void>;
	/** Vault paths of every Markdown note, in no particular order. */
	notePaths(): Iterable<string>;
	/**
	 * A note's model; undefined for non-notes, and for notes the adapter cannot read yet. Synchronous: both adapters
	 * have it at hand (the folder's cache, Obsidian's metadata cache), and whole-vault questions ask for every note.
	 */
	facts(path: string): NoteFacts | undefined;
	/**
	 * The vault path a link path leads to from `sourcePath`, as Obsidian resolves it; undefined when unresolved.
	 * With `exists`, only the files it accepts count: the answer is Obsidian's in a vault without the others, so a
	 * private note never shadows a public one of the same name.
	 */
	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined;
}

/**
 * The notes as `getDiagnostics` reads them: each note's model the same object for as long as the note does not
 * change (the engine caches per note), one note made current on demand, what an answer could not cover, and the
 * pace of long work.
 */
export interface DiagnosticsNotes extends Notes {
	/** Makes sure one note is current, e.g. right after the CLI wrote it, without waiting for change events. */
	refreshNote(path: string): Promise<void>;
	/**
	 * Optional: the host's own heading/block matcher (Obsidian's `resolveSubpath`); undefined leaves it to the
	 * core's matcher. Sources without one (the headless scanner) leave it out.
	 */
	hasSubpath?(targetPath: string, subpath: string): boolean | undefined;
	/** Optional: whether a link leads, or would lead, into a private note (see `RuleContext.isHiddenLinkTarget`). */
	isHiddenLinkTarget?(linkpath: string, sourcePath: string, target: string | undefined): boolean;
	/**
	 * Optional: a sentence for the answer when it is not complete, e.g. notes the host has not indexed yet, about
	 * one note (`path`) or the whole vault; undefined when nothing is missing.
	 */
	indexingNotice?(path?: string): string | undefined;
	/**
	 * Optional: how long work for one call may hold the thread before it yields (Obsidian's main thread); the
	 * engine then runs the rules over the vault in slices. Absent (the headless host), it runs them in one go.
	 */
	readonly pace?: WorkPace;
	/** Changes whenever files are added, removed or renamed (link resolution may then change). */
	readonly structureVersion: number;
}

/** Slices of long work: `now()` in milliseconds, at most `sliceMs` between two `yieldToMain()`. */
export interface WorkPace {
	sliceMs: number;
	now(): number;
	yieldToMain(): Promise<void>;
}
