import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import { describeError } from "../../shared/describe-error";
import type { VaultPaths } from "../../vault/vault-paths";
import type { WorkspacePort } from "../workspace/workspace-port";
import { jsonResult } from "./json-result";
import { answeringArgumentErrors } from "../../protocol/tool-arguments";
import { FILE_PATH_ONLY_SCHEMA, requiredVaultPath } from "./vault-argument";

const NAME = "saveDocument";

/** `saveDocument`: writes an open note's pending changes to disk now. */
export function createSaveDocumentTool(deps: { paths: VaultPaths; workspace: WorkspacePort }): ToolDefinition {
	const { paths, workspace } = deps;
	return {
		name: NAME,
		description: "Save an open note to disk now instead of waiting for Obsidian's automatic save.",
		inputSchema: FILE_PATH_ONLY_SCHEMA,
		call: (args: JsonObject): Promise<ToolResult> =>
			answeringArgumentErrors(async () => {
				const target = requiredVaultPath(paths, args, "filePath", NAME);
				let saved: boolean;
				try {
					saved = await workspace.save(target);
				} catch (error) {
					return jsonResult({
						success: false,
						message: `Could not save ${target.absolute}: ${describeError(error)}`,
					});
				}
				if (!saved) return jsonResult({ success: false, message: `Document not open: ${target.absolute}` });
				const message = workspace.headlessNote
					? `Document saved successfully (${workspace.headlessNote})`
					: "Document saved successfully";
				return jsonResult({ success: true, filePath: target.absolute, saved: true, message });
			}),
	};
}
