import type { DiffReviewManager } from "../ide/diff-review/diff-review-manager";
import { REJECTED_BY_USER, type ProposedWrite, type ReviewOutcome, type WriteReview } from "../vault-tools/kit/ports";

/**
 * The session id vault-tool reviews are filed under in the DiffReviewManager (`diff list` shows it). IDE
 * connections count from 1, so the CLI's `closeAllDiffTabs` never closes a vault-tool review.
 */
export const VAULT_TOOLS_REVIEW_SESSION = 0;
/** How a review names who proposes a vault-tool write. */
export const VAULT_TOOLS_CLIENT = "Claude's vault tools";

/**
 * Vault-tool writes reviewed like the CLI's own edits: through the bridge's `openDiff` review (Obsidian's review
 * view, or the headless `diff accept|reject`). Tab names are unique per write, so one review never replaces
 * another. A call that is cancelled or whose client went away withdraws its review.
 */
export class DiffReviewWriteReview implements WriteReview {
	private next = 1;

	constructor(
		private readonly reviews: DiffReviewManager,
		private readonly absolutePath: (vaultPath: string) => string,
	) {}

	async propose(write: ProposedWrite): Promise<ReviewOutcome> {
		const tabName = `Vault tools #${this.next++}: ${write.tool} ${write.path}`;
		const absolute = this.absolutePath(write.path);
		let userReason: string | undefined;
		const result = await this.reviews.open(
			// The vault tools judged the path with their own privacy rules; a conflict is shown to the user, never applied.
			{
				oldFilePath: absolute,
				newFilePath: absolute,
				newFileContents: write.newText,
				tabName,
				vaultTools: write.conflict === undefined ? {} : { cannotApply: write.conflict },
				// Which transport carried the call (HTTP, the stdio relay) is not known here, and their session ids name no Claude session.
				proposer: { client: VAULT_TOOLS_CLIENT, tool: write.tool },
			},
			{ sessionId: VAULT_TOOLS_REVIEW_SESSION, signal: write.signal },
			{ onRejectReason: (reason) => (userReason = reason) },
		);
		const [first, second] = result.content;
		if (!result.isError && first?.text === "FILE_SAVED")
			return { kind: "accepted", finalText: second?.text ?? write.newText };
		if (write.signal.aborted)
			return {
				kind: "rejected",
				reason: "the call was cancelled (or its client went away) before the user decided; the review was withdrawn",
			};
		if (result.isError)
			return {
				kind: "failed",
				reason: first?.text ?? "the review ended with an unknown error; nothing was written",
			};
		return {
			kind: "rejected",
			reason: userReason === undefined ? REJECTED_BY_USER : `${REJECTED_BY_USER}: ${userReason}`,
		};
	}
}
