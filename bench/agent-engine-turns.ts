/**
 * The child process of `bench/agent-engine.ts` that plays the plugin's host process for one engine: loads the
 * engine's bundle, starts a session against the mock model API, sends prompts one after the other and reports
 * the time to the first text delta and to the end of each turn, and its own RSS. One line of JSON on stdout.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import type { StreamJsonListener, StreamJsonSession } from "./agent-engine-raw";

export const TURNS_ROLE = "--agent-engine-turns";

export type Candidate = "sdk" | "raw" | "acp";

export interface TurnsJob {
	candidate: Candidate;
	/** The engine's bundle (sdk, raw) or the ACP adapter's entry script (acp). */
	module: string;
	cli: string;
	cwd: string;
	env: Record<string, string>;
	prompts: number;
}

export interface TurnTiming {
	/** From sending the prompt (for the first turn: from starting the engine) to the first text delta. */
	firstDeltaMs: number;
	totalMs: number;
}

export interface TurnsReport {
	turns: TurnTiming[];
	rssBeforeLoadMiB: number;
	rssAfterLoadMiB: number;
	rssAfterTurnsMiB: number;
	/** ACP: the adapter process's own RSS after the turns (Linux /proc). */
	sidecarRssMiB?: number;
}

/** One engine as the runner drives it: start it, send a prompt, learn of text deltas and turn ends. */
interface Driver {
	send(text: string): void;
	/** RSS of a process the route adds beside the host and the CLI (ACP's adapter), in MiB. */
	sidecarRssMiB?(): number | undefined;
	close(): Promise<void>;
}

interface DriverEvents {
	onTextDelta(): void;
	onTurnEnd(): void;
	onFailure(message: string): void;
}

interface SdkQuery extends AsyncIterable<Record<string, unknown>> {
	return?(): Promise<unknown>;
}
type SdkModule = {
	query(input: { prompt: AsyncIterable<Record<string, unknown>>; options: Record<string, unknown> }): SdkQuery;
};
type RawModule = {
	startStreamJsonSession(
		cli: string,
		cwd: string,
		env: NodeJS.ProcessEnv,
		listener: StreamJsonListener,
	): StreamJsonSession;
};

/** An async iterable the SDK reads user messages from; stays open between turns, as a panel session does. */
class Inbox implements AsyncIterable<Record<string, unknown>> {
	private readonly queued: Record<string, unknown>[] = [];
	private waiting: ((result: IteratorResult<Record<string, unknown>>) => void) | undefined;
	private ended = false;

	push(message: Record<string, unknown>): void {
		const waiting = this.waiting;
		this.waiting = undefined;
		if (waiting) waiting({ value: message, done: false });
		else this.queued.push(message);
	}

	end(): void {
		this.ended = true;
		this.waiting?.({ value: undefined, done: true });
	}

	[Symbol.asyncIterator](): AsyncIterator<Record<string, unknown>> {
		return {
			next: () => {
				const next = this.queued.shift();
				if (next) return Promise.resolve({ value: next, done: false });
				if (this.ended) return Promise.resolve({ value: undefined, done: true });
				return new Promise((resolve) => (this.waiting = resolve));
			},
		};
	}
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sdkDriver(sdk: SdkModule, job: TurnsJob, events: DriverEvents): Driver {
	const inbox = new Inbox();
	const run = sdk.query({
		prompt: inbox,
		options: {
			pathToClaudeCodeExecutable: job.cli,
			cwd: job.cwd,
			env: job.env,
			includePartialMessages: true,
			settingSources: [],
			permissionMode: "default",
		},
	});
	const reading = (async () => {
		for await (const message of run) {
			const event = message["event"];
			if (
				message["type"] === "stream_event" &&
				isRecord(event) &&
				event["type"] === "content_block_delta" &&
				isRecord(event["delta"]) &&
				event["delta"]["type"] === "text_delta"
			)
				events.onTextDelta();
			else if (message["type"] === "result") events.onTurnEnd();
		}
	})().catch((error: unknown) => events.onFailure(`sdk: ${String(error)}`));
	return {
		send: (text) =>
			inbox.push({
				type: "user",
				message: { role: "user", content: [{ type: "text", text }] },
				parent_tool_use_id: null,
				session_id: "",
			}),
		close: async () => {
			inbox.end();
			await reading;
		},
	};
}

function rawDriver(raw: RawModule, job: TurnsJob, events: DriverEvents): Driver {
	return raw.startStreamJsonSession(job.cli, job.cwd, job.env, {
		onTextDelta: () => events.onTextDelta(),
		onResult: () => events.onTurnEnd(),
		onExit: (code, stderr) => {
			if (code !== 0) events.onFailure(`claude exited with ${String(code)}: ${stderr.slice(-300)}`);
		},
	});
}

/** A minimal ACP client over JSON-RPC lines (no client library: the figure is the adapter's cost, not a library's). */
function acpDriver(job: TurnsJob, events: DriverEvents): Driver {
	const child = spawn(process.execPath, [job.module], {
		cwd: job.cwd,
		env: { ...job.env, CLAUDE_CODE_EXECUTABLE: job.cli },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stderr = "";
	child.stderr.setEncoding("utf8");
	child.stderr.on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
	child.on("exit", (code) => {
		if (code !== 0 && code !== null)
			events.onFailure(`claude-agent-acp exited with ${String(code)}: ${stderr.slice(-300)}`);
	});
	let nextId = 1;
	const answers = new Map<number, (result: Record<string, unknown>) => void>();
	const write = (message: Record<string, unknown>): void =>
		void child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
	const request = (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
		const id = nextId++;
		write({ id, method, params });
		return new Promise((resolve) => answers.set(id, resolve));
	};
	createInterface({ input: child.stdout }).on("line", (line) => {
		let message: unknown;
		try {
			message = JSON.parse(line);
		} catch {
			return;
		}
		if (!isRecord(message)) return;
		const id = message["id"];
		if (typeof id === "number" && "method" in message) {
			// A request from the agent (permission, fs): this text-only turn should cause none; refuse anything.
			write({ id, error: { code: -32601, message: "not offered by the benchmark client" } });
		} else if (typeof id === "number") {
			if (isRecord(message["error"])) events.onFailure(`acp error: ${JSON.stringify(message["error"])}`);
			answers.get(id)?.(isRecord(message["result"]) ? message["result"] : {});
			answers.delete(id);
		} else if (message["method"] === "session/update") {
			const params = message["params"];
			const update = isRecord(params) ? params["update"] : undefined;
			if (isRecord(update) && update["sessionUpdate"] === "agent_message_chunk") events.onTextDelta();
		}
	});
	const session = request("initialize", {
		protocolVersion: 1,
		clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
	}).then(() =>
		request("session/new", { cwd: job.cwd, mcpServers: [] }).then((result) => String(result["sessionId"])),
	);
	return {
		sidecarRssMiB: () => {
			const status = child.pid === undefined ? "" : readFileSync(`/proc/${child.pid}/status`, "utf8");
			const kib = /VmRSS:\s+(\d+)/.exec(status)?.[1];
			return kib === undefined ? undefined : Number(kib) / 1024;
		},
		send: (text) => {
			void session
				.then((sessionId) => request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }))
				.then(() => events.onTurnEnd());
		},
		close: async () => {
			child.stdin.end();
			const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
			await new Promise<void>((resolve) =>
				child.exitCode !== null ? resolve() : child.once("exit", () => resolve()),
			);
			clearTimeout(timer);
		},
	};
}

const MIB = 1024 * 1024;
const rssMiB = (): number => process.memoryUsage().rss / MIB;
const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();

export async function turnsChild(argument: string): Promise<void> {
	const job = JSON.parse(argument) as TurnsJob;
	collectGarbage();
	const rssBeforeLoadMiB = rssMiB();
	// The engine's bundle is CommonJS by construction (bench/agent-engine.ts builds it); ACP's engine is a process.
	const engine: unknown = job.candidate === "acp" ? undefined : createRequire(job.module)(job.module);
	collectGarbage();
	const rssAfterLoadMiB = rssMiB();
	let sentAt = performance.now();
	let firstDeltaAt: number | undefined;
	let endTurn: (() => void) | undefined;
	let fail: ((error: Error) => void) | undefined;
	const events: DriverEvents = {
		onTextDelta: () => (firstDeltaAt ??= performance.now()),
		onTurnEnd: () => endTurn?.(),
		onFailure: (message) => fail?.(new Error(message)),
	};
	const driver =
		job.candidate === "sdk"
			? sdkDriver(engine as SdkModule, job, events)
			: job.candidate === "raw"
				? rawDriver(engine as RawModule, job, events)
				: acpDriver(job, events);
	const turns: TurnTiming[] = [];
	for (let index = 0; index < job.prompts; index += 1) {
		const ended = new Promise<void>((resolve, reject) => {
			endTurn = resolve;
			fail = reject;
		});
		firstDeltaAt = undefined;
		// The first turn counts from the engine's start: a panel that opens a session pays the CLI's start once.
		if (index > 0) sentAt = performance.now();
		driver.send(`Say something short (${index + 1}).`);
		await ended;
		const endedAt = performance.now();
		turns.push({ firstDeltaMs: (firstDeltaAt ?? Number.NaN) - sentAt, totalMs: endedAt - sentAt });
	}
	collectGarbage();
	const rssAfterTurnsMiB = rssMiB();
	const sidecarRssMiB = driver.sidecarRssMiB?.();
	await driver.close();
	const report: TurnsReport = {
		turns,
		rssBeforeLoadMiB,
		rssAfterLoadMiB,
		rssAfterTurnsMiB,
		...(sidecarRssMiB === undefined ? {} : { sidecarRssMiB }),
	};
	process.stdout.write(`${JSON.stringify(report)}\n`);
	process.exit(0);
}
