import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getCurrentSelection`: the selection (or cursor) in the active note right now. */
export function createGetCurrentSelectionTool(deps: { workspace: WorkspacePort }): ToolDefinition {
	return {
		name: "getCurrentSelection",
		description: "The selected text and its range in the active note (0-based lines and characters).",
		inputSchema: NO_ARGUMENTS_SCHEMA,
		call: (): Promise<ToolResult> => {
			const snapshot = deps.workspace.currentSelection();
			if (!snapshot) {
				const message = deps.workspace.headlessNote
					? `No active editor found (${deps.workspace.headlessNote})`
					: "No active editor found";
				return Promise.resolve(jsonResult({ success: false, message }));
			}
			return Promise.resolve(jsonResult({ success: true, ...snapshot }));
		},
	};
}
