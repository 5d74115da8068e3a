import { toolError, type ToolCallContext, type ToolResult } from "../../protocol/mcp-types";
import { describeError } from "../../shared/describe-error";
import type { VaultPrivacy } from "../../vault/privacy/vault-privacy";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../../vault/vault-paths";
import { readTextIfExists } from "./read-text-if-exists";
import { decisionResult } from "./review-results";
import type {
	AcceptOutcome,
	DiffReviewPort,
	PendingReview,
	PendingReviewInfo,
	ReviewDecision,
	ReviewProposer,
} from "./review-types";

/** More pending reviews than this from one client are refused: a runaway client cannot flood the workspace. */
export const MAX_PENDING_REVIEWS_PER_CLIENT = 20;
/** Accepted reviews remembered until the CLI closes their tab, so `close_tab` can refresh the note. */
const MAX_REMEMBERED_ACCEPTS = 100;
/** A rejection's reason is cut to this many characters: it goes into Claude's context. */
export const MAX_REJECT_REASON_CHARS = 500;

export interface OpenDiffRequest {
	oldFilePath: string;
	newFilePath: string;
	newFileContents: string;
	tabName: string;
	/**
	 * Set only by the vault tools, never from the wire. Their own privacy rules already judged the path (a new
	 * note's by its folder alone: Obsidian counts a note it does not know yet as private, which would refuse every
	 * new note), so it is not refused here. With `cannotApply`, the proposal cannot be applied, for this reason (a
	 * note Claude may not see is at the path): the user is shown the proposal and the reason, for a private note
	 * too (it is theirs); the note is not read, and the review can only be rejected.
	 */
	vaultTools?: { cannotApply?: string };
	/** Who proposes, when not the calling IDE client's `openDiff` (set by the vault tools, never from the wire). */
	proposer?: ReviewProposer;
}

export interface DiffReviewManagerOptions {
	paths: VaultPaths;
	port: DiffReviewPort;
	/**
	 * The vault's privacy boundary: private and hidden notes' edits are not reviewed in Obsidian. The assembly
	 * always gives it; without it nothing counts as private.
	 */
	privacy?: Pick<VaultPrivacy, "hides" | "isInPrivateFolder">;
	/** Reads the current note; undefined when it does not exist. Defaults to the file system. */
	readText?: (absolutePath: string) => Promise<string | undefined>;
	maxPendingPerClient?: number;
	now?: () => Date;
	/** The name an IDE client gave in `initialize` (`clientInfo.name`), for the review to say who proposes. */
	clientName?: (sessionId: number) => string | undefined;
}

/** Set by in-process proposers (the vault tools, the agent panel), never from the wire. */
export interface OpenReviewOptions {
	/**
	 * Told the user's reason when they reject with one, just before the review is answered. The `openDiff` answer
	 * itself never carries it (the CLI reads only DIFF_REJECTED and the tab name).
	 */
	onRejectReason?: (reason: string) => void;
}

interface PendingEntry {
	review: PendingReview;
	answer: (result: ToolResult) => void;
	onRejectReason: ((reason: string) => void) | undefined;
	stopWatchingSignal: () => void;
}

interface AcceptedEntry {
	target: VaultLocation;
	sessionId: number;
}

/**
 * The `openDiff` state machine: one pending review per tab name, answered exactly once with
 * `FILE_SAVED` + final text or `DIFF_REJECTED`. Anything that ends a review without an explicit
 * accept (closing its view, the CLI closing the tab, the client going away) rejects it.
 */
export class DiffReviewManager {
	private readonly pending = new Map<string, PendingEntry>();
	private readonly accepted = new Map<string, AcceptedEntry>();
	private nextId = 1;

	constructor(private readonly options: DiffReviewManagerOptions) {}

	/** Opens a review and resolves with the `openDiff` result once it is decided. */
	async open(
		request: OpenDiffRequest,
		context: ToolCallContext,
		options: OpenReviewOptions = {},
	): Promise<ToolResult> {
		let source: VaultLocation;
		let target: VaultLocation;
		try {
			source = this.options.paths.resolve(request.oldFilePath);
			target = this.options.paths.resolve(request.newFilePath);
		} catch (error) {
			if (error instanceof VaultPathError)
				return toolError(`openDiff refused: ${error.message}. Only notes inside the vault can be reviewed.`);
			throw error;
		}
		if (target.relative === "")
			return toolError("openDiff refused: the path names the vault folder itself, not a note.");
		const refusal = this.targetRefusal(request, source, target);
		if (refusal) return toolError(refusal);
		const limit = this.options.maxPendingPerClient ?? MAX_PENDING_REVIEWS_PER_CLIENT;
		if (this.pendingCountFor(context.sessionId, request.tabName) >= limit) {
			return toolError(
				`openDiff refused: this client already has ${limit} edits waiting for review. Accept or reject some in Obsidian first.`,
			);
		}
		let current: string | undefined;
		try {
			if (request.vaultTools?.cannotApply === undefined)
				current = await (this.options.readText ?? readTextIfExists)(source.absolute);
		} catch (error) {
			return toolError(`openDiff could not read ${source.relative}: ${describeError(error)}`);
		}
		if (context.signal.aborted) return decisionResult({ kind: "reject" }, request.tabName);
		const review: PendingReview = {
			id: this.nextId++,
			tabName: request.tabName,
			target,
			originalText: current ?? "",
			proposedText: request.newFileContents,
			isNewFile: current === undefined,
			sessionId: context.sessionId,
			proposer: request.proposer ?? {
				client: this.options.clientName?.(context.sessionId) ?? "Claude Code",
				session: context.sessionId,
				tool: "openDiff",
			},
			since: (this.options.now ?? (() => new Date()))(),
			takesRejectReason: options.onRejectReason !== undefined,
			...(request.vaultTools?.cannotApply !== undefined ? { cannotApply: request.vaultTools.cannotApply } : {}),
		};
		const previous = this.pending.get(review.tabName);
		// The view is reused for the new review, so only the old request is answered.
		if (previous) this.settle(previous, { kind: "reject" }, false);
		return new Promise<ToolResult>((resolve) =>
			this.track(review, context.signal, resolve, options.onRejectReason),
		);
	}

	/**
	 * An error answer leaves the decision to the CLI's terminal prompt. Claude Code sends the same path twice; a
	 * review of one note's text for a change written to another would show the user a diff of the wrong file, so
	 * two different notes are refused rather than shown. A private or hidden note is refused whatever the reason
	 * and whether it exists, so the answer does not tell a private folder from the config folder.
	 */
	private targetRefusal(request: OpenDiffRequest, source: VaultLocation, target: VaultLocation): string | undefined {
		const identity = (location: VaultLocation): string =>
			this.options.paths.identity.key(location.realRelative ?? location.relative);
		if (identity(source) !== identity(target)) {
			return `openDiff refused: old_file_path (${request.oldFilePath}) and new_file_path (${request.newFilePath}) name different files; Obsidian reviews an edit of one note in place. Answer in the terminal.`;
		}
		const privacy = this.options.privacy;
		if (privacy && request.vaultTools === undefined && (privacy.hides(source) || privacy.hides(target))) {
			return `openDiff refused: ${request.newFilePath} is private or hidden (the bridge's privacy settings), so its edit is not shown in Obsidian. Answer in the terminal.`;
		}
		return undefined;
	}

	/**
	 * The user accepted; `finalText` is the possibly edited proposal. Whoever writes it (the CLI on FILE_SAVED, or
	 * a vault tool) writes to the note's path, so the path is resolved again first: when it no longer leads where
	 * it led when the review opened (a folder on the way replaced by a link, leading out of the vault or elsewhere
	 * in it) or is now private or hidden, the review is answered with an error instead, and nothing is saved.
	 */
	accept(tabName: string, finalText?: string, reviewId?: number): AcceptOutcome {
		const entry = this.find(tabName, reviewId);
		if (!entry) return { kind: "not pending" };
		if (entry.review.cannotApply !== undefined) {
			// A proposal that could never be applied (a hidden note holds the path) is answered as a rejection.
			const reason = entry.review.cannotApply;
			this.settle(entry, { kind: "reject" }, true);
			return { kind: "refused", reason };
		}
		const moved = this.targetMoved(entry.review);
		if (moved !== undefined) {
			const reason = `${entry.review.target.relative} was not saved: ${moved} after the review opened`;
			this.remove(entry);
			this.options.port.close(entry.review.tabName);
			entry.answer(toolError(`${reason}; nothing was written.`));
			return { kind: "refused", reason };
		}
		this.settle(entry, { kind: "accept", finalText: finalText ?? entry.review.proposedText }, true);
		return { kind: "accepted" };
	}

	/** How the reviewed note's path changed: it no longer leads where it led when the review opened. */
	private targetMoved(review: PendingReview): string | undefined {
		let now: VaultLocation;
		try {
			now = this.options.paths.resolve(review.target.absolute);
		} catch (error) {
			if (error instanceof VaultPathError)
				return "a folder on its path was replaced by a link leading out of the vault";
			throw error;
		}
		const identity = (location: VaultLocation): string =>
			this.options.paths.identity.key(location.realRelative ?? location.relative);
		if (identity(now) !== identity(review.target))
			return "a folder on its path was replaced by a link leading elsewhere in the vault";
		if (this.hidesNow(review, now)) return "its path came to lead to a private or hidden place";
		return undefined;
	}

	/**
	 * Whether the note the review writes is private or hidden now. A new note is judged by its folder alone, as when
	 * the review opened: its tags are not known until it is written (Obsidian counts a note it has not parsed as
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
	 * The user rejected, perhaps saying why: the reason (made one line, cut to `MAX_REJECT_REASON_CHARS`) goes to
	 * whoever opened the review with `onRejectReason`. False when nothing is pending there.
	 */
	reject(tabName: string, reviewId?: number, reason?: string): boolean {
		const entry = this.find(tabName, reviewId);
		if (!entry) return false;
		const line = reason === undefined ? "" : oneLineReason(reason);
		this.settle(entry, line === "" ? { kind: "reject" } : { kind: "reject", reason: line }, true);
		return true;
	}

	/** The review's view was closed by the user or the app: that is a rejection. */
	viewClosed(tabName: string, reviewId: number): void {
		const entry = this.find(tabName, reviewId);
		if (entry) this.settle(entry, { kind: "reject" }, false);
	}

	/** `close_tab`: rejects a still-pending review, closes its view, and refreshes the note after an accept. */
	closeTab(tabName: string): void {
		const entry = this.pending.get(tabName);
		if (entry) this.settle(entry, { kind: "reject" }, true);
		else this.options.port.close(tabName);
		const accepted = this.accepted.get(tabName);
		if (accepted) {
			this.accepted.delete(tabName);
			this.options.port.refresh(accepted.target);
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
			this.settle(entry, { kind: "reject" }, true);
			closed++;
		}
		for (const tabName of this.options.port.openTabNames()) {
			if (this.pending.has(tabName)) continue;
			this.options.port.close(tabName);
			closed++;
		}
		for (const [tabName, accepted] of this.accepted) {
			if (accepted.sessionId === sessionId) this.accepted.delete(tabName);
		}
		return closed;
	}

	/** The pending review of this tab name, or the only one when no name is given. */
	findPending(tabName?: string): PendingReview | undefined {
		if (tabName !== undefined) return this.pending.get(tabName)?.review;
		return this.pending.size === 1 ? [...this.pending.values()][0]?.review : undefined;
	}

	list(): PendingReviewInfo[] {
		return [...this.pending.values()].map(({ review }) => ({
			tabName: review.tabName,
			path: review.target.relative,
			session: review.sessionId,
			since: review.since.toISOString(),
			originalChars: review.originalText.length,
			proposedChars: review.proposedText.length,
			isNewFile: review.isNewFile,
		}));
	}

	/**
	 * Reviewing in Obsidian was turned off: pending reviews get an error answer, which leaves the
	 * decision to the CLI's own terminal prompt, and their views close.
	 */
	withdrawAll(reason: string): void {
		for (const entry of [...this.pending.values()]) {
			this.remove(entry);
			this.options.port.close(entry.review.tabName);
			entry.answer(toolError(reason));
		}
	}

	/** The bridge stops: every pending review is rejected and its view closed. */
	dispose(): void {
		for (const entry of [...this.pending.values()]) this.settle(entry, { kind: "reject" }, true);
		this.accepted.clear();
	}

	private track(
		review: PendingReview,
		signal: AbortSignal,
		answer: (result: ToolResult) => void,
		onRejectReason: ((reason: string) => void) | undefined,
	): void {
		// The client disconnected or cancelled: nobody waits for this review any more.
		const onAbort = (): void => this.settle(entry, { kind: "reject" }, true);
		const entry: PendingEntry = {
			review,
			answer,
			onRejectReason,
			stopWatchingSignal: () => signal.removeEventListener("abort", onAbort),
		};
		signal.addEventListener("abort", onAbort, { once: true });
		this.pending.set(review.tabName, entry);
		try {
			const shown = this.options.port.show(review);
			if (shown instanceof Promise) shown.catch((error: unknown) => this.failToShow(entry, error));
		} catch (error) {
			this.failToShow(entry, error);
		}
	}

	/** An error result makes the CLI fall back to its own terminal prompt. */
	private failToShow(entry: PendingEntry, error: unknown): void {
		if (this.pending.get(entry.review.tabName) !== entry) return;
		this.remove(entry);
		this.options.port.close(entry.review.tabName);
		entry.answer(
			toolError(
				`Could not show the review in Obsidian: ${describeError(error)}. Answer in the terminal instead.`,
			),
		);
	}

	private settle(entry: PendingEntry, decision: ReviewDecision, closeView: boolean): void {
		if (this.pending.get(entry.review.tabName) !== entry) return;
		this.remove(entry);
		if (decision.kind === "accept") this.rememberAccept(entry.review);
		if (closeView) this.options.port.close(entry.review.tabName);
		if (decision.kind === "reject" && decision.reason !== undefined) entry.onRejectReason?.(decision.reason);
		entry.answer(decisionResult(decision, entry.review.tabName));
	}

	private remove(entry: PendingEntry): void {
		this.pending.delete(entry.review.tabName);
		entry.stopWatchingSignal();
	}

	private rememberAccept(review: PendingReview): void {
		this.accepted.set(review.tabName, { target: review.target, sessionId: review.sessionId });
		if (this.accepted.size > MAX_REMEMBERED_ACCEPTS) {
			const oldest = this.accepted.keys().next().value;
			if (oldest !== undefined) this.accepted.delete(oldest);
		}
	}

	private find(tabName: string, reviewId: number | undefined): PendingEntry | undefined {
		const entry = this.pending.get(tabName);
		return entry && (reviewId === undefined || entry.review.id === reviewId) ? entry : undefined;
	}

	private pendingCountFor(sessionId: number, replacedTab: string): number {
		let count = 0;
		for (const entry of this.pending.values()) {
			if (entry.review.sessionId === sessionId && entry.review.tabName !== replacedTab) count++;
		}
		return count;
	}
}

/** The user's reason as one trimmed line (control characters and line breaks become spaces), cut to the limit. */
function oneLineReason(reason: string): string {
	const line = reason.replace(/[\s\p{Cc}]+/gu, " ").trim();
	const characters = [...line];
	return characters.length <= MAX_REJECT_REASON_CHARS
		? line
		: `${characters.slice(0, MAX_REJECT_REASON_CHARS - 1).join("")}…`;
}
