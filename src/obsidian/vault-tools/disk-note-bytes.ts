import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { FileSystemAdapter, type DataAdapter } from "obsidian";

/** A note changed this recently is read through the vault (its cache may be ahead of a write still under way). */
export const RECENT_CHANGE_MS = 10_000;
/** After this many failed reads in a row (no success between), the disk is not tried again. */
const FAILURES_TO_GIVE_UP = 64;

/** The parts of a `TFile` the reader looks at. */
export interface DiskNoteFile {
	path: string;
	stat: { mtime: number };
}

/**
 * A note's bytes read from the disk at once (valid until the next read: the caller copies them), on the desktop: Obsidian's `FileSystemAdapter` (obsidian.d.ts) gives the
 * vault's folder (`getBasePath`), and a desktop plugin may use Node's APIs (docs.obsidian.md, Reference/Manifest:
 * `isDesktopOnly`, "Whether your plugin uses NodeJS or Electron APIs"; this plugin is desktop only and uses `node:fs`
 * already). The caller checks its slice of the pace after each read: a note in the system's file cache is read in
 * some microseconds of the main thread, where a `cachedRead` (Node's `fs.promises.readFile` in Obsidian's adapter)
 * costs about three times that in promises and callbacks and its text is written into bytes again; a note not in
 * that cache holds the thread for a read from the disk (with 64 reads between checks, at 100k and a load of 2-4, a
 * search had tasks of up to 816 ms by the clock, 170 ms of the main thread's CPU).
 *
 * Undefined (the caller reads through the vault) off the desktop, for a note changed in the last `RECENT_CHANGE_MS`
 * (obsidian.d.ts `cachedRead` answers "from cache if available": the vault's copy of a note being saved may be ahead
 * of the disk), when the read fails, and from the `FAILURES_TO_GIVE_UP`th failure in a row on.
 */
export function diskNoteBytes(
	adapter: DataAdapter,
	now: () => number = Date.now,
): ((file: DiskNoteFile) => Buffer | undefined) | undefined {
	if (!(adapter instanceof FileSystemAdapter)) return undefined;
	const root = adapter.getBasePath();
	let failures = 0;
	return (file) => {
		if (failures >= FAILURES_TO_GIVE_UP || now() - file.stat.mtime < RECENT_CHANGE_MS) return undefined;
		try {
			const bytes = readWhole(join(root, file.path));
			failures = 0;
			return bytes;
		} catch {
			failures++;
			return undefined;
		}
	};
}

/** The first size of the buffer notes are read into (it doubles for a longer note, and stays so up to the most kept). */
const FIRST_READ_BYTES = 64 * 1024;
/** A buffer grown past this for one long note is not kept for the next reads (memory held for the session). */
const MOST_KEPT_BYTES = 4 * 1024 * 1024;
let readBuffer: Buffer | undefined;

/**
 * The file's bytes in one buffer used for every read (valid until the next read): no buffer outside the heap per
 * note, 376 MB of them at 100k, each counted towards the next garbage collection of the thread the user types on.
 */
function readWhole(at: string): Buffer {
	const descriptor = openSync(at, "r");
	try {
		let into = (readBuffer ??= Buffer.allocUnsafeSlow(FIRST_READ_BYTES));
		let length = 0;
		for (;;) {
			if (length === into.length) {
				const larger = Buffer.allocUnsafeSlow(into.length * 2);
				into.copy(larger);
				into = larger;
				if (larger.length <= MOST_KEPT_BYTES) readBuffer = larger;
			}
			const read = readSync(descriptor, into, length, into.length - length, null);
			if (read === 0) return into.subarray(0, length);
			length += read;
		}
	} finally {
		closeSync(descriptor);
	}
}
