import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { HTTP_TOKEN_ENV } from "../vault-tools/serve/http-endpoint";
import { httpTokenDirectory, realPath } from "../vault-tools/serve/http-token-record";

/** Set it to give the HTTP endpoint a token of your own; it then stays the same at every start. */
export const MCP_TOKEN_ENV = HTTP_TOKEN_ENV;

/** Shortest token accepted from the environment: 128 bits in hex. */
const MIN_ENV_TOKEN_LENGTH = 32;

/** A bad `CLAUDE_CODE_BRIDGE_MCP_TOKEN`: the command says so in one line and does not start. */
export class McpTokenEnvironmentError extends Error {}

/**
 * `CLAUDE_CODE_BRIDGE_MCP_TOKEN`, checked: undefined when unset or blank, else at least 32 characters without
 * spaces (the message never repeats the value).
 */
export function tokenFromEnvironment(env: Record<string, string | undefined>): string | undefined {
	const value = env[MCP_TOKEN_ENV]?.trim();
	if (value === undefined || value === "") return undefined;
	if (value.length < MIN_ENV_TOKEN_LENGTH || /\s/.test(value))
		throw new McpTokenEnvironmentError(
			`${MCP_TOKEN_ENV} must be at least ${MIN_ENV_TOKEN_LENGTH} characters without spaces`,
		);
	return value;
}

/**
 * Removes the token file earlier versions kept for the vault (`<vault id>.token`, reused across restarts). It opens
 * nothing any more; it goes so that no long-lived secret is left behind. Never throws.
 */
export function removeLegacyTokenFile(homeDir: string, vaultPath: string): void {
	const id = createHash("sha256").update(realPath(vaultPath), "utf8").digest("hex").slice(0, 16);
	try {
		rmSync(join(httpTokenDirectory(homeDir), `${id}.token`), { force: true });
	} catch {
		// A file we cannot remove is one we could not have read either.
	}
}
