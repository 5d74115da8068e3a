import { HTTP_SERVER_NAME, STDIO_SERVER_NAME, httpAddLine, stdioAddLine } from "../../vault-tools/serve/claude-mcp-add";
import { httpServerEntry } from "../../vault-tools/serve/headers-helper";

/** The package's command (`bin`). */
const COMMAND = "claude-code-bridge";

/**
 * `claude mcp add` for the stdio server (it relays to this vault's bridge while Obsidian runs, else reads the folder),
 * the same line the package's `mcp-config` prints: local scope, run in the vault folder.
 */
export function stdioAddCommand(vaultPath: string, platform: NodeJS.Platform = process.platform): string {
	return stdioAddLine([COMMAND], ["mcp", "--vault", vaultPath], vaultPath, platform);
}

/**
 * `claude mcp add-json` for the HTTP endpoint under its own name (`obsidian-http`). The entry holds no token: Claude
 * Code runs `claude-code-bridge mcp-headers` whenever it connects and gets the token of the bridge's current start.
 */
export function httpAddCommand(
	url: string,
	vaultPath: string,
	port: number,
	platform: NodeJS.Platform = process.platform,
): string {
	return httpAddLine(httpServerEntry(url, [COMMAND], vaultPath, port), vaultPath, platform);
}

/** `{"mcpServers":{"obsidian":{…}}}` for `.mcp.json` or `claude --mcp-config`. */
export function stdioConfigJson(vaultPath: string): string {
	return JSON.stringify({
		mcpServers: { [STDIO_SERVER_NAME]: { type: "stdio", command: COMMAND, args: ["mcp", "--vault", vaultPath] } },
	});
}

export function httpConfigJson(url: string, vaultPath: string, port: number): string {
	return JSON.stringify({ mcpServers: { [HTTP_SERVER_NAME]: httpServerEntry(url, [COMMAND], vaultPath, port) } });
}
