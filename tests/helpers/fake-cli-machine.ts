import { posix, win32 } from "node:path";
import type { CliMachine, PathKind, RunOptions, RunOutcome } from "../../src/agent/claude-cli/cli-machine";

export interface FakeFile {
	kind?: "executable" | "not-executable";
	text?: string;
}

export interface FakeRun {
	command: string;
	args: readonly string[];
	options: RunOptions;
}

export interface FakeMachineOptions {
	platform: "darwin" | "linux" | "win32";
	env?: Record<string, string>;
	homeDir: string;
	/** Files by absolute path; their folders exist implicitly. */
	files?: Record<string, FakeFile>;
	/** Symbolic links by absolute path (a file or a folder) and where each leads; `realPath` follows them. */
	links?: Record<string, string>;
	/** Answers a program run; the default fails to start (ENOENT). */
	answer?: (command: string, args: readonly string[]) => Partial<RunOutcome>;
}

/** A computer of any platform, in memory: files, folders, and programs whose runs are recorded. */
export class FakeCliMachine implements CliMachine {
	readonly platform: string;
	readonly env: Record<string, string>;
	readonly homeDir: string;
	readonly runs: FakeRun[] = [];
	readonly inspected: string[] = [];
	private readonly files: Map<string, FakeFile>;
	private readonly answer: FakeMachineOptions["answer"];
	private readonly links: Map<string, string>;

	constructor(options: FakeMachineOptions) {
		this.platform = options.platform;
		this.env = options.env ?? {};
		this.homeDir = options.homeDir;
		this.files = new Map(Object.entries(options.files ?? {}).map(([path, file]) => [this.key(path), file]));
		this.answer = options.answer;
		this.links = new Map(Object.entries(options.links ?? {}).map(([path, target]) => [this.key(path), target]));
	}

	private get paths(): typeof posix {
		return this.platform === "win32" ? win32 : posix;
	}

	/** Windows paths compare without regard to case. */
	private key(path: string): string {
		const normal = this.paths.normalize(path);
		return this.platform === "win32" ? normal.toLowerCase() : normal;
	}

	private isFolder(key: string): boolean {
		const prefix = key.endsWith(this.paths.sep) ? key : key + this.paths.sep;
		return [...this.files.keys()].some((file) => file.startsWith(prefix));
	}

	inspect(path: string): Promise<PathKind> {
		this.inspected.push(path);
		const key = this.key(this.follow(path));
		const file = this.files.get(key);
		if (file) return Promise.resolve(file.kind ?? "executable");
		return Promise.resolve(this.isFolder(key) ? "directory" : "missing");
	}

	listFolder(path: string): Promise<string[]> {
		const prefix = this.key(path) + this.paths.sep;
		const names = [...this.files.keys()]
			.filter((file) => file.startsWith(prefix))
			.map((file) => file.slice(prefix.length).split(this.paths.sep)[0] ?? "");
		return Promise.resolve([...new Set(names)]);
	}

	/** Follows the links of `links` (a link anywhere along the path, at most 40 hops); a path with no file under it does not exist. */
	realPath(path: string): Promise<string | undefined> {
		const key = this.key(this.follow(path));
		return Promise.resolve(this.files.has(key) || this.isFolder(key) ? this.follow(path) : undefined);
	}

	private follow(path: string): string {
		let current = this.paths.normalize(path);
		for (let hop = 0; hop < 40; hop += 1) {
			const parts = current.split(this.paths.sep);
			const linked = parts
				.map((_, index) => parts.slice(0, index + 1).join(this.paths.sep))
				.find((prefix) => prefix !== "" && this.links.has(this.key(prefix)));
			if (linked === undefined) break;
			current = this.paths.join(this.links.get(this.key(linked)) ?? "", current.slice(linked.length));
		}
		return current;
	}

	readText(path: string): Promise<string | undefined> {
		return Promise.resolve(this.files.get(this.key(this.follow(path)))?.text);
	}

	run(command: string, args: readonly string[], options: RunOptions): Promise<RunOutcome> {
		this.runs.push({ command, args, options });
		const answer = this.answer?.(command, args) ?? { startError: `ENOENT: spawn ${command}` };
		return Promise.resolve({
			exitCode: answer.startError === undefined ? 0 : null,
			stdout: "",
			stderr: "",
			timedOut: false,
			...answer,
		});
	}
}
