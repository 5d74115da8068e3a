/**
 * How to start the Claude Code that was found, and the exact program and arguments for one run of it.
 *
 * Windows needs care with npm's `claude.cmd`: since CVE-2024-27980 (BatBadBut) Node refuses to start a `.cmd`
 * without a shell (EINVAL), and with `shell: true` Node builds a `cmd.exe` line in which `%` and `"` in an
 * argument are not escaped. So the locator first reads the shim and starts what it calls (a `claude.exe`, or
 * `node` with the CLI's script), which needs no `cmd.exe` at all. Only a shim in a format we cannot read is run
 * through `cmd.exe /d /s /v:off /c "…"`: `/d` skips the user's AutoRun commands, `/v:off` turns off `!`
 * expansion, `/s` keeps the one outer pair of quotes we add, and every part is quoted by us. Parts with a
 * character `cmd.exe` would still act on inside quotes (`"`, `%`, `!`, `^`, line breaks), or an argument
 * ending in a backslash (it would escape the closing quote for the program), are refused instead of run.
 */

export type ClaudeLaunch =
	/** A program started directly: `claude` / `claude.exe`, or `node` with the CLI's script as its first argument. */
	| { kind: "direct"; command: string; args: readonly string[] }
	/** A `.cmd` shim of a format we could not read, run through `cmd.exe` (see above). */
	| { kind: "cmd-shim"; comSpec: string; shim: string };

/** What to hand to `spawn`/`execFile`: the program, its arguments, and Node's `windowsVerbatimArguments`. */
export interface LaunchCommand {
	command: string;
	args: string[];
	verbatimArguments: boolean;
}

const UNSAFE_FOR_CMD = /["%!^\r\n\0]/;

/** The program and arguments that run Claude Code with `claudeArgs`, or why they cannot be run safely. */
export function launchCommand(
	launch: ClaudeLaunch,
	claudeArgs: readonly string[],
): LaunchCommand | { refused: string } {
	if (launch.kind === "direct")
		return { command: launch.command, args: [...launch.args, ...claudeArgs], verbatimArguments: false };
	const parts = [launch.shim, ...claudeArgs];
	const unsafe = parts.find((part) => UNSAFE_FOR_CMD.test(part) || (part !== launch.shim && part.endsWith("\\")));
	if (unsafe !== undefined) {
		return {
			refused: `cannot pass ${JSON.stringify(unsafe)} safely through cmd.exe to ${launch.shim}; set the path of claude.exe in the settings instead`,
		};
	}
	const line = parts.map((part) => `"${part}"`).join(" ");
	return { command: launch.comSpec, args: ["/d", "/s", "/v:off", "/c", `"${line}"`], verbatimArguments: true };
}

/** A short human form of a launch, for messages and the doctor. */
export function describeLaunch(launch: ClaudeLaunch): string {
	return launch.kind === "direct" ? [launch.command, ...launch.args].join(" ") : `${launch.shim} (through cmd.exe)`;
}
