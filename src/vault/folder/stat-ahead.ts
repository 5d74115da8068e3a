import { Worker } from "node:worker_threads";
import { sep } from "node:path";
import { restoreHeapFlags } from "../../shared/v8-heap-flags";
import { DECODED, NOT_BASE64, type DecodedAhead } from "./decode-ahead";

/**
 * A saved index's paths and stamps as its file holds them (`SavedNotes.savedStamps`), in memory both threads share:
 * `paths` a JSON array of strings, `numbers` a JSON string of base64 (per row its times and inode as little-endian
 * 64-bit floats, then per row its size and three lengths as 32-bit integers); `rows` how many rows the numbers hold.
 */
export interface SavedStamps {
	bytes: Uint8Array;
	paths: { start: number; end: number };
	numbers: { start: number; end: number };
	rows: number;
	/**
	 * Regions the worker decodes for the main thread first: the stamps line's base64 (`numbers` without its quotes),
	 * which it then uses itself, and the targets line's links.
	 */
	ahead?: { numbers?: DecodedAhead; links?: DecodedAhead };
}

/** How many rows a thread takes at a time. */
const BATCH = 256;
// Control words: the next row not taken yet, how many rows are done (by either thread), whether the folder is
// listed and watched (before, the worker stats only rows of folders it was told are watched), whether to stop, how
// many bytes of folder names are written (`watched`), how many rows the worker statted before `go`.
const NEXT = 0;
const DONE = 1;
const GO = 2;
const STOP = 3;
const FOLDERS = 4;
const EARLY = 5;
const CONTROL_WORDS = 6;
/** At most this many bytes of watched folders' names (each and a NUL) are handed over; the rest wait for `go`. */
const MAX_FOLDER_BYTES = 1024 * 1024;
// Per row, what the worker found: its file as saved, or not (another stamp, no file, a path not the vault's).
const SAME = 1;
const OTHER = 2;
/** How long the checker waits for a batch the worker took before it stats what is left itself. */
const PATIENCE_MS = 1000;
/** How long the worker sleeps between looks at the GO and STOP words. */
const WAKE_MS = 50;
/** The numbers' layout (`SavedFolderIndex`): 3 floats, then 4 32-bit integers (the size first) per row. */
const STAMP_FLOATS = 3;
const COUNTS = 4;
const ROW_BYTES = STAMP_FLOATS * 8 + COUNTS * 4;

/**
 * The worker: parses the saved paths and stamps itself (while the main thread lists the folder); while the listing
 * runs, stats the rows directly in each folder the main thread says it watches now (a change after the stat is then
 * reported by that folder's watcher, as after `go`); once every folder is watched, takes batches of rows and stats
 * each row's path not statted yet (lstat, as the store does), comparing with the saved stamp, until none is left. A path that is not a plain vault path (empty, `.` or `..` parts, a NUL) is
 * never statted. Plain JavaScript with `fs` alone, so it runs from any bundle (and under the tests) without a file of
 * its own.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
const { control, verdicts, folders, bytes, paths: pathsAt, numbers: numbersAt, rows, prefix, separator, ahead } = workerData;
const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
// What decodeBase64 takes: a length that is a multiple of 4, the alphabet's bytes alone, "=" padding only at the end.
function decoded(start, end, region) {
	const text = buffer.toString("latin1", start, end);
	const body = text.length - (text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0);
	const valid = text.length % 4 === 0 && !/[^A-Za-z0-9+/]/.test(body === text.length ? text : text.slice(0, body));
	const out = valid ? Buffer.from(text, "base64") : undefined;
	if (region === undefined) return out;
	if (out === undefined || out.length !== region.into.length) {
		Atomics.store(region.state, 0, ${NOT_BASE64});
		return undefined;
	}
	region.into.set(out);
	Atomics.store(region.state, 0, ${DECODED});
	return out;
}
function saved() {
	// The main thread takes these decoded as soon as they are: before the paths are parsed.
	const quoted = buffer[numbersAt.start] === 0x22 && buffer[numbersAt.end - 1] === 0x22;
	const numbers = quoted ? decoded(numbersAt.start + 1, numbersAt.end - 1, ahead?.numbers) : undefined;
	if (ahead?.links) decoded(ahead.links.start, ahead.links.end, ahead.links);
	if (numbers === undefined || numbers.length !== rows * ${ROW_BYTES}) return undefined;
	let paths;
	try {
		paths = JSON.parse(buffer.toString("utf8", pathsAt.start, pathsAt.end));
	} catch {
		return undefined;
	}
	if (!Array.isArray(paths) || paths.length !== rows) return undefined;
	return { paths, numbers };
}
const plain = /^(?!\\.\\.?(?:\\/|$))(?:[^/\\0]+\\/(?!\\.\\.?(?:\\/|$)))*[^/\\0]+$/;
function statRow(paths, numbers, row) {
	const path = paths[row];
	if (typeof path !== "string" || !plain.test(path)) return ${OTHER};
	if (separator !== "/" && (path.includes(separator) || path.includes(":"))) return ${OTHER};
	let stats;
	try {
		stats = lstatSync(prefix + (separator === "/" ? path : path.split("/").join(separator)), { throwIfNoEntry: false });
	} catch {
		return ${OTHER};
	}
	const floats = row * ${STAMP_FLOATS} * 8;
	const same =
		stats !== undefined &&
		stats.isFile() &&
		stats.mtimeMs === numbers.readDoubleLE(floats) &&
		stats.ctimeMs === numbers.readDoubleLE(floats + 8) &&
		stats.ino === numbers.readDoubleLE(floats + 16) &&
		stats.size === numbers.readUInt32LE(rows * ${STAMP_FLOATS} * 8 + row * ${COUNTS} * 4);
	return same ? ${SAME} : ${OTHER};
}
// The rows directly in each folder (its path up to the last slash; the top folder "").
function rowsByFolder(paths) {
	const byFolder = new Map();
	let folder = "";
	let list;
	for (let row = 0; row < rows; row++) {
		const path = paths[row];
		if (typeof path !== "string") continue;
		const slash = path.lastIndexOf("/");
		// Sorted paths: most rows are in the folder of the row before (no string cut, no lookup for them).
		if (list !== undefined && slash === folder.length && path.startsWith(folder)) {
			list.push(row);
			continue;
		}
		folder = slash < 0 ? "" : path.slice(0, slash);
		list = byFolder.get(folder);
		if (list === undefined) byFolder.set(folder, (list = []));
		list.push(row);
	}
	return byFolder;
}
// Before go: the rows of each folder named watched (names NUL-ended, in \`folders\` up to the FOLDERS word).
function statWatched(found) {
	const byFolder = rowsByFolder(found.paths);
	const names = Buffer.from(folders.buffer, folders.byteOffset, folders.byteLength);
	let read = 0;
	while (Atomics.load(control, ${STOP}) === 0) {
		const written = Atomics.load(control, ${FOLDERS});
		if (written > read) {
			const told = names.toString("utf8", read, written).split("\0");
			read = written;
			// Every name ends with a NUL: the last part is empty.
			for (let at = 0; at < told.length - 1; at++) {
				const list = byFolder.get(told[at]);
				if (list === undefined) continue;
				byFolder.delete(told[at]);
				let early = 0;
				for (const row of list) {
					// Once every folder is watched, the batches (in row order, shared with the checker) take over.
					if (Atomics.load(control, ${STOP}) !== 0 || Atomics.load(control, ${GO}) !== 0) break;
					Atomics.store(verdicts, row, statRow(found.paths, found.numbers, row));
					early++;
				}
				Atomics.add(control, ${EARLY}, early);
				if (early < list.length) return;
			}
			continue;
		}
		if (Atomics.load(control, ${GO}) !== 0) return;
		Atomics.wait(control, ${FOLDERS}, written, ${WAKE_MS});
	}
}
const found = saved();
if (found) {
	statWatched(found);
	while (Atomics.load(control, ${STOP}) === 0) {
		const start = Atomics.add(control, ${NEXT}, ${BATCH});
		if (start >= rows) break;
		const end = Math.min(rows, start + ${BATCH});
		for (let row = start; row < end; row++)
			if (Atomics.load(verdicts, row) === 0) Atomics.store(verdicts, row, statRow(found.paths, found.numbers, row));
		Atomics.add(control, ${DONE}, end - start);
		Atomics.notify(control, ${DONE});
	}
}
parentPort.postMessage("done");
`;

/**
 * Checks a saved index's stamps on a worker thread, started before the folder is listed (a later session's notes):
 * the worker parses the saved paths and stamps meanwhile, and stats each row's file once its folder is watched
 * (`watched`, as the listing goes; every row once `go` says every folder is): a change after its stat is then
 * reported as any later change is. It compares each file with the row's saved stamp itself. The checker (`check`) then takes the rows the worker has not taken yet itself, batch by batch from
 * the same counter: the two threads stat the rest side by side, and nothing waits for a worker that is slow to start.
 */
export class StatAhead {
	private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT));
	private readonly verdicts: Uint8Array;
	/** The names of the folders watched so far (`watched`), each followed by a NUL. */
	private readonly folders: Buffer;
	private foldersWritten = 0;
	private went = false;
	private worker: Worker | undefined;
	readonly rows: number;

	/** `prefix`: what makes a saved path absolute (the vault's root and a separator). */
	constructor(saved: SavedStamps, prefix: string) {
		this.rows = saved.rows;
		this.verdicts = new Uint8Array(new SharedArrayBuffer(Math.max(1, saved.rows)));
		// No more than the saved paths' own bytes (a folder's name is in every path of a note in it).
		const folderBytes = Math.min(MAX_FOLDER_BYTES, Math.max(1, saved.paths.end - saved.paths.start));
		this.folders = Buffer.from(new SharedArrayBuffer(folderBytes));
		try {
			const worker = new Worker(WORKER_SOURCE, {
				eval: true,
				workerData: {
					control: this.control,
					verdicts: this.verdicts,
					folders: this.folders,
					bytes: saved.bytes,
					paths: saved.paths,
					numbers: saved.numbers,
					rows: saved.rows,
					ahead: saved.ahead,
					prefix,
					separator: sep,
				},
			});
			worker.unref();
			// Its start may reset this thread's heap flags (src/shared/v8-heap-flags.ts); `check` sets them again too,
			// since this thread, busy in it, hears of the online event only afterwards.
			worker.once("online", restoreHeapFlags);
			worker.on("error", () => this.dispose());
			worker.on("message", () => this.dispose());
			this.worker = worker;
		} catch {
			// No worker: the checker stats every row itself.
		}
	}

	/**
	 * The folder (a vault path, "" the top) is watched now, and so is every folder above it: the worker may stat the
	 * saved rows directly in it before `go`. A name that does not fit what is left of the names' memory is not told.
	 */
	watched(folder: string): void {
		if (this.went || !this.worker) return;
		const end = this.foldersWritten + Buffer.byteLength(folder) + 1;
		if (end > this.folders.length) return;
		this.folders.write(folder, this.foldersWritten, "utf8");
		this.folders[end - 1] = 0;
		this.foldersWritten = end;
		Atomics.store(this.control, FOLDERS, end);
		Atomics.notify(this.control, FOLDERS);
	}

	/** Every folder is listed and watched: the worker may stat every row. */
	go(): void {
		this.went = true;
		Atomics.store(this.control, GO, 1);
		Atomics.notify(this.control, GO);
		Atomics.notify(this.control, FOLDERS);
	}

	/**
	 * Calls `each` once for every row: `same` when the worker found its file as saved, false for a row the caller is
	 * to stat itself (taken by this thread, found otherwise by the worker, or not done by it in time). Returns when
	 * every row has had its call.
	 */
	check(each: (row: number, same: boolean) => void): void {
		if (this.worker) restoreHeapFlags();
		const total = this.rows;
		const verdicts = this.verdicts;
		const mine = new Uint8Array(total);
		for (;;) {
			const start = Atomics.add(this.control, NEXT, BATCH);
			if (start >= total) break;
			const end = Math.min(total, start + BATCH);
			for (let row = start; row < end; row++) {
				mine[row] = 1;
				// Statted by the worker before `go` (its folder watched), or to be statted by the caller.
				each(row, Atomics.load(verdicts, row) === SAME);
			}
			Atomics.add(this.control, DONE, end - start);
		}
		// The worker's batches: its writes are seen once the count read says they are done.
		let done = Atomics.load(this.control, DONE);
		while (done < total && Atomics.wait(this.control, DONE, done, PATIENCE_MS) !== "timed-out")
			done = Atomics.load(this.control, DONE);
		// A row the worker has no verdict for yet (it did not finish in time) is statted by the caller.
		for (let row = 0; row < total; row++) if (mine[row] !== 1) each(row, Atomics.load(verdicts, row) === SAME);
		this.dispose();
	}

	/**
	 * Calls `each` (as `check` does) for the rows from `from` on that the worker has found so far, in row order, up to
	 * the first it has not: returns that row. Statting none itself, it waits for nothing.
	 */
	foundSoFar(from: number, each: (row: number, same: boolean) => void): number {
		let row = from;
		for (; row < this.rows; row++) {
			const verdict = Atomics.load(this.verdicts, row);
			if (verdict === 0) break;
			each(row, verdict === SAME);
		}
		return row;
	}

	/** How many rows are statted so far, by either thread. */
	get done(): number {
		return Atomics.load(this.control, DONE);
	}

	/** How many rows the worker statted before `go` (of folders it was told are watched). */
	get early(): number {
		return Atomics.load(this.control, EARLY);
	}

	/** Whether every row is statted (before `check`: by the worker), so that `check` stats none and waits for none. */
	get finished(): boolean {
		return this.done >= this.rows;
	}

	dispose(): void {
		Atomics.store(this.control, STOP, 1);
		Atomics.notify(this.control, GO);
		Atomics.notify(this.control, FOLDERS);
		const worker = this.worker;
		this.worker = undefined;
		if (worker) void worker.terminate();
	}
}
