import { pathToFileURL } from "node:url";
import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import { languageIdFor } from "../workspace/language-id";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getOpenEditors`: the notes open in the workspace. */
export class GetOpenEditorsTool implements ToolDefinition {
	readonly name = "getOpenEditors";
	readonly description = "The notes open in Obsidian: file URI, whether active, label, language and unsaved changes.";
	readonly inputSchema: JsonObject = NO_ARGUMENTS_SCHEMA;

	constructor(private readonly workspace: WorkspacePort) {}

	async call(): Promise<ToolResult> {
		const tabs = await Promise.all(
			this.workspace.openEditors().map(async (editor) => ({
				uri: pathToFileURL(editor.location.absolute).href,
				fileName: editor.location.absolute,
				isActive: editor.isActive,
				label: editor.location.relative.split("/").pop() ?? editor.location.relative,
				languageId: languageIdFor(editor.location.relative),
				isDirty: (await this.workspace.isDirty(editor.location)) ?? false,
				isUntitled: false,
				...(editor.lineCount !== undefined ? { lineCount: editor.lineCount } : {}),
			})),
		);
		return jsonResult(this.workspace.headlessNote ? { tabs, note: this.workspace.headlessNote } : { tabs });
	}
}
