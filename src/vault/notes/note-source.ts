import type { NoteFacts } from "../markdown/note-model";

/**
 * Where the diagnostics engine gets notes from: the headless host's file system scanner, or Obsidian's
 * metadata cache. Implementations keep metadata cached per note and update it per changed file.
 */
export interface NoteSource {
	/** Brings the metadata up to date with the files; cheap when nothing changed. */
	refresh(): Promise<void>;
	/** Makes sure one note is current, e.g. right after the CLI wrote it, without waiting for change events. */
	refreshNote(path: string): Promise<void>;
	/** Vault-relative paths of every Markdown note. */
	notePaths(): Iterable<string>;
	/**
	 * A note's metadata; the same object for as long as the note does not change. Undefined for non-notes, and for
	 * notes the source cannot read yet (then `indexingNotice` names them).
	 */
	metadata(path: string): NoteFacts | undefined;
	/**
	 * The vault path a link path leads to from `sourcePath`, as Obsidian resolves it; undefined when unresolved.
	 * With `exists`, only the files it accepts count, as if the others were not in the vault (privacy).
	 */
	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined;
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
