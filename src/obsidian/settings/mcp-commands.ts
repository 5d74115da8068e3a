import { httpServerEntry } from "../../vault-tools/serve/headers-helper";

/** The server name Claude Code shows: tools reach the model as `mcp__obsidian__<tool>`, prompts as `/mcp__obsidian__<name>`. */
export const MCP_SERVER_NAME = "obsidian";
/** The package's command (`bin`). */
const COMMAND = "claude-code-bridge";

/** Quotes one shell argument for the platform's usual shell (PowerShell on Windows, a POSIX shell elsewhere). */
function quote(argument: string, platform: NodeJS.Platform): string {
	if (platform === "win32") return `'${argument.replace(/'/g, "''")}'`;
	return `"${argument.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

/**
 * `claude mcp add` for the stdio server (it relays to this vault's bridge while Obsidian runs, else reads the folder),
 * in the user scope: it works from any folder it is run in, where the default (local) scope holds only for that folder.
 */
export function stdioAddCommand(vaultPath: string, platform: NodeJS.Platform = process.platform): string {
	return `claude mcp add --scope user ${MCP_SERVER_NAME} -- ${COMMAND} mcp --vault ${quote(vaultPath, platform)}`;
}

/**
 * `claude mcp add-json` for the HTTP endpoint (`claude mcp add` has no option for a headers helper). The entry holds
 * no token: Claude Code runs `claude-code-bridge mcp-headers` whenever it connects and gets the token of the bridge's
 * current start. On Windows the JSON goes through stdin, since PowerShell mangles quotes inside native arguments.
 */
export function httpAddCommand(url: string, vaultPath: string, port: number, platform: NodeJS.Platform = process.platform): string {
	const json = JSON.stringify(httpServerEntry(url, [COMMAND], vaultPath, port));
	if (platform === "win32") return `${quote(json, platform)} | claude mcp add-json ${MCP_SERVER_NAME} -`;
	return `claude mcp add-json ${MCP_SERVER_NAME} '${json.replace(/'/g, "'\\''")}'`;
}

/** `{"mcpServers":{"obsidian":{…}}}` for `.mcp.json` or `claude --mcp-config`. */
export function stdioConfigJson(vaultPath: string): string {
	return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { type: "stdio", command: COMMAND, args: ["mcp", "--vault", vaultPath] } } });
}

export function httpConfigJson(url: string, vaultPath: string, port: number): string {
	return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: httpServerEntry(url, [COMMAND], vaultPath, port) } });
}
