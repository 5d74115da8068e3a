/**
 * Where a file write Claude Code's own tools attempt is shown to the user before the file changes (the same review
 * view as vault-tool writes). Types only: the assembly supplies it.
 */

/** A write to review: the file's text before (as the CLI reads it) and the complete text proposed. */
export interface FileWriteProposal {
	/** Vault path. */
	path: string;
	/** "" for a new file. */
	before: string;
	proposed: string;
	/** The tool that proposes (`Edit`, `Write`, `MultiEdit`, `NotebookEdit`) and the CLI session, when known. */
	proposer: { tool: string; sessionId?: string };
	isNewFile: boolean;
	/** Aborted when the CLI withdraws its question (the turn was interrupted): the review is withdrawn, nothing written. */
	signal?: AbortSignal;
}

/**
 * The user's decision: the text to write (their own edits included), or a rejection with the reason Claude reads;
 * or no decision could be carried out (the review could not be shown, or the note's path changed under it), which
 * is never reported as the user's rejection.
 */
export type FileWriteOutcome =
	{ kind: "accepted"; finalText: string } | { kind: "rejected"; reason: string } | { kind: "failed"; reason: string };

export interface FileWriteReview {
	review(proposal: FileWriteProposal): Promise<FileWriteOutcome>;
}
