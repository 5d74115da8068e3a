import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { VaultPaths } from "../../vault/vault-paths";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { answeringArgumentErrors } from "../../protocol/tool-arguments";
import { FILE_PATH_ONLY_SCHEMA, requiredVaultPath } from "./vault-argument";

const NAME = "checkDocumentDirty";

/** `checkDocumentDirty`: whether an open note has changes not yet written to disk. */
export function createCheckDocumentDirtyTool(deps: { paths: VaultPaths; workspace: WorkspacePort }): ToolDefinition {
	return {
		name: NAME,
		description:
			"Whether an open note has changes not yet saved to disk (Obsidian saves notes automatically within seconds).",
		inputSchema: FILE_PATH_ONLY_SCHEMA,
		call: (args: JsonObject): Promise<ToolResult> =>
			answeringArgumentErrors(async () => {
				const target = requiredVaultPath(deps.paths, args, "filePath", NAME);
				const isDirty = await deps.workspace.isDirty(target);
				if (isDirty === undefined)
					return jsonResult({ success: false, message: `Document not open: ${target.absolute}` });
				return jsonResult({ success: true, filePath: target.absolute, isDirty, isUntitled: false });
			}),
	};
}
