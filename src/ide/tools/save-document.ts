import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import { describeError } from "../../shared/describe-error";
import type { VaultPaths } from "../../vault/vault-paths";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { answeringArgumentErrors } from "../../protocol/tool-arguments";
import { FILE_PATH_ONLY_SCHEMA, requiredVaultPath } from "./vault-argument";

/** `saveDocument`: writes an open note's pending changes to disk now. */
export class SaveDocumentTool implements ToolDefinition {
	readonly name = "saveDocument";
	readonly description = "Save an open note to disk now instead of waiting for Obsidian's automatic save.";
	readonly inputSchema = FILE_PATH_ONLY_SCHEMA;

	constructor(
		private readonly paths: VaultPaths,
		private readonly workspace: WorkspacePort,
	) {}

	call(args: JsonObject): Promise<ToolResult> {
		return answeringArgumentErrors(async () => {
			const target = requiredVaultPath(this.paths, args, "filePath", this.name);
			let saved: boolean;
			try {
				saved = await this.workspace.save(target);
			} catch (error) {
				return jsonResult({
					success: false,
					message: `Could not save ${target.absolute}: ${describeError(error)}`,
				});
			}
			if (!saved) return jsonResult({ success: false, message: `Document not open: ${target.absolute}` });
			const message = this.workspace.headlessNote
				? `Document saved successfully (${this.workspace.headlessNote})`
				: "Document saved successfully";
			return jsonResult({ success: true, filePath: target.absolute, saved: true, message });
		});
	}
}
