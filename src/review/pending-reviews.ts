import { describeError } from "../shared/describe-error";
import { lazyRegExp } from "../shared/lazy-regexp";
import type { VaultPrivacy } from "../vault/privacy/vault-privacy";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../vault/vault-paths";
import type {
	AcceptOutcome,
	DiffReviewPort,
	EditProposal,
	EditReview,
	PendingReview,
	PendingReviewInfo,
	ReviewDecision,
	ReviewProposer,
} from "./edit-proposal";

/** More pending reviews than this from one client are refused: a runaway client cannot flood the workspace. */
export const MAX_PENDING_REVIEWS_PER_CLIENT = 20;
/** Accepted reviews remembered until the CLI closes their tab, so `close_tab` can refresh the note. */
const MAX_REMEMBERED_ACCEPTS = 100;
/** A rejection's reason is cut to this many characters: it goes into Claude's context. */
export const MAX_REJECT_REASON_CHARS = 500;

export interface PendingReviewsOptions {
	paths: VaultPaths;
	port: DiffReviewPort;
	/**
	 * The vault's privacy boundary, asked again at Accept: a note whose path came to lead to a private or hidden place
	 * is not written. The assembly always gives it; without it nothing counts as private.
	 */
	privacy?: Pick<VaultPrivacy, "hides" | "isInPrivateFolder">;
	maxPendingPerClient?: number;
	now?: () => Date;
}

interface PendingEntry {
	review: PendingReview;
	decide: (decision: ReviewDecision) => void;
	stopWatchingSignal: () => void;
}

interface AcceptedEntry {
	note: VaultLocation;
	sessionId: number;
}

/**
 * Proposed edits waiting for the user, one per title, each decided exactly once. Anything that ends a review without
 * an explicit Accept (closing its view, the CLI closing the tab, a newer proposal under its title) rejects it; the
 * proposer giving up withdraws it.
 */
export class PendingReviews implements EditReview {
	private readonly pending = new Map<string, PendingEntry>();
	private readonly accepted = new Map<string, AcceptedEntry>();
	private nextId = 1;

	constructor(private readonly options: PendingReviewsOptions) {}

	/** Shows the proposal and resolves with the user's decision. */
	propose(proposal: EditProposal): Promise<ReviewDecision> {
		let note: VaultLocation;
		try {
			note = this.options.paths.resolve(this.options.paths.toAbsolute(proposal.note));
		} catch (error) {
			if (error instanceof VaultPathError) return Promise.resolve({ kind: "failed", reason: error.message });
			throw error;
		}
		const sessionId = filingSession(proposal.proposer);
		const limit = this.options.maxPendingPerClient ?? MAX_PENDING_REVIEWS_PER_CLIENT;
		if (this.pendingCountFor(sessionId, proposal.title) >= limit) {
			return Promise.resolve({
				kind: "failed",
				reason: `This client already has ${limit} edits waiting for review. Accept or reject some in Obsidian first.`,
			});
		}
		if (proposal.signal.aborted) return Promise.resolve({ kind: "withdrawn" });
		const review: PendingReview = {
			id: this.nextId++,
			title: proposal.title,
			note,
			before: proposal.before ?? "",
			after: proposal.after,
			isNewFile: proposal.before === undefined,
			sessionId,
			proposer: proposal.proposer,
			since: (this.options.now ?? (() => new Date()))(),
			hearsReason: proposal.hearsReason,
			...(proposal.cannotApply !== undefined ? { cannotApply: proposal.cannotApply } : {}),
		};
		const previous = this.pending.get(review.title);
		// The view is reused for the new review, so only the old proposal is decided.
		if (previous) this.settle(previous, { kind: "rejected" }, false);
		return new Promise<ReviewDecision>((resolve) => this.track(review, proposal.signal, resolve));
	}

	/**
	 * The user accepted; `finalText` is the possibly edited proposal. Whoever writes it writes to the note's path, so
	 * the path is resolved again first: when it no longer leads where it led when the review opened (a folder on the
	 * way replaced by a link, leading out of the vault or elsewhere in it) or is now private or hidden, the decision
	 * fails instead, and nothing is saved.
	 */
	accept(title: string, finalText?: string, reviewId?: number): AcceptOutcome {
		const entry = this.find(title, reviewId);
		if (!entry) return { kind: "not pending" };
		if (entry.review.cannotApply !== undefined) {
			// A proposal that could never be applied (a hidden note holds the path) is decided as a rejection.
			const reason = entry.review.cannotApply;
			this.settle(entry, { kind: "rejected" }, true);
			return { kind: "refused", reason };
		}
		const moved = this.noteMoved(entry.review);
		if (moved !== undefined) {
			const reason = `${entry.review.note.relative} was not saved: ${moved} after the review opened`;
			this.settle(entry, { kind: "failed", reason: `${reason}; nothing was written.` }, true);
			return { kind: "refused", reason };
		}
		const text = finalText ?? entry.review.after;
		this.settle(entry, { kind: "accepted", text, edited: text !== entry.review.after }, true);
		return { kind: "accepted" };
	}

	/** How the reviewed note's path changed: it no longer leads where it led when the review opened. */
	private noteMoved(review: PendingReview): string | undefined {
		let now: VaultLocation;
		try {
			now = this.options.paths.resolve(review.note.absolute);
		} catch (error) {
			if (error instanceof VaultPathError)
				return "a folder on its path was replaced by a link leading out of the vault";
			throw error;
		}
		const identity = (location: VaultLocation): string =>
			this.options.paths.identity.key(location.realRelative ?? location.relative);
		if (identity(now) !== identity(review.note))
			return "a folder on its path was replaced by a link leading elsewhere in the vault";
		if (this.hidesNow(review, now)) return "its path came to lead to a private or hidden place";
		return undefined;
	}

	/**
	 * Whether the note the review writes is private or hidden now. A new note is judged by its folder alone, as its
	 * proposer judged it: its tags are not known until it is written (Obsidian counts a note it has not parsed as
	 * private, which would refuse every new note while any private tag is set); the tags it is written with are judged
	 * when the write is recorded.
	 */
	private hidesNow(review: PendingReview, now: VaultLocation): boolean {
		const privacy = this.options.privacy;
		if (!privacy) return false;
		if (!review.isNewFile) return privacy.hides(now);
		return (
			privacy.isInPrivateFolder(now.relative) ||
			(now.realRelative !== undefined && privacy.isInPrivateFolder(now.realRelative))
		);
	}

	/**
	 * The user rejected, perhaps saying why: the reason (made one line, cut to `MAX_REJECT_REASON_CHARS`) goes to a
	 * proposer that hears it. False when nothing is pending there.
	 */
	reject(title: string, reviewId?: number, reason?: string): boolean {
		const entry = this.find(title, reviewId);
		if (!entry) return false;
		const line = reason === undefined || entry.review.hearsReason !== true ? "" : oneLineReason(reason);
		this.settle(entry, line === "" ? { kind: "rejected" } : { kind: "rejected", reason: line }, true);
		return true;
	}

	/** The review's view was closed by the user or the app: that is a rejection. */
	viewClosed(title: string, reviewId: number): void {
		const entry = this.find(title, reviewId);
		if (entry) this.settle(entry, { kind: "rejected" }, false);
	}

	/** `close_tab`: rejects a still-pending review, closes its view, and refreshes the note after an accept. */
	closeTab(title: string): void {
		const entry = this.pending.get(title);
		if (entry) this.settle(entry, { kind: "rejected" }, true);
		else this.options.port.close(title);
		const accepted = this.accepted.get(title);
		if (accepted) {
			this.accepted.delete(title);
			this.options.port.refresh(accepted.note);
		}
	}

	/**
	 * `closeAllDiffTabs`: closes the calling client's reviews and review views nobody waits for
	 * (left from an earlier run). Other clients' pending reviews and the user's notes are left alone.
	 */
	closeAll(sessionId: number): number {
		let closed = 0;
		for (const entry of [...this.pending.values()]) {
			if (entry.review.sessionId !== sessionId) continue;
			this.settle(entry, { kind: "rejected" }, true);
			closed++;
		}
		for (const title of this.options.port.openTitles()) {
			if (this.pending.has(title)) continue;
			this.options.port.close(title);
			closed++;
		}
		for (const [title, accepted] of this.accepted) {
			if (accepted.sessionId === sessionId) this.accepted.delete(title);
		}
		return closed;
	}

	/** The pending review of this tab name, or the only one when no name is given. */
	findPending(title?: string): PendingReview | undefined {
		if (title !== undefined) return this.pending.get(title)?.review;
		return this.pending.size === 1 ? [...this.pending.values()][0]?.review : undefined;
	}

	list(): PendingReviewInfo[] {
		return [...this.pending.values()].map(({ review }) => ({
			title: review.title,
			note: review.note.relative,
			session: review.sessionId,
			since: review.since.toISOString(),
			beforeChars: review.before.length,
			afterChars: review.after.length,
			isNewFile: review.isNewFile,
		}));
	}

	/**
	 * Reviewing in Obsidian was turned off: pending reviews fail with this reason (an IDE client then decides in its
	 * own terminal prompt), and their views close.
	 */
	withdrawAll(reason: string): void {
		for (const entry of [...this.pending.values()]) this.settle(entry, { kind: "failed", reason }, true);
	}

	/** The bridge stops: every pending review is rejected and its view closed. */
	dispose(): void {
		for (const entry of [...this.pending.values()]) this.settle(entry, { kind: "rejected" }, true);
		this.accepted.clear();
	}

	private track(review: PendingReview, signal: AbortSignal, decide: (decision: ReviewDecision) => void): void {
		// The proposer gave up (its client disconnected, the call was cancelled): nobody waits for this review any more.
		const onAbort = (): void => this.settle(entry, { kind: "withdrawn" }, true);
		const entry: PendingEntry = {
			review,
			decide,
			stopWatchingSignal: () => signal.removeEventListener("abort", onAbort),
		};
		signal.addEventListener("abort", onAbort, { once: true });
		this.pending.set(review.title, entry);
		try {
			const shown = this.options.port.show(review);
			if (shown instanceof Promise) shown.catch((error: unknown) => this.failToShow(entry, error));
		} catch (error) {
			this.failToShow(entry, error);
		}
	}

	private failToShow(entry: PendingEntry, error: unknown): void {
		const reason = `Could not show the review in Obsidian: ${describeError(error)}. Answer in the terminal instead.`;
		this.settle(entry, { kind: "failed", reason }, true);
	}

	private settle(entry: PendingEntry, decision: ReviewDecision, closeView: boolean): void {
		if (this.pending.get(entry.review.title) !== entry) return;
		this.pending.delete(entry.review.title);
		entry.stopWatchingSignal();
		if (decision.kind === "accepted") this.rememberAccept(entry.review);
		if (closeView) this.options.port.close(entry.review.title);
		entry.decide(decision);
	}

	private rememberAccept(review: PendingReview): void {
		this.accepted.set(review.title, { note: review.note, sessionId: review.sessionId });
		if (this.accepted.size > MAX_REMEMBERED_ACCEPTS) {
			const oldest = this.accepted.keys().next().value;
			if (oldest !== undefined) this.accepted.delete(oldest);
		}
	}

	private find(title: string, reviewId: number | undefined): PendingEntry | undefined {
		const entry = this.pending.get(title);
		return entry && (reviewId === undefined || entry.review.id === reviewId) ? entry : undefined;
	}

	private pendingCountFor(sessionId: number, replacedTitle: string): number {
		let count = 0;
		for (const entry of this.pending.values()) {
			if (entry.review.sessionId === sessionId && entry.review.title !== replacedTitle) count++;
		}
		return count;
	}
}

/**
 * The session a review is filed under: an IDE connection's own id (they count from 1), 0 for the vault tools and -1
 * for the panel (and undo), so the CLI's `closeAllDiffTabs` never closes theirs and each has its own cap.
 */
function filingSession(proposer: ReviewProposer): number {
	if (proposer.surface === "ide") return proposer.session ?? 0;
	return proposer.surface === "vault-tools" ? 0 : -1;
}

/** White space and control characters; made on first use (lazy-regexp.ts: a `\p{…}` literal costs plugin load). */
const SPACES_AND_CONTROLS = lazyRegExp(String.raw`[\s\p{Cc}]+`, "gu");

/** The user's reason as one trimmed line (control characters and line breaks become spaces), cut to the limit. */
function oneLineReason(reason: string): string {
	const line = reason.replace(SPACES_AND_CONTROLS(), " ").trim();
	const characters = [...line];
	return characters.length <= MAX_REJECT_REASON_CHARS
		? line
		: `${characters.slice(0, MAX_REJECT_REASON_CHARS - 1).join("")}…`;
}
