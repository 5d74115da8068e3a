import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { SelectionSnapshot } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getLatestSelection`: the last selection made in any note, even after focus moved elsewhere. */
export function createGetLatestSelectionTool(deps: {
	/** The selection tracker's last selection. */
	latestSelection: () => SelectionSnapshot | undefined;
}): ToolDefinition {
	return {
		name: "getLatestSelection",
		description: "The most recent selection made in a note, even if that note is no longer active.",
		inputSchema: NO_ARGUMENTS_SCHEMA,
		call: (): Promise<ToolResult> => {
			const snapshot = deps.latestSelection();
			return Promise.resolve(
				snapshot
					? jsonResult({ success: true, ...snapshot })
					: jsonResult({ success: false, message: "No selection available" }),
			);
		},
	};
}
