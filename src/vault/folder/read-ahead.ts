import { Worker } from "node:worker_threads";
import { restoreHeapFlags } from "../../shared/v8-heap-flags";
import type { Stamp } from "./stamp";

/** How many files the worker reads ahead of the reader at most (4 MB of slots). */
const SLOTS = 128;
/** The largest file a slot holds (bigger ones are read by the reader itself, as is a file that grew while read). */
const SLOT_BYTES = 32 * 1024;
/** A worker not asked for a file for this long goes (its thread and heap are about 10 MB). */
const IDLE_MS = 1000;

// Control words: how many files of the current list are in their slots, how many the reader is done with, the
// list's number the reader wants read (the worker leaves a list as soon as it is no longer that one), and the number
// of the last list the worker left (it writes nothing of a list after that); then the position of the first file
// neither the worker nor the reader has begun reading (each takes a file by moving it past, the reader taking over
// the files the worker has not begun rather than waiting for them).
const WRITTEN = 0;
const TAKEN = 1;
const WANTED = 2;
const LEFT = 3;
const BEGUN = 4;
const CONTROL_WORDS = 5;
/** How long the reader waits for the worker to make progress before it reads alone. */
const PATIENCE_MS = 1000;
// Each slot's header: the length read (or NOT_READ), then the file's stamp.
const HEADER = 5;
const NOT_READ = -1;

/**
 * The worker: for each list it is given, reads every file of it (open, fstat, read, close) into the next free slot
 * in turn, at most SLOTS ahead of the reader, until the list is done or another one is wanted. Plain JavaScript with
 * `fs` alone, so it runs from any bundle (and under the tests) without a file of its own.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { openSync, fstatSync, readSync, closeSync } = require("node:fs");
const { control, headers, data, SLOTS, SLOT_BYTES } = workerData;
const bytes = Buffer.from(data);
function readList(list, paths) {
	for (let next = 0; next < paths.length; next++) {
		for (;;) {
			if (Atomics.load(control, ${WANTED}) !== list) return;
			const taken = Atomics.load(control, ${TAKEN});
			if (next - taken < SLOTS) break;
			Atomics.wait(control, ${TAKEN}, taken, 50);
		}
		// The reader took this file over (and any before it) rather than wait: go on from the first it left.
		const begun = Atomics.compareExchange(control, ${BEGUN}, next, next + 1);
		if (begun !== next) {
			next = begun - 1;
			Atomics.store(control, ${WRITTEN}, begun);
			Atomics.notify(control, ${WRITTEN});
			continue;
		}
		const slot = next % SLOTS;
		const at = slot * ${HEADER};
		let length = ${NOT_READ};
		let descriptor;
		try {
			descriptor = openSync(paths[next], "r");
			const stats = fstatSync(descriptor);
			headers[at + 1] = stats.mtimeMs;
			headers[at + 2] = stats.ctimeMs;
			headers[at + 3] = stats.size;
			headers[at + 4] = stats.ino;
			if (stats.isFile() && stats.size < SLOT_BYTES) {
				// One byte more than the size: a file that grew since fstat is left to the reader.
				const read = readSync(descriptor, bytes, slot * SLOT_BYTES, stats.size + 1, 0);
				if (read === stats.size) length = read;
			}
		} catch {
			length = ${NOT_READ};
		} finally {
			if (descriptor !== undefined) try { closeSync(descriptor); } catch {}
		}
		headers[at] = length;
		Atomics.store(control, ${WRITTEN}, next + 1);
		Atomics.notify(control, ${WRITTEN});
	}
}
parentPort.on("message", ({ list, paths }) => {
	readList(list, paths);
	Atomics.store(control, ${LEFT}, list);
	Atomics.notify(control, ${LEFT});
});
`;

/** A file the worker read: its bytes (lent until the next `take` or `stop`) and the stamp of the text they are. */
export interface ReadAheadFile {
	bytes: Buffer;
	stamp: Stamp;
}

/**
 * Reads a list of files on a worker thread, ahead of a reader that goes through them in order on this one: the
 * system calls of reading a vault's notes (about half of a first pass over them) then run beside the scanning of
 * the notes read before. Synchronous for the reader (it waits for a file not read yet with `Atomics.wait`), so the
 * store's readers stay synchronous. One worker, made on first use and kept (unreferenced) for later lists.
 */
export class ReadAhead {
	private worker: Worker | undefined;
	private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT));
	private readonly headers = new Float64Array(new SharedArrayBuffer(SLOTS * HEADER * Float64Array.BYTES_PER_ELEMENT));
	private readonly data = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
	private readonly bytes = Buffer.from(this.data);
	/** The number of the last list started, and whether it is still being read. */
	private list = 0;
	private reading = false;
	private length = 0;
	/** The position of the next file the reader may take. */
	private next = 0;
	private failed = false;
	/** Whether the worker made last is known to run (its heap is configured: `restoreHeapFlags` was called after). */
	private running = false;
	/** When a file was last taken, and the timer that lets an idle worker go. */
	private lastTaken = 0;
	private idleCheck: ReturnType<typeof setInterval> | undefined;

	/**
	 * Of the list being read (zeros without one): how many files the worker or the reader has begun reading, and how
	 * many the worker is done with (read, left unread, or taken over by the reader).
	 */
	get progress(): { begun: number; written: number } {
		if (!this.reading) return { begun: 0, written: 0 };
		return { begun: Atomics.load(this.control, BEGUN), written: Atomics.load(this.control, WRITTEN) };
	}

	/** Whether a list is being read (and `take` may answer). */
	get active(): boolean {
		return this.reading;
	}

	/** Starts reading `paths` (absolute) in order; false when no worker could be had (the reader reads alone). */
	start(paths: readonly string[]): boolean {
		this.stop();
		const worker = this.ensureWorker();
		if (!worker || !this.leftLast()) return false;
		this.list++;
		this.reading = true;
		this.length = paths.length;
		this.next = 0;
		Atomics.store(this.control, WRITTEN, 0);
		Atomics.store(this.control, TAKEN, 0);
		Atomics.store(this.control, BEGUN, 0);
		Atomics.store(this.control, WANTED, this.list);
		worker.postMessage({ list: this.list, paths });
		return true;
	}

	/**
	 * The file at `position` of the list, waiting for the worker to read it if it has begun to; undefined when it is
	 * behind the reader (or past the list), when the worker has not begun it (the reader takes it over and reads it
	 * itself, rather than wait idle: the worker goes on after it), or the worker could not read it whole into its
	 * slot (the reader reads it itself). The bytes are lent until `release`: files skipped on the way are let go.
	 */
	take(position: number): ReadAheadFile | undefined {
		if (!this.reading || position < this.next || position >= this.length) return undefined;
		this.lastTaken = performance.now();
		this.next = position + 1;
		Atomics.store(this.control, TAKEN, position);
		Atomics.notify(this.control, TAKEN);
		if (Atomics.load(this.control, WRITTEN) <= position) {
			for (let begun = Atomics.load(this.control, BEGUN); begun <= position;) {
				const was = Atomics.compareExchange(this.control, BEGUN, begun, position + 1);
				if (was === begun) return undefined;
				begun = was;
			}
		}
		for (;;) {
			const written = Atomics.load(this.control, WRITTEN);
			if (written > position) break;
			if (Atomics.wait(this.control, WRITTEN, written, PATIENCE_MS) === "timed-out") {
				// The worker is stuck or gone (its error event cannot arrive while this thread waits): read alone.
				this.failed = true;
				this.stop();
				return undefined;
			}
		}
		if (!this.running) {
			// It wrote a file, so it runs: its start may have reset this thread's heap flags (before its online event,
			// which this thread, waiting here, would hear of only after the whole pass).
			this.running = true;
			restoreHeapFlags();
		}
		const at = (position % SLOTS) * HEADER;
		const length = this.headers[at] ?? NOT_READ;
		if (length < 0) return undefined;
		const stamp: Stamp = {
			mtimeMs: this.headers[at + 1] ?? 0,
			ctimeMs: this.headers[at + 2] ?? 0,
			size: this.headers[at + 3] ?? 0,
			ino: this.headers[at + 4] ?? 0,
		};
		const offset = (position % SLOTS) * SLOT_BYTES;
		return { bytes: this.bytes.subarray(offset, offset + length), stamp };
	}

	/** Lets the file at `position` go: its slot may be read into again. */
	release(position: number): void {
		if (!this.reading) return;
		Atomics.store(this.control, TAKEN, position + 1);
		Atomics.notify(this.control, TAKEN);
	}

	/** Stops the current list: the worker leaves it at its next file. */
	stop(): void {
		if (!this.reading) return;
		this.reading = false;
		this.length = 0;
		this.next = 0;
		Atomics.store(this.control, WANTED, 0);
		Atomics.notify(this.control, TAKEN);
	}

	dispose(): void {
		this.endWorker();
		this.failed = true;
	}

	private endWorker(): void {
		this.stop();
		clearInterval(this.idleCheck);
		this.idleCheck = undefined;
		const worker = this.worker;
		this.worker = undefined;
		if (!worker) return;
		// Once it has left its list it writes nothing more: a later worker may use the slots.
		if (!this.leftLast()) this.failed = true;
		void worker.terminate();
	}

	/** Waits for the worker to have left the last list (it writes into the slots until then); false when it does not. */
	private leftLast(): boolean {
		for (;;) {
			const left = Atomics.load(this.control, LEFT);
			if (left === this.list) return true;
			if (Atomics.wait(this.control, LEFT, left, PATIENCE_MS) === "timed-out") {
				this.failed = true;
				return false;
			}
		}
	}

	private ensureWorker(): Worker | undefined {
		if (this.failed) return undefined;
		if (this.worker) return this.worker;
		try {
			const worker = new Worker(WORKER_SOURCE, {
				eval: true,
				workerData: { control: this.control, headers: this.headers, data: this.data, SLOTS, SLOT_BYTES },
				resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
			});
			// Never what keeps the process alive.
			worker.unref();
			this.running = false;
			worker.once("online", () => {
				this.running = true;
				restoreHeapFlags();
			});
			this.lastTaken = performance.now();
			this.idleCheck = setInterval(() => {
				if (performance.now() - this.lastTaken > IDLE_MS) this.endWorker();
			}, IDLE_MS);
			this.idleCheck.unref();
			worker.on("error", () => {
				this.failed = true;
				this.worker = undefined;
			});
			this.worker = worker;
			return worker;
		} catch {
			this.failed = true;
			return undefined;
		}
	}
}

/**
 * Vaults with fewer notes are read on this thread alone: their pass is short next to the worker's start (a thread
 * with a Node environment: about 40 ms of CPU before it reads its first file) and its memory (about 10 MB while it
 * lives). The worker's start no longer grows this thread's young generation (`restoreHeapFlags`), but on a quiet
 * 2-core machine a worker from 4,000 notes made every 10k row slower (builds alternating, 2 runs, load 0.4-1.2:
 * first-session backlinks 529 -> 630 ms, later-session tags 280 -> 359 ms, both sessions' calls competing with the
 * warm-up's worker for the cores), so it starts at 30,000 notes as before. Measured again with the reader taking over
 * the files the worker has not begun, for the first session's tags pass alone from 4,000 notes (10k notes, builds
 * alternating, 3 runs, load 4.5-4.9): that call took 853 ms against 548, CPU 750 against 510 ms; its main thread's CPU
 * fell only from 330 to 290 ms (it catches up with the worker and reads most files itself).
 */
export const READ_AHEAD_FROM_NOTES = 30_000;

/** Reads in a row, in the notes' order, after which the rest of the unread notes are read ahead. */
const STREAK = 16;
/** How many notes one list holds at most (the next list starts when the reader gets to its end). */
const LIST_NOTES = 16_384;
/** How far past the expected note a reader's note is looked for in the list (notes it skips are let go). */
const LOOK_FORWARD = SLOTS;

/**
 * When a reader goes through the notes in their order, reading each for the first time (a vault's first pass over
 * them: a tags overview, a search, the warm-up), reads the next unread notes ahead on a worker (`ReadAhead`).
 * What was read ahead is used only while nothing about the vault changed since (`version`): then it is what
 * reading the note at the moment the worker read it gave, and a change after that is found by its stamp as usual.
 */
export class SequentialReadAhead {
	private reader: ReadAhead | undefined;
	/** The notes of the list being read ahead, and where in it the reader is. */
	private listed: readonly string[] = [];
	private cursor = 0;
	private version = -1;
	/** The position (in the notes' order) of the note read last, and how many were read in a row before it. */
	private last = -1;
	private streak = 0;

	constructor(
		/** The notes, sorted by `comparePaths`. */
		private readonly notes: () => readonly string[],
		/** Whether nothing is known of the note yet (it is read for the first time). */
		private readonly unread: (path: string) => boolean,
		private readonly absolute: (path: string) => string,
		/** Fewer notes than this are not read ahead. */
		private readonly fromNotes = READ_AHEAD_FROM_NOTES,
	) {}

	/**
	 * The note's bytes and stamp as the worker read them, given to `use` (lent for that call alone); undefined when
	 * they are not at hand (the caller reads the note itself). `version` changes with anything found changed in the vault.
	 */
	use<T>(path: string, version: number, use: (file: ReadAheadFile) => T): { value: T } | undefined {
		this.follow(path, version);
		const reader = this.reader;
		if (!reader?.active || version !== this.version) return undefined;
		const end = Math.min(this.listed.length, this.cursor + LOOK_FORWARD);
		let position = this.cursor;
		while (position < end && this.listed[position] !== path) position++;
		if (position === end) return undefined;
		this.cursor = position + 1;
		const file = reader.take(position);
		if (!file) return undefined;
		try {
			return { value: use(file) };
		} finally {
			reader.release(position);
		}
	}

	dispose(): void {
		this.reader?.dispose();
		this.reader = undefined;
	}

	/** Counts the reads in the notes' order, and starts reading ahead after a run of them. */
	private follow(path: string, version: number): void {
		const notes = this.notes();
		if (notes.length < this.fromNotes) return;
		if (version !== this.version) {
			this.reader?.stop();
			this.version = version;
		}
		let position = this.last + 1;
		while (position < notes.length && position <= this.last + 4 && notes[position] !== path) position++;
		if (notes[position] === path) this.streak++;
		else {
			position = positionOf(notes, path);
			this.streak = 0;
		}
		this.last = position;
		const listEnded = this.cursor >= this.listed.length;
		if (this.streak < STREAK || position < 0 || (this.reader?.active === true && !listEnded)) return;
		const listed: string[] = [];
		for (let next = position + 1; next < notes.length && listed.length < LIST_NOTES; next++) {
			const note = notes[next] ?? "";
			if (this.unread(note)) listed.push(note);
		}
		if (listed.length < STREAK) return;
		this.reader ??= new ReadAhead();
		if (!this.reader.start(listed.map(this.absolute))) return;
		this.listed = listed;
		this.cursor = 0;
	}
}

/** The position of `path` in `notes` (sorted by code units), or -1. */
function positionOf(notes: readonly string[], path: string): number {
	let low = 0;
	let high = notes.length - 1;
	while (low <= high) {
		const middle = (low + high) >> 1;
		const note = notes[middle] ?? "";
		if (note === path) return middle;
		if (note < path) low = middle + 1;
		else high = middle - 1;
	}
	return -1;
}
