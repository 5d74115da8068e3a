import type { ToolResult } from "../../protocol/mcp-types";
import type { ReviewDecision } from "./review-types";

/**
 * The `openDiff` answers the CLI understands. Never `TAB_CLOSED`: CLI 2.1.330 takes it as accepting the
 * original proposal.
 */
export function decisionResult(decision: ReviewDecision, tabName: string): ToolResult {
	if (decision.kind === "accept") {
		return {
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: decision.finalText },
			],
		};
	}
	return {
		content: [
			{ type: "text", text: "DIFF_REJECTED" },
			{ type: "text", text: tabName },
		],
	};
}
