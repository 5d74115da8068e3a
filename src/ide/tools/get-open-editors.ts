import { pathToFileURL } from "node:url";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import { languageIdFor } from "../workspace/language-id";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getOpenEditors`: the notes open in the workspace. */
export function createGetOpenEditorsTool(deps: { workspace: WorkspacePort }): ToolDefinition {
	const { workspace } = deps;
	return {
		name: "getOpenEditors",
		description: "The notes open in Obsidian: file URI, whether active, label, language and unsaved changes.",
		inputSchema: NO_ARGUMENTS_SCHEMA,
		call: async (): Promise<ToolResult> => {
			const tabs = await Promise.all(
				workspace.openEditors().map(async (editor) => ({
					uri: pathToFileURL(editor.location.absolute).href,
					fileName: editor.location.absolute,
					isActive: editor.isActive,
					label: editor.location.relative.split("/").pop() ?? editor.location.relative,
					languageId: languageIdFor(editor.location.relative),
					isDirty: (await workspace.isDirty(editor.location)) ?? false,
					isUntitled: false,
					...(editor.lineCount !== undefined ? { lineCount: editor.lineCount } : {}),
				})),
			);
			return jsonResult(workspace.headlessNote ? { tabs, note: workspace.headlessNote } : { tabs });
		},
	};
}
