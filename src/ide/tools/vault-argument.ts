import type { JsonObject } from "../../protocol/json-rpc";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../../vault/vault-paths";
import { ToolArgumentError, requiredString } from "../../protocol/tool-arguments";

/** A required path argument resolved inside the vault; anything outside is a ToolArgumentError. */
export function requiredVaultPath(paths: VaultPaths, args: JsonObject, name: string, tool: string): VaultLocation {
	const input = requiredString(args, name, tool);
	try {
		return paths.resolve(input);
	} catch (error) {
		if (error instanceof VaultPathError) throw new ToolArgumentError(`${tool}: ${error.message}`);
		throw error;
	}
}

/** The input schema of a tool whose only argument is the note's `filePath`. */
export const FILE_PATH_ONLY_SCHEMA: JsonObject = {
	type: "object",
	properties: {
		filePath: { type: "string", description: "Path of the note (absolute, vault-relative, or file:// URI)" },
	},
	required: ["filePath"],
	additionalProperties: false,
};
