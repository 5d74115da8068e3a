import type { VaultLocation } from "../../vault/vault-paths";

/** Who proposes an edit: the client program, its session (when known), and the tool it called. */
export interface ReviewProposer {
	readonly client: string;
	readonly session?: number;
	/** `openDiff`, or the vault tool (`edit_note`, `create_note`…). */
	readonly tool: string;
}

/** One `openDiff` request waiting for the user's decision. Immutable once shown. */
export interface PendingReview {
	/** Unique per request, so a late action from a replaced view cannot decide its successor. */
	readonly id: number;
	/** The CLI's key for the diff, e.g. "✻ [Claude Code] note.md (a1b2c3) ⧉". */
	readonly tabName: string;
	/** The note the edit targets (`new_file_path`). */
	readonly target: VaultLocation;
	/** The note's current text; "" when it does not exist yet. */
	readonly originalText: string;
	/** The complete text Claude proposes. */
	readonly proposedText: string;
	/** The note does not exist yet: everything shows as added. */
	readonly isNewFile: boolean;
	/** The session (connection) that asked. */
	readonly sessionId: number;
	readonly proposer: ReviewProposer;
	readonly since: Date;
	/** Why the proposal cannot be applied, when it cannot (see `OpenDiffRequest.vaultTools`): show it, offer only Reject. */
	readonly cannotApply?: string;
	/**
	 * The proposer hears the user's reason for a rejection (the vault tools, the agent panel). An IDE client's
	 * `openDiff` does not: its answer has no place for one.
	 */
	readonly takesRejectReason?: boolean;
}

/** A rejection's `reason`: what the user wrote for Claude, as one line of at most `MAX_REJECT_REASON_CHARS`. */
export type ReviewDecision = { kind: "accept"; finalText: string } | { kind: "reject"; reason?: string };

/**
 * What the user's Accept did: the review was answered FILE_SAVED; or it was refused because the note no longer
 * is where it was when the review opened (then `reason` says why, and the review was answered with that error);
 * or nothing was pending under that name.
 */
export type AcceptOutcome = { kind: "accepted" } | { kind: "refused"; reason: string } | { kind: "not pending" };

/**
 * Where reviews are shown and decided: the Obsidian review view, or the headless host's list.
 * The manager calls these; the user's decisions come back through `DiffReviewManager.accept/reject`.
 */
export interface DiffReviewPort {
	/** Shows a review. A view that already shows this tab name is reused for the new review. */
	show(review: PendingReview): void | Promise<void>;
	/** Closes the view of this tab name, if any. Must not fail when there is none. */
	close(tabName: string): void;
	/** Tab names of the review views open now, including ones left over from an earlier run. */
	openTabNames(): string[];
	/** The CLI wrote an accepted edit: make an open note show the file's new content. Harmless if not open. */
	refresh(target: VaultLocation): void;
}

/** A summary of a pending review, for lists and status lines. */
export interface PendingReviewInfo {
	tabName: string;
	path: string;
	session: number;
	since: string;
	originalChars: number;
	proposedChars: number;
	isNewFile: boolean;
}
