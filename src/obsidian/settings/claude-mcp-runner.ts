import { nodeCliMachine } from "../../agent/claude-cli/node-cli-machine";
import { claudeLauncher } from "../../agent/claude-cli/session-launcher";
import type { ClaudeRunner } from "../../vault-tools/serve/claude-mcp-add";

/** `claude mcp get` checks the server's health: Claude Code's own connect limit is 30 s; a little more here. */
const CLAUDE_MCP_TIMEOUT_MS = 60_000;

/**
 * Runs the user's own Claude Code, found the way the panel finds it (the "Claude Code executable" setting, PATH, the
 * login shell's PATH, the installers' folders; never a program inside the vault), in the vault folder: `claude mcp`
 * commands act for the folder they run in. No shell: the arguments reach Claude Code as they are.
 */
export function claudeMcpRunner(
	vaultPath: string,
	cliPath: () => string,
	env: NodeJS.ProcessEnv = process.env,
): ClaudeRunner {
	const machine = nodeCliMachine(env);
	const launcher = claudeLauncher(machine, cliPath, vaultPath);
	return async (args) => {
		const plan = await launcher(args);
		if ("failure" in plan) return { exitCode: null, stdout: "", stderr: "", failure: plan.failure };
		// The PATH the login shell sets up, when that is where Claude Code was found: its helpers need it too.
		const runner = plan.path === undefined ? machine : nodeCliMachine({ ...env, PATH: plan.path });
		const outcome = await runner.run(plan.command.command, plan.command.args, {
			timeoutMs: CLAUDE_MCP_TIMEOUT_MS,
			verbatimArguments: plan.command.verbatimArguments,
			cwd: vaultPath,
		});
		const failure =
			outcome.startError !== undefined
				? `Claude Code could not be started: ${outcome.startError}`
				: outcome.timedOut
					? "Claude Code did not answer within a minute."
					: undefined;
		return {
			exitCode: outcome.exitCode,
			stdout: outcome.stdout,
			stderr: outcome.stderr,
			...(failure !== undefined && { failure }),
		};
	};
}
