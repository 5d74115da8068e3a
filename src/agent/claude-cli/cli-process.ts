/**
 * The `claude` child process of one session: JSON lines in on stdin, out on stdout, and one report when it is
 * gone, whatever ended it (exit, signal, a spawn error such as a missing binary). Nothing here throws after
 * `spawnCli` returns; a write to a dead process is dropped.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { CLAUDE_PATH_SETTING } from "./claude-check";
import { encodeJsonLine, JsonLineDecoder, type JsonRecord } from "./json-lines";

/** The setting a user changes when the CLI is not found (named in the message the panel shows). */
export const CLI_PATH_SETTING = CLAUDE_PATH_SETTING;

export interface CliExit {
	/** One line for the user; undefined when the process ended normally (exit code 0 after its input closed). */
	failure: string | undefined;
	/** The process never ran (no binary, not executable, no path set). */
	neverStarted?: true;
}

export interface CliProcessEvents {
	message(record: JsonRecord): void;
	skipped(reason: string): void;
	exit(exit: CliExit): void;
}

/** What a session needs of its process (a fake stands in for it in unit tests). */
export interface CliProcess {
	readonly pid: number | undefined;
	write(record: JsonRecord): void;
	/** Closes stdin: the CLI finishes what it does and exits. */
	endInput(): void;
	kill(signal: NodeJS.Signals): void;
}

export interface CliSpawnOptions {
	binary: string;
	args: readonly string[];
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Node's `windowsVerbatimArguments` (the `cmd.exe` route, quoted by `launchCommand`). */
	verbatimArguments?: boolean;
}

const STDERR_TAIL_BYTES = 4096;

export function spawnCli(options: CliSpawnOptions, events: CliProcessEvents): CliProcess {
	let child: ChildProcessWithoutNullStreams;
	let reported = false;
	const report = (exit: CliExit): void => {
		if (reported) return;
		reported = true;
		events.exit(exit);
	};
	if (options.binary.trim() === "") {
		queueMicrotask(() =>
			report({
				failure: `No Claude Code CLI is set. Install Claude Code, or set "${CLI_PATH_SETTING}" in this plugin's settings.`,
				neverStarted: true,
			}),
		);
		return { pid: undefined, write: () => undefined, endInput: () => undefined, kill: () => undefined };
	}
	try {
		child = spawn(options.binary, [...options.args], {
			cwd: options.cwd,
			env: options.env,
			stdio: ["pipe", "pipe", "pipe"],
			windowsHide: true,
			windowsVerbatimArguments: options.verbatimArguments ?? false,
		});
	} catch (error) {
		queueMicrotask(() => report({ failure: spawnFailure(options.binary, error), neverStarted: true }));
		return { pid: undefined, write: () => undefined, endInput: () => undefined, kill: () => undefined };
	}
	const decoder = new JsonLineDecoder(events);
	let stderrTail = "";
	let spawnError: string | undefined;
	child.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
	child.stdout.on("end", () => decoder.end());
	child.stderr.on("data", (chunk: Buffer) => {
		stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
	});
	// EPIPE once the process is gone: its exit is reported on its own.
	child.stdin.on("error", () => undefined);
	child.on("error", (error) => {
		spawnError = spawnFailure(options.binary, error);
		if (child.pid === undefined) report({ failure: spawnError, neverStarted: true });
	});
	child.on("close", (code, signal) => {
		if (spawnError !== undefined)
			report({ failure: spawnError, ...(child.pid === undefined && { neverStarted: true as const }) });
		else if (code === 0) report({ failure: undefined });
		else report({ failure: exitFailure(code, signal, stderrTail) });
	});
	return {
		get pid() {
			return child.pid;
		},
		write(record) {
			if (child.stdin.writable) child.stdin.write(encodeJsonLine(record));
		},
		endInput() {
			if (child.stdin.writable) child.stdin.end();
		},
		kill(signal) {
			if (child.exitCode === null && child.signalCode === null) child.kill(signal);
		},
	};
}

function spawnFailure(binary: string, error: unknown): string {
	const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
	if (code === "ENOENT")
		return `Claude Code was not found at ${binary}. Install Claude Code, or set "${CLI_PATH_SETTING}" in this plugin's settings.`;
	if (code === "EACCES")
		return `Claude Code at ${binary} cannot be run (permission denied). Check "${CLI_PATH_SETTING}" in this plugin's settings.`;
	const reason = error instanceof Error ? error.message : String(error);
	return `Claude Code could not start from ${binary}: ${reason}. Check "${CLI_PATH_SETTING}" in this plugin's settings.`;
}

function exitFailure(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): string {
	const how = signal !== null ? `was stopped by ${signal}` : `exited with code ${String(code)}`;
	const lastLine = stderrTail.trim().split("\n").pop()?.trim();
	return lastLine ? `Claude Code ${how}: ${lastLine}` : `Claude Code ${how}.`;
}
