/**
 * How a panel session's Claude Code is fenced in, decided by the panel before the CLI starts: whether the vault's
 * own Claude Code configuration may load (a vault may hold files others wrote), and the settings the panel hands the
 * CLI on its command line (its sandbox for shell commands, the deny rules for private places).
 */
export interface SessionGuard {
	/**
	 * The user trusted this vault's own Claude Code configuration on this device: its `.claude/settings*.json`
	 * (hooks, helpers, `env`, plugins), its `.mcp.json` servers and its CLAUDE.md. Untrusted, the CLI loads only the
	 * user's own settings and no MCP server but the panel's.
	 */
	projectConfigTrusted: boolean;
	/** Shell commands run in the CLI's sandbox with these places held out (absolute paths); absent: no sandbox. */
	sandbox?: ShellSandbox;
	/** Claude Code permission rules that deny (`Read(//abs/Secret/**)`), handed over with the other settings. */
	denyRules?: readonly string[];
}

export interface ShellSandbox {
	/** Folders and files no shell command may read: private folders and notes, the config folder. */
	denyRead: readonly string[];
	/** Places no shell command may write: the same, and the config folder (other plugins' code lives there). */
	denyWrite: readonly string[];
}

/** The guard of a session nothing is known about yet: nothing of the vault's configuration is trusted, no sandbox. */
export const UNTRUSTED_GUARD: SessionGuard = { projectConfigTrusted: false };

/** The settings JSON the CLI gets with `--settings`, or undefined when there is nothing to hand over. */
export function guardSettings(guard: SessionGuard): Record<string, unknown> | undefined {
	const settings: Record<string, unknown> = {};
	if (guard.sandbox !== undefined) {
		settings["sandbox"] = {
			enabled: true,
			// The model may not ask to run a command outside the sandbox (`dangerouslyDisableSandbox`).
			allowUnsandboxedCommands: false,
			filesystem: { denyRead: [...guard.sandbox.denyRead], denyWrite: [...guard.sandbox.denyWrite] },
		};
	}
	if (guard.denyRules !== undefined && guard.denyRules.length > 0)
		settings["permissions"] = { deny: [...guard.denyRules] };
	return Object.keys(settings).length === 0 ? undefined : settings;
}
