/**
 * The command line of a panel session (CLI 2.1.330): print mode with stream-json both ways, partial messages for
 * streaming, permission prompts over the control channel (`--permission-prompt-tool stdio`, a hidden flag, the
 * one the Agent SDK passes), and one `sdk` MCP entry per in-process server, which the CLI reaches through
 * `mcp_message` control requests. A resumed session may go on from an earlier message (`--resume-session-at`, measured:
 * the next request carries the conversation up to that message, and the CLI keeps writing the same session's file,
 * where a later plain `--resume` goes on from the newest message) or begin a copy (`--fork-session`: a new session id
 * and file, the original's left byte for byte as it was, and resumable with all its turns).
 *
 * Print mode shows no workspace-trust dialog, so until the user trusted the vault's own Claude Code configuration
 * the CLI loads only the user's settings (`--setting-sources user`: no project or local settings, so no vault hooks,
 * helpers, `env` or plugins) and only the panel's MCP servers (`--strict-mcp-config`: no `.mcp.json`). What the panel
 * itself sets (the sandbox, deny rules) goes on the command line with `--settings`.
 *
 * A text-only session (an inline edit) gets no tool and no MCP server at all, its own system prompt, and is not
 * saved among the CLI's sessions (`--no-session-persistence`): it is no conversation to resume in the panel.
 */
import type { AgentSessionOptions } from "../agent-session";
import { guardSettings, type SessionGuard } from "./session-guard";

export function cliArguments(
	options: AgentSessionOptions,
	inProcessServers: readonly string[],
	guard: SessionGuard,
): string[] {
	const args = [
		"-p",
		"--input-format",
		"stream-json",
		"--output-format",
		"stream-json",
		"--verbose",
		"--include-partial-messages",
		"--permission-prompt-tool",
		"stdio",
		"--permission-mode",
		options.permissionMode,
	];
	if (options.model !== undefined) args.push("--model", options.model);
	if (options.resume !== undefined) {
		args.push("--resume", options.resume);
		if (options.fork === true) args.push("--fork-session");
		if (options.resumeAt !== undefined) args.push("--resume-session-at", options.resumeAt);
	}
	if (!guard.projectConfigTrusted) args.push("--setting-sources", "user", "--strict-mcp-config");
	const settings = guardSettings(guard);
	if (settings !== undefined) args.push("--settings", JSON.stringify(settings));
	const { textOnly } = options;
	if (textOnly !== undefined) {
		// No built-in tool (`--tools ""`) and no MCP server, not even the vault's own: Claude can only answer in text.
		if (guard.projectConfigTrusted) args.push("--strict-mcp-config");
		args.push("--tools", "", "--no-session-persistence", "--system-prompt", textOnly.systemPrompt);
		return args;
	}
	if (inProcessServers.length > 0) {
		const mcpServers = Object.fromEntries(inProcessServers.map((name) => [name, { type: "sdk", name }]));
		args.push("--mcp-config", JSON.stringify({ mcpServers }));
	}
	return args;
}
