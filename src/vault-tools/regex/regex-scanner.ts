import { clearTimeout, setTimeout } from "node:timers";
import type { RegexThread, RegexThreadFactory } from "./regex-thread";
import type { RegexBatchReply } from "./regex-worker-script";
import { nodeRegexThread } from "./node-regex-thread";
import { canStartWebWorkers, webRegexThread } from "./web-regex-thread";

/** Texts per message to a worker, in characters: copying 64 K characters takes well under a millisecond. */
const BATCH_CHARS = 64 * 1024;
/** Batches on their way to a worker at once, so it is never idle waiting for the next one. */
const BATCHES_IN_FLIGHT = 2;

export interface RegexScannerOptions {
	/** How a worker is started (default: a Web Worker where the runtime has them, else node:worker_threads). */
	thread?: RegexThreadFactory;
	/** Called once each thread runs (a worker's start resets process-wide V8 heap flags the caller may set again). */
	threadStarted?: () => void;
	/** Searches running at once; more wait for a worker (default 2). */
	maxThreads?: number;
	/** An idle worker is ended after this long (default 30 s). */
	idleMs?: number;
	/** Default Node's timers, unref'd so an idle scanner never keeps a process alive; Obsidian passes its window's. */
	timers?: ScannerTimers;
}

export interface ScannerTimers {
	set(callback: () => void, ms: number): unknown;
	clear(handle: unknown): void;
}

const NODE_TIMERS: ScannerTimers = {
	set: (callback, ms) => setTimeout(callback, ms).unref(),
	clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RegexScan {
	/** Already compiled once by the caller, so a bad pattern is refused before any worker starts. */
	pattern: RegExp;
	/** How many texts; `text(index)` gives each (undefined: skip it). */
	count: number;
	text(index: number): string | undefined | Promise<string | undefined>;
	/** The whole scan, waiting for a worker included, stops after this long. */
	budgetMs: number;
	signal?: AbortSignal;
	/** Called with each batch's matches as they arrive (text index → the offset of the first match on each line). */
	found(index: number, starts: readonly number[]): void;
}

export type RegexScanOutcome =
	| { kind: "done" }
	| { kind: "stopped"; why: "budget" | "cancelled"; searched: number }
	| { kind: "failed"; message: string };

/**
 * Runs regular expressions over many texts in worker threads, so a pattern that backtracks for ever costs its
 * budget and never the main thread: the main thread only posts batches of texts and reads the answers, and a
 * worker still busy when the budget runs out (or the call is cancelled) is terminated, the one stop that works
 * in the middle of a match.
 */
export class RegexScanner {
	private readonly threadFactory: RegexThreadFactory;
	private readonly threadStarted: (() => void) | undefined;
	private readonly maxThreads: number;
	private readonly idleMs: number;
	private readonly timers: ScannerTimers;
	private idle: { worker: RegexWorker; timer: unknown } | undefined;
	/** Workers lent to a scan right now. */
	private readonly lent = new Set<RegexWorker>();
	private readonly waiting: (() => void)[] = [];
	private disposed = false;

	constructor(options: RegexScannerOptions = {}) {
		this.threadFactory = options.thread ?? (canStartWebWorkers() ? webRegexThread : nodeRegexThread);
		this.threadStarted = options.threadStarted;
		this.maxThreads = options.maxThreads ?? 2;
		this.idleMs = options.idleMs ?? 30_000;
		this.timers = options.timers ?? NODE_TIMERS;
	}

	async scan(job: RegexScan): Promise<RegexScanOutcome> {
		if (this.disposed) return { kind: "failed", message: "the vault tools are shutting down" };
		if (job.count === 0) return { kind: "done" };
		let timer: unknown;
		let onAbort: (() => void) | undefined;
		const stop = new Promise<"budget" | "cancelled">((resolve) => {
			timer = this.timers.set(() => resolve("budget"), job.budgetMs);
			onAbort = () => resolve("cancelled");
			if (job.signal?.aborted) resolve("cancelled");
			else job.signal?.addEventListener("abort", onAbort, { once: true });
		});
		const race = <T>(work: Promise<T>): Promise<{ value: T } | { stopped: "budget" | "cancelled" }> =>
			Promise.race([work.then((value) => ({ value })), stop.then((stopped) => ({ stopped }))]);

		let worker: RegexWorker | undefined;
		/** Texts answered so far (skipped ones included): the stopped answer says how far the scan got. */
		let searched = 0;
		try {
			const acquiring = this.acquire();
			const slot = await race(acquiring);
			if ("stopped" in slot) {
				// The worker may still come: hand it back unused.
				acquiring.then(
					(late) => this.release(late),
					() => undefined,
				);
				return { kind: "stopped", why: slot.stopped, searched };
			}
			worker = slot.value;
			const { source, flags } = job.pattern;
			let next = 0;
			const inFlight: { indices: number[]; end: number; reply: Promise<RegexBatchReply> }[] = [];
			while (next < job.count || inFlight.length > 0) {
				while (inFlight.length < BATCHES_IN_FLIGHT && next < job.count) {
					const batch = await race(collectBatch(job, next));
					if ("stopped" in batch) return this.stopped(worker, batch.stopped, searched);
					const { indices, texts, end } = batch.value;
					next = end;
					if (indices.length > 0)
						inFlight.push({ indices, end, reply: worker.request(source, flags, texts) });
					else if (inFlight.length === 0) searched = end;
				}
				const head = inFlight.shift();
				if (!head) continue;
				const answer = await race(head.reply);
				if ("stopped" in answer) return this.stopped(worker, answer.stopped, searched);
				const reply = answer.value;
				if ("error" in reply) return this.failed(worker, `the regular expression failed: ${reply.error}`);
				reply.starts.forEach((starts, position) => {
					const index = head.indices[position];
					if (starts && index !== undefined) job.found(index, starts);
				});
				searched = head.end;
			}
			this.release(worker);
			worker = undefined;
			return { kind: "done" };
		} catch (error) {
			if (worker) this.discard(worker);
			return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
		} finally {
			this.timers.clear(timer);
			if (onAbort) job.signal?.removeEventListener("abort", onAbort);
		}
	}

	/** Ends every worker; scans still running end as failed. */
	dispose(): void {
		this.disposed = true;
		if (this.idle) {
			this.timers.clear(this.idle.timer);
			this.idle.worker.terminate();
			this.idle = undefined;
		}
		for (const worker of this.lent) worker.terminate();
		for (const wake of this.waiting.splice(0)) wake();
	}

	private stopped(worker: RegexWorker, why: "budget" | "cancelled", searched: number): RegexScanOutcome {
		this.discard(worker);
		return { kind: "stopped", why, searched };
	}

	private failed(worker: RegexWorker, message: string): RegexScanOutcome {
		this.discard(worker);
		return { kind: "failed", message };
	}

	private async acquire(): Promise<RegexWorker> {
		for (;;) {
			if (this.disposed) throw new Error("the vault tools are shutting down");
			if (this.idle) {
				const { worker, timer } = this.idle;
				this.timers.clear(timer);
				this.idle = undefined;
				return this.lend(worker);
			}
			if (this.lent.size < this.maxThreads) {
				const starting = new RegexWorker();
				this.lent.add(starting);
				try {
					await starting.start(this.threadFactory, this.threadStarted);
				} catch (error) {
					this.lent.delete(starting);
					this.waiting.shift()?.();
					throw new Error(
						`a worker thread could not start: ${error instanceof Error ? error.message : String(error)}`,
					);
				}
				return this.lend(starting);
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	private lend(worker: RegexWorker): RegexWorker {
		if (this.disposed) {
			worker.terminate();
			this.lent.delete(worker);
			throw new Error("the vault tools are shutting down");
		}
		this.lent.add(worker);
		worker.busy(true);
		return worker;
	}

	/** A worker that finished its scan: kept for the next one (one at most), else ended. */
	private release(worker: RegexWorker): void {
		this.lent.delete(worker);
		worker.busy(false);
		if (this.disposed || this.idle || worker.broken) worker.terminate();
		else {
			const timer = this.timers.set(() => {
				if (this.idle?.worker !== worker) return;
				this.idle = undefined;
				worker.terminate();
			}, this.idleMs);
			this.idle = { worker, timer };
		}
		this.waiting.shift()?.();
	}

	/** A worker stopped mid-scan or broken: terminated, never reused. */
	private discard(worker: RegexWorker): void {
		worker.terminate();
		this.lent.delete(worker);
		this.waiting.shift()?.();
	}
}

/** One thread and its requests in flight. */
class RegexWorker {
	private thread: RegexThread | undefined;
	private readonly pending = new Map<
		number,
		{ resolve: (reply: RegexBatchReply) => void; reject: (error: Error) => void }
	>();
	private nextId = 1;
	broken = false;

	async start(factory: RegexThreadFactory, started: (() => void) | undefined): Promise<void> {
		const thread = await factory({
			...(started ? { started } : {}),
			reply: (reply) => {
				const waiter = this.pending.get(reply.id);
				this.pending.delete(reply.id);
				waiter?.resolve(reply);
			},
			failed: (error) => this.fail(error),
		});
		// Disposed while it started.
		if (this.broken) thread.terminate();
		else this.thread = thread;
	}

	request(source: string, flags: string, texts: string[]): Promise<RegexBatchReply> {
		const thread = this.thread;
		if (this.broken || !thread) return Promise.reject(new Error("the regex worker stopped"));
		const id = this.nextId++;
		const reply = new Promise<RegexBatchReply>((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			thread.post({ id, source, flags, texts });
		});
		// A batch still on its way when the scan stops is rejected with nobody waiting for it.
		reply.catch(() => undefined);
		return reply;
	}

	busy(busy: boolean): void {
		if (!this.broken) this.thread?.busy(busy);
	}

	terminate(): void {
		if (!this.broken) this.thread?.terminate();
		this.fail(new Error("the regex worker was stopped"));
	}

	private fail(error: Error): void {
		this.broken = true;
		for (const waiter of this.pending.values()) waiter.reject(error);
		this.pending.clear();
	}
}

/** The next batch from `from`: texts until BATCH_CHARS (one text at least), skipping texts that are gone. */
async function collectBatch(
	job: RegexScan,
	from: number,
): Promise<{ indices: number[]; texts: string[]; end: number }> {
	const indices: number[] = [];
	const texts: string[] = [];
	let size = 0;
	let index = from;
	while (index < job.count && size < BATCH_CHARS) {
		const found = job.text(index);
		const text = found instanceof Promise ? await found : found;
		if (text !== undefined) {
			indices.push(index);
			texts.push(text);
			size += text.length;
		}
		index++;
	}
	return { indices, texts, end: index };
}
