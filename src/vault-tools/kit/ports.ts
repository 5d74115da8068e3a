/** The reason a tool gives Claude when the user rejected a write (and when a write could not be applied, see `conflict`). */
export const REJECTED_BY_USER = "the user rejected the change in the review";

/** Positions are 0-based lines and UTF-16 characters, as the editor reports them. */
export interface ActiveNote {
	/** Vault path. */
	path: string;
	selection?: { from: { line: number; character: number }; to: { line: number; character: number }; text: string };
}

/** The note open in Obsidian (or the headless host's editor stand-in); undefined when none is. */
export interface ActiveNoteSource {
	current(): ActiveNote | undefined | Promise<ActiveNote | undefined>;
}
