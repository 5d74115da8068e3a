/** The server name Claude Code shows: tools reach the model as `mcp__obsidian__<tool>`, prompts as `/mcp__obsidian__<name>`. */
export const MCP_SERVER_NAME = "obsidian";
/** The package's command (`bin`). */
const COMMAND = "claude-code-bridge";

/** Quotes one shell argument for the platform's usual shell (PowerShell on Windows, a POSIX shell elsewhere). */
function quote(argument: string, platform: NodeJS.Platform): string {
	if (platform === "win32") return `'${argument.replace(/'/g, "''")}'`;
	return `"${argument.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

/** `claude mcp add` for the stdio server (it relays to this vault's bridge while Obsidian runs, else reads the folder). */
export function stdioAddCommand(vaultPath: string, platform: NodeJS.Platform = process.platform): string {
	return `claude mcp add ${MCP_SERVER_NAME} -- ${COMMAND} mcp --vault ${quote(vaultPath, platform)}`;
}

/** `claude mcp add` for the HTTP endpoint, with its bearer token. */
export function httpAddCommand(url: string, token: string, platform: NodeJS.Platform = process.platform): string {
	return `claude mcp add --transport http ${MCP_SERVER_NAME} ${url} --header ${quote(`Authorization: Bearer ${token}`, platform)}`;
}

/** `{"mcpServers":{"obsidian":{…}}}` for `.mcp.json` or `claude --mcp-config`. */
export function stdioConfigJson(vaultPath: string): string {
	return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { type: "stdio", command: COMMAND, args: ["mcp", "--vault", vaultPath] } } });
}

export function httpConfigJson(url: string, token: string): string {
	return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { type: "http", url, headers: { Authorization: `Bearer ${token}` } } } });
}

/** The token as the settings tab shows it: enough to tell tokens apart, not enough to use. */
export function maskToken(text: string, token: string): string {
	return text.split(token).join(`${token.slice(0, 4)}…`);
}
