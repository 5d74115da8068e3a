import type { JsonObject } from "../../protocol/json-rpc";
import { textResult, type ToolCallContext, type ToolDefinition, type ToolResult } from "../../protocol/mcp-types";
import type { PendingReviews } from "../../review/pending-reviews";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `closeAllDiffTabs`: called by the CLI at the start of every turn. Touches only review views. */
export class CloseAllDiffTabsTool implements ToolDefinition {
	readonly name = "closeAllDiffTabs";
	readonly description =
		"Close the review views this client opened with openDiff (rejecting any still pending). Notes stay open.";
	readonly inputSchema: JsonObject = NO_ARGUMENTS_SCHEMA;

	constructor(private readonly reviews: PendingReviews) {}

	call(_args: JsonObject, context: ToolCallContext): Promise<ToolResult> {
		return Promise.resolve(textResult(`CLOSED_${this.reviews.closeAll(context.sessionId)}_DIFF_TABS`));
	}
}
