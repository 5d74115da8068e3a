/**
 * The command line of a panel session (CLI 2.1.330): print mode with stream-json both ways, partial messages for
 * streaming, permission prompts over the control channel (`--permission-prompt-tool stdio`, a hidden flag, the
 * one the Agent SDK passes), and one `sdk` MCP entry per in-process server, which the CLI reaches through
 * `mcp_message` control requests.
 */
import type { AgentSessionOptions } from "./agent-session";

export function cliArguments(options: AgentSessionOptions, inProcessServers: readonly string[]): string[] {
	const args = [
		"-p",
		"--input-format", "stream-json",
		"--output-format", "stream-json",
		"--verbose",
		"--include-partial-messages",
		"--permission-prompt-tool", "stdio",
		"--permission-mode", options.permissionMode,
	];
	if (options.model !== undefined) args.push("--model", options.model);
	if (options.resume !== undefined) args.push("--resume", options.resume);
	if (inProcessServers.length > 0) {
		const mcpServers = Object.fromEntries(inProcessServers.map((name) => [name, { type: "sdk", name }]));
		args.push("--mcp-config", JSON.stringify({ mcpServers }));
	}
	return args;
}
