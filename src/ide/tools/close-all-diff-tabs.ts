import type { JsonObject } from "../../protocol/json-rpc";
import { textResult, type ToolCallContext, type ToolDefinition, type ToolResult } from "../../protocol/mcp-types";
import type { PendingReviews } from "../../review/pending-reviews";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `closeAllDiffTabs`: called by the CLI at the start of every turn. Touches only review views. */
export function createCloseAllDiffTabsTool(reviews: PendingReviews): ToolDefinition {
	return {
		name: "closeAllDiffTabs",
		description:
			"Close the review views this client opened with openDiff (rejecting any still pending). Notes stay open.",
		inputSchema: NO_ARGUMENTS_SCHEMA,
		call: (_args: JsonObject, context: ToolCallContext): Promise<ToolResult> =>
			Promise.resolve(textResult(`CLOSED_${reviews.closeAll(context.sessionId)}_DIFF_TABS`)),
	};
}
