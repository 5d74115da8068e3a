import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { VaultPaths } from "../../vault/vault-paths";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { answeringArgumentErrors } from "../../protocol/tool-arguments";
import { FILE_PATH_ONLY_SCHEMA, requiredVaultPath } from "./vault-argument";

/** `checkDocumentDirty`: whether an open note has changes not yet written to disk. */
export class CheckDocumentDirtyTool implements ToolDefinition {
	readonly name = "checkDocumentDirty";
	readonly description =
		"Whether an open note has changes not yet saved to disk (Obsidian saves notes automatically within seconds).";
	readonly inputSchema = FILE_PATH_ONLY_SCHEMA;

	constructor(
		private readonly paths: VaultPaths,
		private readonly workspace: WorkspacePort,
	) {}

	call(args: JsonObject): Promise<ToolResult> {
		return answeringArgumentErrors(async () => {
			const target = requiredVaultPath(this.paths, args, "filePath", this.name);
			const isDirty = await this.workspace.isDirty(target);
			if (isDirty === undefined)
				return jsonResult({ success: false, message: `Document not open: ${target.absolute}` });
			return jsonResult({ success: true, filePath: target.absolute, isDirty, isUntitled: false });
		});
	}
}
