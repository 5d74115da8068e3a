import type { JsonObject } from "../../protocol/json-rpc";
import { textResult, type ToolDefinition, type ToolResult } from "../../protocol/mcp-types";
import type { PendingReviews } from "../../review/pending-reviews";
import { answeringArgumentErrors, requiredString } from "../../protocol/tool-arguments";

/** `close_tab`: the CLI is done with a review (decided here, in the terminal, or abandoned). */
export class CloseTabTool implements ToolDefinition {
	readonly name = "close_tab";
	readonly description =
		"Close the review view opened by openDiff for this tab name. A review still waiting for a decision is rejected.";
	readonly inputSchema: JsonObject = {
		type: "object",
		properties: { tab_name: { type: "string", description: "The tab_name given to openDiff" } },
		required: ["tab_name"],
		additionalProperties: false,
	};

	constructor(private readonly reviews: PendingReviews) {}

	call(args: JsonObject): Promise<ToolResult> {
		return answeringArgumentErrors(() => {
			this.reviews.closeTab(requiredString(args, "tab_name", this.name));
			return textResult("TAB_CLOSED");
		});
	}
}
