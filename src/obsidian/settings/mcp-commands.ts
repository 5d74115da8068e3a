import {
	ALLOWED_TOOLS_RULE,
	TERMINAL_NAMES,
	serverEntry,
	terminalCommand,
	terminalsOf,
	type ClaudeMcpState,
	type ConnectOutcome,
	type HttpServerEntry,
} from "../../vault-tools/serve/claude-mcp-add";

/** The entry "Connect to Claude Code" adds for this vault and port (the same one every other place prints). */
export function vaultToolsEntry(
	port: number,
	vaultPath: string,
	platform: NodeJS.Platform = process.platform,
): HttpServerEntry {
	return serverEntry(port, vaultPath, platform);
}

/** The button's command for those who prefer a terminal: one per terminal of the platform, the usual one first. */
export function terminalLines(
	entry: HttpServerEntry,
	vaultPath: string,
	platform: NodeJS.Platform = process.platform,
): { terminal: string; command: string }[] {
	return terminalsOf(platform).flatMap((shell) => {
		const command = terminalCommand(entry, vaultPath, shell);
		return command === undefined ? [] : [{ terminal: TERMINAL_NAMES[shell], command }];
	});
}

/** How to let the tools run without Claude Code asking before each one. */
export const ALLOW_WITHOUT_ASKING = `claude --allowedTools "${ALLOWED_TOOLS_RULE}"`;

/** What Claude Code has for this vault, in one or two sentences. */
export function describeState(state: ClaudeMcpState): string {
	switch (state.kind) {
		case "absent":
			return "Not connected: Claude Code does not have this vault's tools yet.";
		case "unknown":
			return `Could not ask Claude Code: ${state.message}`;
		case "present":
			if (!state.ours)
				return `Claude Code has another entry named "obsidian" (${state.scope}${state.url ? `, ${state.url}` : ""}). Connect adds this vault's own.`;
			if (state.connected) return "Connected: Claude Code started in this vault folder can use the vault tools.";
			if (state.trustMissing)
				return "Added, but not connected yet: start Claude Code once in the vault folder and answer yes when it asks whether you trust the folder. Until then it does not fetch the vault tools' key.";
			return `Added, but Claude Code could not reach Obsidian${state.issue ? `: ${state.issue}` : ""}.`;
	}
}

/** What the button did, for a notice. */
export function describeOutcome(outcome: ConnectOutcome): string {
	const state = describeState(outcome.state);
	switch (outcome.change) {
		case "added":
			return `Vault tools added to Claude Code. ${state}`;
		case "updated":
			return `Claude Code's entry for the vault tools was updated. ${state}`;
		case "already":
			return `Claude Code already had the vault tools; nothing else changed. ${state}`;
		case "failed":
			return `Could not connect: ${outcome.message ?? "Claude Code refused."}`;
	}
}
