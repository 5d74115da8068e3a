import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import type { TraceEvent } from "../../src/protocol/mcp-session";
import { DIST_DIR } from "./built-dist";
import { WAIT_TIMEOUT_MS } from "./fixture-timeout";

export const HEADLESS_ENTRY = join(DIST_DIR, "headless.cjs");

export interface HeadlessStartOptions {
	vault: string;
	home: string;
	args?: string[];
	env?: NodeJS.ProcessEnv;
	/** What runs before the options: the host's own entry by default; `[CLI_ENTRY, "serve"]` is `claude-code-bridge serve`. */
	command?: readonly string[];
}

export interface HeadlessStatus {
	state: string;
	port: number | null;
	lockFile: string | null;
	clients: { id: number; pid: number | null; client: string | null; since: string }[];
}

/** The headless host (dist/headless.cjs) as a child process, with its output collected and commands sent on stdin. */
export class HeadlessProcess {
	stdout = "";
	stderr = "";
	readonly exited: Promise<number | null>;
	private readonly listeners = new Set<() => void>();

	private constructor(readonly child: ChildProcessWithoutNullStreams) {
		child.stdout.setEncoding("utf8");
		child.stderr.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			this.stdout += chunk;
			this.changed();
		});
		child.stderr.on("data", (chunk: string) => {
			this.stderr += chunk;
			this.changed();
		});
		this.exited = new Promise((resolveExit) =>
			child.once("exit", (code) => {
				this.changed();
				resolveExit(code);
			}),
		);
	}

	static spawn(options: HeadlessStartOptions): HeadlessProcess {
		const child = spawn(
			process.execPath,
			[...(options.command ?? [HEADLESS_ENTRY]), "--vault", options.vault, "--trace", ...(options.args ?? [])],
			{
				env: { PATH: process.env.PATH ?? "", ...options.env, HOME: options.home },
				stdio: ["pipe", "pipe", "pipe"],
			},
		);
		return new HeadlessProcess(child);
	}

	/** Starts the host and waits until it prints its port and lock file. */
	static async start(options: HeadlessStartOptions): Promise<HeadlessProcess & { port: number; lockFile: string }> {
		const host = HeadlessProcess.spawn(options);
		const port = Number(await host.waitForOutput(/Listening on ws:\/\/127\.0\.0\.1:(\d+)/));
		const lockFile = await host.waitForOutput(/Lock file: (.+)/);
		return Object.assign(host, { port, lockFile });
	}

	/** Resolves with the first capture group of a pattern once stdout matches it. */
	waitForOutput(
		pattern: RegExp,
		timeoutMs = WAIT_TIMEOUT_MS,
		stream: "stdout" | "stderr" = "stdout",
	): Promise<string> {
		return this.waitFor(() => pattern.exec(this[stream])?.[1], `${String(pattern)} on ${stream}`, timeoutMs);
	}

	/** Every trace event printed so far (the host runs with --trace). */
	traces(): TraceEvent[] {
		return this.stderr
			.split("\n")
			.filter((line) => line.startsWith('{"trace":'))
			.map((line) => (JSON.parse(line) as { trace: TraceEvent }).trace);
	}

	waitForTrace(
		match: (event: TraceEvent) => boolean,
		what: string,
		timeoutMs = WAIT_TIMEOUT_MS,
	): Promise<TraceEvent> {
		return this.waitFor(() => this.traces().find(match), what, timeoutMs);
	}

	send(line: string): void {
		this.child.stdin.write(`${line}\n`);
	}

	async status(): Promise<HeadlessStatus> {
		const before = this.stdout.length;
		this.send("status");
		const line = await this.waitFor(
			() => /^(\{"state".*\})$/m.exec(this.stdout.slice(before))?.[1],
			"a status line",
			WAIT_TIMEOUT_MS,
		);
		return JSON.parse(line) as HeadlessStatus;
	}

	async quit(): Promise<number | null> {
		if (this.child.exitCode === null) this.send("quit");
		return this.exited;
	}

	kill(): void {
		if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
	}

	waitFor<T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
		return new Promise((resolveWait, reject) => {
			const check = (): void => {
				const value = probe();
				if (value !== undefined) {
					finish();
					resolveWait(value);
				} else if (this.child.exitCode !== null) {
					finish();
					reject(
						new Error(
							`The headless host exited (${this.child.exitCode}) before ${what}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`,
						),
					);
				}
			};
			const timer = setTimeout(() => {
				finish();
				reject(
					new Error(
						`Timed out after ${timeoutMs} ms waiting for ${what}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`,
					),
				);
			}, timeoutMs);
			const finish = () => {
				clearTimeout(timer);
				this.listeners.delete(check);
			};
			this.listeners.add(check);
			check();
		});
	}

	private changed(): void {
		for (const listener of [...this.listeners]) listener();
	}
}
