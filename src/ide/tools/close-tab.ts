import type { JsonObject } from "../../protocol/json-rpc";
import { textResult, type ToolDefinition, type ToolResult } from "../../protocol/mcp-types";
import type { PendingReviews } from "../../review/pending-reviews";
import { answeringArgumentErrors, requiredString } from "../../protocol/tool-arguments";

const NAME = "close_tab";

const INPUT_SCHEMA: JsonObject = {
	type: "object",
	properties: { tab_name: { type: "string", description: "The tab_name given to openDiff" } },
	required: ["tab_name"],
	additionalProperties: false,
};

/** `close_tab`: the CLI is done with a review (decided here, in the terminal, or abandoned). */
export function createCloseTabTool(reviews: PendingReviews): ToolDefinition {
	return {
		name: NAME,
		description:
			"Close the review view opened by openDiff for this tab name. A review still waiting for a decision is rejected.",
		inputSchema: INPUT_SCHEMA,
		call: (args: JsonObject): Promise<ToolResult> =>
			answeringArgumentErrors(() => {
				reviews.closeTab(requiredString(args, "tab_name", NAME));
				return textResult("TAB_CLOSED");
			}),
	};
}
