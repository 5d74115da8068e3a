import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { LockFileContent } from "../src/server/lock-file";
import { makeTempDir } from "../tests/helpers/temp-dir";

type TempDir = ReturnType<typeof makeTempDir>;

/** How long a server process may take to print its port. */
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

/** A server running in its own process, driven through stdin lines. */
export interface ServerProcess {
	readonly pid: number;
	readonly port: number;
	/** The auth token (the floor takes any). */
	readonly token: string;
	/** Writes one line to the process's stdin. */
	send(line: string): void;
	/** Resolves with the next stdout line that `accept` says yes to. */
	nextLine(accept: (line: string) => boolean): Promise<string>;
	stop(): Promise<void>;
}

/**
 * On Linux with 2+ cores and `taskset`, both servers run on the last core and this client on the others, so the
 * bridge and the floor always get the same placement (otherwise the scheduler may keep one of them on the client's
 * core for a whole run, a bias that alternating cannot remove). CCB_BENCH_PIN=0 turns it off.
 */
function pinning(): { serverCore: number } | undefined {
	if (process.env.CCB_BENCH_PIN === "0" || process.platform !== "linux") return undefined;
	const cores = cpus().length;
	if (cores < 2) return undefined;
	try {
		execFileSync("taskset", ["-p", "-c", `0-${cores - 2}`, String(process.pid)], { stdio: "ignore" });
		return { serverCore: cores - 1 };
	} catch {
		return undefined;
	}
}

const pinned = pinning();

/** Where the servers were placed, for the results. */
export function placement(): string {
	return pinned ? `servers pinned to core ${pinned.serverCore}, client on the others (taskset)` : "not pinned";
}

/** The command that starts a server: `node …`, under `taskset` when pinning. */
function serverCommand(args: readonly string[]): [string, string[]] {
	return pinned
		? ["taskset", ["-c", String(pinned.serverCore), process.execPath, ...args]]
		: [process.execPath, [...args]];
}

/** Where scripts/run-bench.mjs put the bundled floor. */
export function rawServerScript(): string {
	const path = process.env.CCB_BENCH_RAW_SERVER;
	if (!path) throw new Error("CCB_BENCH_RAW_SERVER is not set: run the benchmark with scripts/run-bench.mjs");
	return path;
}

class ChildServer implements ServerProcess {
	private readonly waiters: { accept: (line: string) => boolean; resolve: (line: string) => void }[] = [];
	private readonly exited: Promise<void>;
	port = 0;
	token = "unused";

	constructor(
		private readonly child: ChildProcessWithoutNullStreams,
		private readonly temp: TempDir | undefined,
	) {
		this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
		createInterface({ input: child.stdout, terminal: false }).on("line", (line) => {
			const index = this.waiters.findIndex((waiter) => waiter.accept(line));
			if (index >= 0) this.waiters.splice(index, 1)[0]?.resolve(line);
		});
		child.stderr.on("data", (chunk: Buffer) =>
			process.stderr.write(`[server ${child.pid ?? "?"}] ${chunk.toString("utf8")}`),
		);
	}

	get pid(): number {
		return this.child.pid ?? 0;
	}

	send(line: string): void {
		this.child.stdin.write(`${line}\n`);
	}

	nextLine(accept: (line: string) => boolean): Promise<string> {
		return new Promise((resolve) => this.waiters.push({ accept, resolve }));
	}

	async waitForPort(): Promise<string> {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const timeout = new Promise<never>((_resolve, reject) => {
			timer = setTimeout(
				() => reject(new Error(`Server process ${this.pid} did not print its port`)),
				START_TIMEOUT_MS,
			);
		});
		const exit = this.exited.then(() => {
			throw new Error(`Server process ${this.pid} exited before listening`);
		});
		try {
			const line = await Promise.race([
				this.nextLine((text) => /Listening on ws:\/\/127\.0\.0\.1:\d+/.test(text)),
				timeout,
				exit,
			]);
			this.port = Number(/:(\d+)\s*$/.exec(line)?.[1]);
			return line;
		} finally {
			clearTimeout(timer);
		}
	}

	async stop(): Promise<void> {
		if (this.child.exitCode === null && this.child.signalCode === null) {
			this.child.stdin.write("quit\n");
			const timer = setTimeout(() => this.child.kill("SIGKILL"), STOP_TIMEOUT_MS);
			await this.exited;
			clearTimeout(timer);
		}
		this.temp?.remove();
	}
}

export interface HeadlessStartOptions {
	vaultPath: string;
	/** Extra node flags, e.g. --cpu-prof. */
	nodeFlags?: readonly string[];
	/** Extra environment, e.g. XDG_DATA_HOME (where the host keeps its activity journal). */
	env?: Readonly<Record<string, string>>;
}

/** The headless host as a user starts it: `node dist/headless.cjs --vault DIR`, with a temp HOME for its lock file. */
export async function startHeadless(options: HeadlessStartOptions): Promise<ServerProcess> {
	const temp = makeTempDir("home");
	const home = join(temp.path, "home");
	mkdirSync(home);
	// CCB_BENCH_HEADLESS: another build of the host, e.g. an unminified one whose profile shows function names.
	const script = process.env.CCB_BENCH_HEADLESS ?? join("dist", "headless.cjs");
	const [command, args] = serverCommand([...(options.nodeFlags ?? []), script, "--vault", options.vaultPath]);
	const child = spawn(command, args, {
		env: { ...process.env, HOME: home, USERPROFILE: home, NODE_OPTIONS: "", ...options.env },
		stdio: "pipe",
	});
	const server = new ChildServer(child, temp);
	try {
		const lockLine = server.nextLine((line) => line.startsWith("Lock file: "));
		await server.waitForPort();
		const lockPath = (await lockLine).slice("Lock file: ".length);
		server.token = (JSON.parse(readFileSync(lockPath, "utf8")) as LockFileContent).authToken;
		return server;
	} catch (error) {
		await server.stop();
		throw error;
	}
}

/** The raw floor, bundled from bench/raw-server.ts, in its own process. */
export async function startRawServer(nodeFlags: readonly string[] = []): Promise<ServerProcess> {
	const [command, args] = serverCommand([...nodeFlags, rawServerScript()]);
	const child = spawn(command, args, { env: { ...process.env, NODE_OPTIONS: "" }, stdio: "pipe" });
	const server = new ChildServer(child, undefined);
	try {
		await server.waitForPort();
		return server;
	} catch (error) {
		await server.stop();
		throw error;
	}
}
