/**
 * Everything the search for the user's Claude Code asks of the computer: a few file checks, one folder listing
 * and running a program with a time limit. Tests hand in a fake of any platform; the plugin hands in
 * `nodeCliMachine()`.
 */

/** What a path is, as far as starting it goes. */
export type PathKind = "executable" | "not-executable" | "directory" | "missing";

/** How a program run ended. `stdout`/`stderr` hold what it wrote before it ended or was stopped. */
export interface RunOutcome {
	/** Null when the program was stopped (time limit) or never started. */
	exitCode: number | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	/** Set when the program could not be started at all (for example ENOENT, EACCES, EINVAL). */
	startError?: string;
}

export interface RunOptions {
	timeoutMs: number;
	/** Node's `windowsVerbatimArguments`: the arguments reach the program unquoted (the `cmd.exe` fallback, quoted by us). */
	verbatimArguments?: boolean;
	/** The working folder (default: this process's); `claude mcp` commands act for the folder they run in. */
	cwd?: string;
}

export interface CliMachine {
	/** `process.platform` of the machine ("darwin", "linux", "win32", …). */
	readonly platform: string;
	/** The environment the plugin's process was started with. */
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly homeDir: string;
	inspect(path: string): Promise<PathKind>;
	/** The names in a folder; empty when it is missing or unreadable. */
	listFolder(path: string): Promise<string[]>;
	/** Where a path leads with every symbolic link followed; undefined when it does not exist. */
	realPath(path: string): Promise<string | undefined>;
	/** A small text file's content; undefined when it is missing or unreadable. */
	readText(path: string): Promise<string | undefined>;
	/** Runs a program directly (never through a shell), stdin closed, stopped at the time limit. */
	run(command: string, args: readonly string[], options: RunOptions): Promise<RunOutcome>;
}
