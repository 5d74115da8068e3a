import { execFile, type ExecFileException } from "node:child_process";
import { constants } from "node:fs";
import { access, readdir, readFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { extname } from "node:path";
import type { CliMachine, PathKind, RunOptions, RunOutcome } from "./cli-machine";

/** Windows has no execute bit: a file is startable when its extension says so. */
const WINDOWS_RUNNABLE_EXTENSIONS = new Set([".exe", ".com", ".cmd", ".bat"]);
/** Enough for `--version` and a login shell's PATH; a chattier program is cut off, not buffered without end. */
const OUTPUT_LIMIT_BYTES = 1024 * 1024;
const SHIM_SIZE_LIMIT_BYTES = 64 * 1024;

async function inspect(path: string, platform: string): Promise<PathKind> {
	try {
		const info = await stat(path);
		if (info.isDirectory()) return "directory";
		if (platform === "win32")
			return WINDOWS_RUNNABLE_EXTENSIONS.has(extname(path).toLowerCase()) ? "executable" : "not-executable";
		await access(path, constants.X_OK).catch(() => {
			throw new NotExecutable();
		});
		return "executable";
	} catch (error) {
		return error instanceof NotExecutable ? "not-executable" : "missing";
	}
}

class NotExecutable extends Error {}

function run(
	command: string,
	args: readonly string[],
	options: RunOptions,
	env: Readonly<Record<string, string | undefined>>,
): Promise<RunOutcome> {
	return new Promise((resolve) => {
		const finished = (error: ExecFileException | null, stdout: string, stderr: string): void => {
			if (!error) {
				resolve({ exitCode: 0, stdout, stderr, timedOut: false });
				return;
			}
			const code = error.code;
			if (typeof code === "string" && !started) {
				resolve({ exitCode: null, stdout, stderr, timedOut: false, startError: `${code}: ${error.message}` });
				return;
			}
			const timedOut = error.killed === true && code !== "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
			resolve({ exitCode: typeof code === "number" ? code : null, stdout, stderr, timedOut });
		};
		let started = false;
		try {
			const child = execFile(
				command,
				[...args],
				{
					env,
					...(options.cwd !== undefined && { cwd: options.cwd }),
					timeout: options.timeoutMs,
					killSignal: "SIGKILL",
					maxBuffer: OUTPUT_LIMIT_BYTES,
					windowsHide: true,
					windowsVerbatimArguments: options.verbatimArguments === true,
					encoding: "utf8",
				},
				finished,
			);
			started = child.pid !== undefined;
			// A program waiting on stdin (a login shell's prompt, an update question) reads end of file at once.
			child.stdin?.end();
		} catch (error) {
			// Node refuses some programs before starting them, e.g. a `.cmd` without a shell (EINVAL on Windows).
			resolve({
				exitCode: null,
				stdout: "",
				stderr: "",
				timedOut: false,
				startError: error instanceof Error ? error.message : String(error),
			});
		}
	});
}

/** The real machine the plugin runs on; programs run with `env` (by default this process's environment). */
export function nodeCliMachine(
	env: Readonly<Record<string, string | undefined>> = process.env,
	platform: string = process.platform,
): CliMachine {
	return {
		platform,
		env,
		homeDir: homedir(),
		inspect: (path) => inspect(path, platform),
		listFolder: (path) => readdir(path).catch(() => []),
		realPath: (path) => realpath(path).catch(() => undefined),
		readText: async (path) => {
			try {
				const info = await stat(path);
				if (!info.isFile() || info.size > SHIM_SIZE_LIMIT_BYTES) return undefined;
				return await readFile(path, "utf8");
			} catch {
				return undefined;
			}
		},
		run: (command, args, options) => run(command, args, options, env),
	};
}
