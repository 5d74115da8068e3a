import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getCurrentSelection`: the selection (or cursor) in the active note right now. */
export class GetCurrentSelectionTool implements ToolDefinition {
	readonly name = "getCurrentSelection";
	readonly description = "The selected text and its range in the active note (0-based lines and characters).";
	readonly inputSchema: JsonObject = NO_ARGUMENTS_SCHEMA;

	constructor(private readonly workspace: WorkspacePort) {}

	call(): Promise<ToolResult> {
		const snapshot = this.workspace.currentSelection();
		if (!snapshot) {
			const message = this.workspace.headlessNote
				? `No active editor found (${this.workspace.headlessNote})`
				: "No active editor found";
			return Promise.resolve(jsonResult({ success: false, message }));
		}
		return Promise.resolve(jsonResult({ success: true, ...snapshot }));
	}
}
