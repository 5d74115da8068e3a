import type { VaultLocation } from "../vault/vault-paths";

/**
 * The one model of a proposed edit waiting for the user, for every proposer (the IDE's `openDiff`, the vault tools,
 * the agent panel's Edit and Write, an undo that meets a conflict), and the one model of the user's decision. No
 * wire strings: how a decision is told to an IDE client is the IDE's `openDiff` tool's business.
 */

/** Which surface proposes: the IDE channel's `openDiff`, Claude's vault tools, the agent panel, or the journal's undo. */
export type ProposingSurface = "ide" | "vault-tools" | "panel" | "undo";

/** Who proposes an edit: the surface, the client program, its session (shown when known), and the tool it called. */
export interface ReviewProposer {
	readonly surface: ProposingSurface;
	readonly client: string;
	/** The IDE connection that asked (`openDiff` only): the CLI's `closeAllDiffTabs` closes that session's reviews. */
	readonly session?: number;
	/** `openDiff`, the vault tool (`edit_note`, `create_note`…), or the panel's tool (`Edit`, `Write`…). */
	readonly tool: string;
}

/**
 * An edit proposed for review. The proposer read the note once (`before`) and judged it by the vault's privacy
 * boundary before proposing (a private note is never read, its edit never shown unless `cannotApply` says why it
 * cannot be applied); the review reads nothing, and at Accept re-checks only where the note's path leads.
 */
export interface EditProposal {
	/** The note's vault path. */
	readonly note: string;
	/** The note's text as the proposer read it, the base its write compares with; undefined for a new note. */
	readonly before: string | undefined;
	/** The complete text proposed. */
	readonly after: string;
	readonly proposer: ReviewProposer;
	/** The review's name among the pending ones (the IDE's tab name): a new proposal under a pending name replaces it. */
	readonly title: string;
	/** Why the proposal cannot be applied whatever the user decides: shown, and only Reject is offered. */
	readonly cannotApply?: string;
	/** The proposer hears the user's reason for a rejection (an IDE client's `openDiff` answer has no place for one). */
	readonly hearsReason: boolean;
	/** Aborted when the proposer gives up (the call cancelled, its client gone, the turn interrupted): withdrawn. */
	readonly signal: AbortSignal;
}

/**
 * The user's decision on a proposal: accepted with the text to write (`edited`: the user changed the proposal), or
 * rejected (with their reason, one line, when they gave one and the proposer hears it); or withdrawn (the proposer
 * gave up first); or failed: no decision can be carried out (the review could not be shown, review was turned off,
 * too many were pending, or the note's path changed under an Accept), with the reason.
 */
export type ReviewDecision =
	| { kind: "accepted"; text: string; edited: boolean }
	| { kind: "rejected"; reason?: string }
	| { kind: "withdrawn" }
	| { kind: "failed"; reason: string };

/** Where proposals are put to the user: the pending reviews, or a stand-in (review off, a test). */
export interface EditReview {
	propose(proposal: EditProposal): Promise<ReviewDecision>;
}

/** Review off: every proposal is accepted as proposed. */
export const ACCEPT_WITHOUT_REVIEW: EditReview = {
	propose: (proposal) => Promise.resolve({ kind: "accepted", text: proposal.after, edited: false }),
};

/** A proposal as the review view shows it, in the proposal's names. Immutable once shown. */
export interface PendingReview {
	/** Unique per proposal, so a late action from a replaced view cannot decide its successor. */
	readonly id: number;
	/** The proposal's title (the IDE's tab name, e.g. "✻ [Claude Code] note.md (a1b2c3) ⧉"). */
	readonly title: string;
	/** Where the proposal's note was when the review opened. */
	readonly note: VaultLocation;
	/** The proposal's `before`; "" for a new note. */
	readonly before: string;
	/** The proposal's `after`. */
	readonly after: string;
	/** The note does not exist yet: everything shows as added. */
	readonly isNewFile: boolean;
	/** The session the review is filed under: the IDE connection; 0 for the vault tools, -1 for the panel. */
	readonly sessionId: number;
	readonly proposer: ReviewProposer;
	readonly since: Date;
	readonly cannotApply?: string;
	readonly hearsReason?: boolean;
}

/**
 * What the user's Accept did: the proposal was accepted; or it was refused because the note no longer is where it
 * was when the review opened (then `reason` says why, and the proposer's decision failed); or nothing was pending
 * under that name.
 */
export type AcceptOutcome = { kind: "accepted" } | { kind: "refused"; reason: string } | { kind: "not pending" };

/**
 * Where reviews are shown and decided: the Obsidian review view, or the headless host's list. The pending reviews
 * call these; the user's decisions come back through `PendingReviews.accept/reject`.
 */
export interface DiffReviewPort {
	/** Shows a review. A view that already shows this title is reused for the new review. */
	show(review: PendingReview): void | Promise<void>;
	/** Closes the view of this title, if any. Must not fail when there is none. */
	close(title: string): void;
	/** Titles of the review views open now, including ones left over from an earlier run. */
	openTitles(): string[];
	/** An accepted edit was written: make an open note show the file's new content. Harmless if not open. */
	refresh(note: VaultLocation): void;
}

/** A summary of a pending review, for lists and status lines. */
export interface PendingReviewInfo {
	title: string;
	note: string;
	session: number;
	since: string;
	beforeChars: number;
	afterChars: number;
	isNewFile: boolean;
}
