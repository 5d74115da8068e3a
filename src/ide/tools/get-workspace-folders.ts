import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { VaultPaths } from "../../vault/vault-paths";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getWorkspaceFolders`: the vault is the one workspace folder. */
export function createGetWorkspaceFoldersTool(deps: {
	paths: VaultPaths;
	/** The vault's name as reported; default: the vault folder's name. */
	vaultName?: string;
}): ToolDefinition {
	const vaultName = deps.vaultName ?? basename(deps.paths.root);
	return {
		name: "getWorkspaceFolders",
		description: "The workspace folders: the vault's folder.",
		inputSchema: NO_ARGUMENTS_SCHEMA,
		call: (): Promise<ToolResult> => {
			const root = deps.paths.root;
			return Promise.resolve(
				jsonResult({
					success: true,
					folders: [{ name: vaultName, uri: pathToFileURL(root).href, path: root }],
					rootPath: root,
				}),
			);
		},
	};
}
