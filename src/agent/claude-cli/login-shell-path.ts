import type { CliMachine } from "./cli-machine";

export const LOGIN_SHELL_TIMEOUT_MS = 8_000;

/** The shell a GUI app falls back to when `SHELL` is not set (macOS has used zsh by default since 10.15). */
function defaultShell(platform: string): string {
	return platform === "darwin" ? "/bin/zsh" : "/bin/sh";
}

/**
 * The PATH the user's login shell sets up, for GUI apps on macOS and Linux, which start without it (no
 * `~/.zshrc`, no nvm). Runs `$SHELL -i -l -c` once; the PATH is printed by `printenv` between two random
 * markers, so whatever the profile prints (greetings, update notices, `nvm` chatter) is ignored, and no shell
 * syntax beyond `;` is needed (bash, zsh, fish, nushell alike). Undefined on Windows, or when the shell fails,
 * takes longer than the time limit or prints no markers.
 */
export async function readLoginShellPath(
	machine: CliMachine,
	timeoutMs: number = LOGIN_SHELL_TIMEOUT_MS,
	marker: string = randomMarker(),
): Promise<string[] | undefined> {
	if (machine.platform === "win32") return undefined;
	const shell = machine.env["SHELL"] || defaultShell(machine.platform);
	const start = `${marker}_START`;
	const end = `${marker}_END`;
	const outcome = await machine.run(shell, ["-i", "-l", "-c", `echo ${start}; printenv PATH; echo ${end}`], {
		timeoutMs,
	});
	if (outcome.timedOut || outcome.startError !== undefined) return undefined;
	return pathBetweenMarkers(outcome.stdout, start, end);
}

/** The PATH entries printed on the lines between the markers (absolute folders only, first occurrence kept). */
export function pathBetweenMarkers(stdout: string, start: string, end: string): string[] | undefined {
	const lines = stdout.split(/\r?\n/);
	const from = lines.findIndex((line) => line.trim() === start);
	const to = lines.findIndex((line, index) => index > from && line.trim() === end);
	if (from < 0 || to < 0) return undefined;
	const entries = lines
		.slice(from + 1, to)
		.join(":")
		.split(":")
		.map((entry) => entry.trim());
	return [...new Set(entries.filter((entry) => entry.startsWith("/")))];
}

function randomMarker(): string {
	return `CCB_PATH_${Math.random().toString(36).slice(2, 10)}`;
}
