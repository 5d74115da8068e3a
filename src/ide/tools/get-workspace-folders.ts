import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../protocol/mcp-types";
import type { VaultPaths } from "../../vault/vault-paths";
import { jsonResult } from "./json-result";
import { NO_ARGUMENTS_SCHEMA } from "../../protocol/tool-arguments";

/** `getWorkspaceFolders`: the vault is the one workspace folder. */
export class GetWorkspaceFoldersTool implements ToolDefinition {
	readonly name = "getWorkspaceFolders";
	readonly description = "The workspace folders: the vault's folder.";
	readonly inputSchema: JsonObject = NO_ARGUMENTS_SCHEMA;

	constructor(
		private readonly paths: VaultPaths,
		private readonly vaultName: string = basename(paths.root),
	) {}

	call(): Promise<ToolResult> {
		const root = this.paths.root;
		return Promise.resolve(
			jsonResult({
				success: true,
				folders: [{ name: this.vaultName, uri: pathToFileURL(root).href, path: root }],
				rootPath: root,
			}),
		);
	}
}
