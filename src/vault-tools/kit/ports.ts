/** A write the user may review before it lands: the note's text before, and what the tool proposes. */
export interface ProposedWrite {
	/** Vault path of the note. */
	path: string;
	/** "" for a new note. */
	oldText: string;
	newText: string;
	isNewNote: boolean;
	/** The tool that proposes it, e.g. "edit_note". */
	tool: string;
	/** Aborted when the client cancels the call or goes away: withdraw the review. */
	signal: AbortSignal;
	/**
	 * Set when the write cannot be applied whatever the user decides, with the reason for the user (a note the
	 * tools may not see is at the path): the review shows it and offers no Accept, and the tool answers as after a
	 * Reject, so Claude learns no more than a rejection tells it.
	 */
	conflict?: string;
}

/**
 * The user's decision, or `failed`: the review ended with an error instead of a decision (it could not be shown,
 * or the Accept was refused because the note's path changed while the review was open). `reason` is for the model.
 */
export type ReviewOutcome =
	| { kind: "accepted"; finalText: string }
	| { kind: "rejected"; reason?: string }
	| { kind: "failed"; reason: string };

/** The reason a tool gives Claude when the user rejected a write (and when a write could not be applied, see `conflict`). */
export const REJECTED_BY_USER = "the user rejected the change in the review";

/**
 * Where vault-tool writes are shown for review: Obsidian's review view (the `openDiff` flow), or the headless
 * host's `diff accept`/`diff reject`. The user may change the text before accepting; `finalText` is written.
 */
export interface WriteReview {
	propose(write: ProposedWrite): Promise<ReviewOutcome>;
}

/** Review off: every proposed write is accepted as proposed. */
export const APPLY_WITHOUT_REVIEW: WriteReview = {
	propose: (write) => Promise.resolve({ kind: "accepted", finalText: write.newText }),
};

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
