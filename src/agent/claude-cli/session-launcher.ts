import { checkClaude } from "./claude-check";
import { launchCommand, type LaunchCommand } from "./launch-command";
import type { CliMachine } from "./cli-machine";

/** What to spawn for one session, or why nothing can be: the message says what is wrong and how to fix it. */
export type LaunchPlan = { command: LaunchCommand; path?: string; warning?: string } | { failure: string };

/** Gives the engine the program to start for a session's `claude` arguments. Asked again at each session start. */
export type ClaudeLauncher = (claudeArgs: readonly string[]) => Promise<LaunchPlan>;

/**
 * Finds and checks the user's Claude Code at each session start (a changed setting or a new install counts at
 * once), and builds the exact command. Nothing in `vaultRoot` is ever run (see `LocateOptions.vaultRoot`). The login shell's PATH, when it had to be read to find the CLI, becomes
 * the session's PATH too: Claude's Bash tool needs what the user's terminal has.
 */
export function claudeLauncher(machine: CliMachine, explicitPath: () => string, vaultRoot?: string): ClaudeLauncher {
	return async (claudeArgs) => {
		const check = await checkClaude({
			machine,
			explicitPath: explicitPath(),
			...(vaultRoot !== undefined && { vaultRoot }),
		});
		if (check.status === "not-found" || check.status === "not-runnable" || check.status === "too-old")
			return { failure: `${check.message} ${check.fix}` };
		const command = launchCommand(check.location.launch, claudeArgs);
		if ("refused" in command) return { failure: `Claude Code cannot be started safely: ${command.refused}.` };
		const delimiter = machine.platform === "win32" ? ";" : ":";
		const path = check.location.loginShellPath?.join(delimiter);
		return {
			command,
			...(path !== undefined && { path }),
			...(check.status === "untested-newer" && { warning: `${check.message} ${check.fix}` }),
		};
	};
}
