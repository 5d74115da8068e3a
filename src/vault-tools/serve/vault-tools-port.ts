import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";

/** Default MCP HTTP ports are taken from this range (below Linux's ephemeral ports, 32768 up). */
export const VAULT_TOOLS_PORT_RANGE = { first: 23_000, count: 5_000 } as const;

/**
 * The vault's default port for the vault tools' HTTP endpoint: derived from the vault's real path, so it is the
 * same on every start (Claude Code's configuration keeps working) and differs between vaults.
 */
export function defaultVaultToolsPort(vaultPath: string): number {
	let real = vaultPath;
	try {
		real = realpathSync.native(vaultPath);
	} catch {
		// A vault that cannot be resolved is reported elsewhere; derive from the path as given.
	}
	const digest = createHash("sha256").update(real, "utf8").digest();
	return VAULT_TOOLS_PORT_RANGE.first + (digest.readUInt32BE(0) % VAULT_TOOLS_PORT_RANGE.count);
}
