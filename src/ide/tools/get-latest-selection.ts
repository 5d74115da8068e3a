import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { SelectionSnapshot } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getLatestSelection`: the last selection made in any note, even after focus moved elsewhere. */
export class GetLatestSelectionTool implements ToolDefinition {
	readonly name = "getLatestSelection";
	readonly description = "The most recent selection made in a note, even if that note is no longer active.";
	readonly inputSchema: JsonObject = NO_ARGUMENTS_SCHEMA;

	constructor(private readonly latestSelection: () => SelectionSnapshot | undefined) {}

	call(): Promise<ToolResult> {
		const snapshot = this.latestSelection();
		return Promise.resolve(
			snapshot
				? jsonResult({ success: true, ...snapshot })
				: jsonResult({ success: false, message: "No selection available" }),
		);
	}
}
