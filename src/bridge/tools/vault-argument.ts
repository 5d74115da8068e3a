import type { JsonObject } from "../../protocol/json-rpc";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../vault-paths";
import { ToolArgumentError, requiredString } from "./tool-arguments";

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
