import { Worker } from "node:worker_threads";
import { restoreHeapFlags } from "../../shared/v8-heap-flags";
import type { Stamp } from "./stamp";

/** How many paths a thread takes at a time. */
const BATCH = 256;
// Control words: the next path not taken yet, and how many paths are done (by either thread).
const NEXT = 0;
const DONE = 1;
const CONTROL_WORDS = 2;
// Per path: its state, then its stamp (mtimeMs, ctimeMs, size, ino).
const FIELDS = 5;
const A_FILE = 1;
const NO_FILE = 2;
/** How long the checker waits for a batch the worker took before it stats what is left itself. */
const PATIENCE_MS = 1000;

/**
 * The worker: takes batches of the paths (given as one string, joined by NUL) and stats each (lstat, as the store
 * does), writing its state and stamp, until none is left. Plain JavaScript with `fs` alone, so it runs from any
 * bundle (and under the tests) without a file of its own.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
const { control, stamps, prefix } = workerData;
parentPort.once("message", (joined) => {
	const paths = joined.split("\\0");
	for (;;) {
		const start = Atomics.add(control, ${NEXT}, ${BATCH});
		if (start >= paths.length) break;
		const end = Math.min(paths.length, start + ${BATCH});
		for (let index = start; index < end; index++) {
			const at = index * ${FIELDS};
			let stats;
			try {
				stats = lstatSync(prefix + paths[index], { throwIfNoEntry: false });
			} catch {
				stats = undefined;
			}
			if (stats !== undefined && stats.isFile()) {
				stamps[at + 1] = stats.mtimeMs;
				stamps[at + 2] = stats.ctimeMs;
				stamps[at + 3] = stats.size;
				stamps[at + 4] = stats.ino;
				stamps[at] = ${A_FILE};
			} else stamps[at] = ${NO_FILE};
		}
		Atomics.add(control, ${DONE}, end - start);
		Atomics.notify(control, ${DONE});
	}
	parentPort.postMessage("done");
});
`;

/**
 * Stats a list of notes on a worker thread, started as soon as the list is known (a later session's notes, right after
 * the folder's listing and its watchers), while this thread goes on taking up the saved index. The checker
 * (`check`) then takes the paths the worker has not taken yet itself, batch by batch from the same counter: the two
 * threads stat the rest side by side, and nothing waits for a worker that is slow to start. A path is statted only
 * after its folder is watched, so a change after its stat is reported as any later change is.
 */
export class StatAhead {
	private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT));
	private readonly stamps: Float64Array;
	private worker: Worker | undefined;

	/** `prefix`: what makes a path of the list absolute (the vault's root and a separator). */
	constructor(
		readonly paths: readonly string[],
		prefix: string,
	) {
		this.stamps = new Float64Array(new SharedArrayBuffer(paths.length * FIELDS * Float64Array.BYTES_PER_ELEMENT));
		try {
			const worker = new Worker(WORKER_SOURCE, {
				eval: true,
				workerData: { control: this.control, stamps: this.stamps, prefix },
			});
			worker.unref();
			// Its start may reset this thread's heap flags (src/shared/v8-heap-flags.ts); `check` sets them again too,
			// since this thread, busy in it, hears of the online event only afterwards.
			worker.once("online", restoreHeapFlags);
			worker.on("error", () => this.dispose());
			worker.on("message", () => this.dispose());
			worker.postMessage(paths.join("\0"));
			this.worker = worker;
		} catch {
			// No worker: the checker stats every path itself.
		}
	}

	/**
	 * Calls `each` once for every path of the list: with the stamp the worker found (a file), or undefined for a path
	 * the caller is to stat itself (taken by this thread, found no file by the worker, or not done by it in time).
	 * Returns when every path has had its call.
	 */
	check(each: (index: number, stamp: Stamp | undefined) => void): void {
		if (this.worker) restoreHeapFlags();
		const total = this.paths.length;
		const mine = new Uint8Array(total);
		for (;;) {
			const start = Atomics.add(this.control, NEXT, BATCH);
			if (start >= total) break;
			const end = Math.min(total, start + BATCH);
			for (let index = start; index < end; index++) {
				mine[index] = 1;
				each(index, undefined);
			}
			Atomics.add(this.control, DONE, end - start);
		}
		// The worker's batches: its writes are seen once the count read says they are done.
		let done = Atomics.load(this.control, DONE);
		while (done < total && Atomics.wait(this.control, DONE, done, PATIENCE_MS) !== "timed-out")
			done = Atomics.load(this.control, DONE);
		done = Atomics.load(this.control, DONE);
		const stamps = this.stamps;
		for (let index = 0; index < total; index++) {
			if (mine[index] === 1) continue;
			const at = index * FIELDS;
			// A worker that did not finish in time: every path it took is statted here.
			if (done < total || stamps[at] !== A_FILE) each(index, undefined);
			else
				each(index, {
					mtimeMs: stamps[at + 1] ?? 0,
					ctimeMs: stamps[at + 2] ?? 0,
					size: stamps[at + 3] ?? 0,
					ino: stamps[at + 4] ?? 0,
				});
		}
		this.dispose();
	}

	/** How many paths are statted so far, by either thread. */
	get done(): number {
		return Atomics.load(this.control, DONE);
	}

	/** Whether every path is statted (before `check`: by the worker), so that `check` stats none and waits for none. */
	get finished(): boolean {
		return this.done >= this.paths.length;
	}

	dispose(): void {
		const worker = this.worker;
		this.worker = undefined;
		if (worker) void worker.terminate();
	}
}
