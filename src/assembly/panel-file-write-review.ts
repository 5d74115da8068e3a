import type { FileWriteOutcome, FileWriteProposal, FileWriteReview } from "../agent/gate/file-write-review";
import type { DiffReviewManager } from "../ide/diff-review/diff-review-manager";

/**
 * The session id the agent panel's reviews are filed under in the DiffReviewManager: IDE connections count from 1
 * and the vault tools use 0, so neither the CLI's `closeAllDiffTabs` nor a vault-tool review touches them.
 */
export const PANEL_REVIEW_SESSION = -1;
/** How a review names who proposes a write of the panel's Claude Code. */
export const PANEL_CLIENT = "Claude Code (agent panel)";
/** The reason given when the CLI withdrew its question before the user decided. */
export const PANEL_WITHDRAWN =
	"the question was withdrawn (the turn was interrupted) before the user decided; the review was closed";
/** The reason Claude reads when the user rejects without saying why; their reason follows it when they give one. */
export const PANEL_REJECTED = "the user rejected the change in the review";

/**
 * The panel's file writes reviewed exactly like vault-tool writes and the CLI's `openDiff`: through the bridge's
 * DiffReviewManager, so the user sees the same review view (or the headless `diff accept|reject`). One tab per write.
 */
export class PanelFileWriteReview implements FileWriteReview {
	private next = 1;

	constructor(
		private readonly reviews: DiffReviewManager,
		private readonly absolutePath: (vaultPath: string) => string,
	) {}

	async review(proposal: FileWriteProposal): Promise<FileWriteOutcome> {
		const absolute = this.absolutePath(proposal.path);
		let userReason: string | undefined;
		const result = await this.reviews.open(
			{
				oldFilePath: absolute,
				newFilePath: absolute,
				newFileContents: proposal.proposed,
				tabName: `Claude Code #${this.next++}: ${proposal.proposer.tool} ${proposal.path}`,
				// The gate judged the path through the vault's privacy boundary (a new file by its folder, as the vault tools do).
				vaultTools: {},
				proposer: { client: PANEL_CLIENT, tool: proposal.proposer.tool },
			},
			{ sessionId: PANEL_REVIEW_SESSION, signal: proposal.signal ?? new AbortController().signal },
			{ onRejectReason: (reason) => (userReason = reason) },
		);
		const [first, second] = result.content;
		if (!result.isError && first?.text === "FILE_SAVED")
			return { kind: "accepted", finalText: second?.text ?? proposal.proposed };
		if (proposal.signal?.aborted === true) return { kind: "rejected", reason: PANEL_WITHDRAWN };
		if (result.isError) return { kind: "failed", reason: first?.text ?? "the review could not be completed" };
		return {
			kind: "rejected",
			reason: userReason === undefined ? PANEL_REJECTED : `${PANEL_REJECTED}: ${userReason}`,
		};
	}
}
