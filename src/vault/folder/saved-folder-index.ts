import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { endianness } from "node:os";
import { dirname, isAbsolute, join, relative } from "node:path";
import type { FrontmatterFact, TagFact } from "../markdown/note-model";
import { decodeBase64 } from "../../shared/base64-bytes";
import { comparePaths } from "./folder-note-store";
import { DecodedAhead } from "./decode-ahead";
import { SavedTargets, linksRegion, targetsLine, targetsValue } from "./saved-targets";
import type { Stamp } from "./stamp";
import type { SavedStamps } from "./stat-ahead";

/** Bumped whenever what is saved, or how a note's text becomes it, changes: an older file is then not used. */
const FORMAT = 7;
const TAB = 0x09;
const LINE_FEED = 0x0a;

/** What a whole-vault question needs of one note (the folder index's summary), with the stamp it was made at. */
export interface SavedNote {
	path: string;
	stamp: Stamp;
	/** Each link path once. */
	linkpaths: readonly string[];
	tags: readonly TagFact[];
	frontmatter?: FrontmatterFact;
	/** Where its links lead, each once, for the files `FilesSignature` describes; unknown when left out. */
	targets?: readonly string[];
}

/** Which files a vault holds, in a few numbers (link targets are saved for one set of files). */
export interface FilesSignature {
	count: number;
	/** The sum and the exclusive or of every path's 32-bit FNV-1a hash: the same whatever the order. */
	sum: number;
	xor: number;
}

export interface SavedFolderIndexOptions {
	/** The file (its folder is made 0700, the file 0600). */
	file: string;
	/** The vault's real path and the program's version: a file saved for another vault or version is not used. */
	vault: string;
	version: string;
}

/**
 * The folder index's summaries of every note, saved between sessions, so that a later session on the vault answers
 * whole-vault questions (backlinks, tags, properties) after checking each note's stamp instead of reading every note.
 * A note whose file changed since (its stamp differs) is read again; a file that cannot be read, was saved by another
 * version or for another vault is not used, and a note whose line holds anything unexpected is read instead.
 * Frontmatter values that JSON cannot carry exactly (`.inf`, dates, `__proto__` keys) leave their note unsaved.
 *
 * The file is a line of JSON for the header, then a line per note: (tab-separated, JSON, which never holds a raw tab
 * or line feed) its link paths, its tags (tag, line, tag, line…) and its frontmatter (or 0); then three lines: where
 * every note's links led among the files the header's signature describes (or 0), every note's path (a JSON array,
 * sorted), and per note its stamp and its line's fields' lengths in bytes (`ROW_BYTES` a note, as a JSON string of
 * base64, decoded natively rather than parsed number by number: every note's times and inode as little-endian 64-bit
 * floats, then every note's size and three lengths as little-endian 32-bit unsigned integers; a line starts where the
 * one before it ends, the first after the head line); and last, where
 * the first of those three starts. `load` reads the head and those three lines alone (a third of the file at 100k
 * notes) and parses the paths and numbers (two native parses: no pass over every line's bytes, no parse per note);
 * the notes' lines are read when a field is first asked, and a note's fields parsed then (`SavedNotes`): taking up
 * the summaries of 100k notes makes no object per link, tag or property before one is wanted. A field whose bytes are
 * not between the separators the numbers say (the file edited) is not used; nor are the notes' lines of a file
 * replaced since it was loaded.
 *
 * Where links led is numbers, not paths (`SavedTargets`): `{"files":[…],"links":"…"}`, the paths of the files linked
 * to that are no saved note (sorted), and in base64, little-endian 32-bit integers: per note how many files its links
 * led to (-1: not saved), then those files, a saved note by its row and another file by the saved notes' count plus
 * its place in `files`. Backlinks of a later session turn that around in two passes over typed arrays.
 */
export class SavedFolderIndex {
	constructor(private readonly options: SavedFolderIndexOptions) {}

	/**
	 * The saved notes, or undefined when there is no usable file. Only the head line and the last three lines (the
	 * paths, stamps and targets: what a later session's first answer needs) are read now; the notes' lines (two thirds
	 * of the file) when a note's field is first asked, from the same file (`SavedNotes`).
	 */
	load(): SavedNotes | undefined {
		let descriptor: number | undefined;
		try {
			descriptor = openSync(this.options.file, "r");
			const stats = fstatSync(descriptor);
			const head = readHead(descriptor, stats.size);
			if (!head) return undefined;
			const parsed = parseJson(head.bytes, 0, head.bytes.length);
			if (!isRecord(parsed) || parsed.format !== FORMAT) return undefined;
			if (parsed.vault !== this.options.vault || parsed.version !== this.options.version) return undefined;
			const from = head.bytes.length + 1;
			const tail = readTail(descriptor, stats.size, from);
			const files = isFilesSignature(parsed.files) ? parsed.files : undefined;
			const linesEnd = tail?.offset ?? 0;
			// The notes' lines alone: a read is cut short where the last three lines start.
			return new SavedNotes(tail, from, files, (start, end) =>
				start < linesEnd ? this.bytesOf(stamp(stats), start, Math.min(end, linesEnd)) : undefined,
			);
		} catch {
			return undefined;
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
		}
	}

	/** The file's bytes from `start` to `end`, when it is still the file of this stamp (it is only ever replaced whole). */
	private bytesOf(expected: Stamp, start: number, end: number): Buffer | undefined {
		let descriptor: number | undefined;
		try {
			descriptor = openSync(this.options.file, "r");
			const stats = fstatSync(descriptor);
			if (!sameStamp(stamp(stats), expected)) return undefined;
			return readRange(descriptor, start, end);
		} catch {
			return undefined;
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
		}
	}

	/**
	 * Writes the notes (those JSON carries exactly) to a new file that then takes the old one's name, a few hundred at
	 * a time (the text of 100k notes' summaries at once would add its size to the peak memory).
	 */
	save(notes: Iterable<SavedNote>, files?: FilesSignature): void {
		// A note over 4 GB is left out too: its size would not fit the 32 bits saved for it.
		const saved = [...notes].filter(
			(note) => (!note.frontmatter || carriedExactly(note.frontmatter)) && note.stamp.size <= MAX_SIZE,
		);
		// Sorted by path, so a later session finds a note's row by a binary search (no map of every path).
		if (!saved.every((note, at) => at === 0 || comparePaths(saved[at - 1]?.path ?? "", note.path) < 0))
			saved.sort((a, b) => comparePaths(a.path, b.path));
		const head = JSON.stringify({
			format: FORMAT,
			vault: this.options.vault,
			version: this.options.version,
			...(files ? { files } : {}),
		});
		const temporary = `${this.options.file}.${process.pid}.tmp`;
		let descriptor: number | undefined;
		try {
			mkdirSync(dirname(this.options.file), { recursive: true, mode: 0o700 });
			descriptor = openSync(temporary, "wx", 0o600);
			const headLine = `${head}\n`;
			writeSync(descriptor, headLine);
			let offset = Buffer.byteLength(headLine);
			const rows = Buffer.alloc(saved.length * ROW_BYTES);
			const countsAt = saved.length * STAMP_FLOATS * 8;
			let batch = "";
			let written = 0;
			for (let row = 0; row < saved.length; row++) {
				const note = saved[row];
				const fields = fieldsOf(note);
				const { mtimeMs, ctimeMs, size, ino } = note.stamp;
				[mtimeMs, ctimeMs, ino].forEach((number, at) =>
					rows.writeDoubleLE(number, (row * STAMP_FLOATS + at) * 8),
				);
				const lengths = fields.map((field) => Buffer.byteLength(field));
				[size, ...lengths].forEach((count, at) =>
					rows.writeUInt32LE(count, countsAt + (row * COUNTS + at) * 4),
				);
				offset += lengths.reduce((sum, length) => sum + length + 1, 0);
				batch += `${fields.join("\t")}\n`;
				if (++written % ROWS_PER_WRITE === 0) {
					writeSync(descriptor, batch);
					batch = "";
				}
			}
			if (batch !== "") writeSync(descriptor, batch);
			writeSync(descriptor, `${files ? targetsLine(saved) : "0"}\n`);
			writeSync(descriptor, `${JSON.stringify(saved.map((note) => note.path))}\n`);
			writeSync(descriptor, `${JSON.stringify(rows.toString("base64"))}\n`);
			// Where the targets line starts: a later session reads the last lines at once, not the notes' lines.
			writeSync(descriptor, `${offset}\n`);
			closeSync(descriptor);
			descriptor = undefined;
			renameSync(temporary, this.options.file);
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
			rmSync(temporary, { force: true });
		}
	}
}

/** The fields of a note's line: link paths, tags, frontmatter. */
const FIELDS = 3;
/** Per note in the file's last line: its times and inode (64-bit floats), its size and its fields' lengths (32 bits). */
const STAMP_FLOATS = 3;
const COUNTS = 1 + FIELDS;
const ROW_BYTES = STAMP_FLOATS * 8 + COUNTS * 4;
const MAX_SIZE = 0xffffffff;

/**
 * The notes of a saved index's file, each field read from its line when asked (a row number: its order in the file).
 * Holds the file's last three lines (`tail`: the bytes from file offset `tail.offset` to its end); the lines before
 * them are read by `readLines` a block at a time when a field in the block is first asked (undefined: the file is no
 * longer the one loaded): a warm-up going through the notes reads a megabyte now and then, not 36 MB at its first note.
 */
export class SavedNotes {
	/** Each row's path. */
	private paths: readonly string[] = [];
	/** Per row: its size and its fields' lengths in bytes (`COUNTS`). */
	private counts: Uint32Array = new Uint32Array(0);
	/** Per row: where its line starts in the file. */
	private starts: Float64Array = new Float64Array(0);
	/** Where the targets, paths and numbers lines start in `tail.bytes`; undefined when the file has no three lines. */
	private readonly lines: { targets: number; paths: number; numbers: number } | undefined;
	/** The targets line parsed (null: it holds none usable); undefined until asked. */
	private linkTargets: SavedTargets | null | undefined;
	/** The stamps' and links' base64, decoded by the `StatAhead` worker when one runs (`savedStamps`). */
	private ahead: { numbers?: DecodedAhead; links?: DecodedAhead } | undefined;
	/** Blocks of the notes' lines by number (`LINES_BLOCK` bytes from the file's start each; null: unreadable). */
	private readonly blocks = new Map<number, Buffer | null>();

	/** `files`: the files the saved link targets were found among. */
	constructor(
		private readonly tail: { bytes: Buffer; offset: number } | undefined,
		private readonly from: number,
		readonly files: FilesSignature | undefined,
		private readonly readLines: (start: number, end: number) => Buffer | undefined,
	) {
		if (tail?.bytes[tail.bytes.length - 1] !== LINE_FEED) return;
		// Exactly three line feeds (`readTail`), the last one the file's last byte.
		const paths = tail.bytes.indexOf(LINE_FEED) + 1;
		const numbers = tail.bytes.indexOf(LINE_FEED, paths) + 1;
		this.lines = { targets: 0, paths, numbers };
	}

	/**
	 * The paths and stamps lines as they are in the file, in memory a worker can share (`StatAhead` parses them
	 * itself), with the rows the stamps line's length makes; undefined when the file has no such lines.
	 */
	savedStamps(): SavedStamps | undefined {
		if (!this.lines || !this.tail) return undefined;
		let bytes: Uint8Array = this.tail.bytes;
		if (!(bytes.buffer instanceof SharedArrayBuffer)) {
			const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
			shared.set(bytes);
			bytes = shared;
		}
		const numbers = { start: this.lines.numbers, end: bytes.length - 1 };
		const encoded = numbers.end - numbers.start - 2;
		if (encoded < 0 || encoded % 4 !== 0) return undefined;
		let padding = 0;
		while (padding < 2 && bytes[numbers.end - 2 - padding] === EQUALS) padding++;
		const decoded = (encoded / 4) * 3 - (encoded > 0 ? padding : 0);
		if (decoded % ROW_BYTES !== 0) return undefined;
		const links = linksRegion(bytes.subarray(this.lines.targets, this.lines.paths - 1));
		this.ahead = {
			numbers: DecodedAhead.of(bytes, numbers.start + 1, numbers.end - 1),
			links: links && DecodedAhead.of(bytes, this.lines.targets + links.start, this.lines.targets + links.end),
		};
		return {
			bytes,
			paths: { start: this.lines.paths, end: this.lines.numbers - 1 },
			numbers,
			rows: decoded / ROW_BYTES,
			ahead: this.ahead,
		};
	}

	/**
	 * Calls `each` with every saved note's path, stamp and row, in the file's order; none when the file's last three
	 * lines are not the targets, paths and numbers of its notes (a file cut short). `listed`: the notes listed now, in
	 * path order; when the saved paths are exactly these (no note came, went or was renamed since the save, the
	 * common case), they are taken as they are, without parsing 100k paths into strings of their own.
	 */
	forEach(each: (path: string, stamp: Stamp, row: number) => void, listed?: readonly string[]): void {
		this.paths = [];
		this.counts = new Uint32Array(0);
		this.starts = new Float64Array(0);
		this.linkTargets = undefined;
		if (!this.lines || !this.tail) return;
		const bytes = this.tail.bytes;
		const paths = sameJson(listed, bytes, this.lines.paths, this.lines.numbers - 1)
			? listed
			: parseJson(bytes, this.lines.paths, this.lines.numbers - 1);
		const decoded = this.ahead?.numbers?.take() ?? base64String(bytes, this.lines.numbers, bytes.length - 1);
		if (!isArrayOf(paths, "string") || decoded === undefined) return;
		const rows = rowsFromBytes(decoded, paths.length);
		if (!rows) return;
		const { stamps, counts } = rows;
		const starts = new Float64Array(paths.length);
		let start = this.from;
		for (let row = 0; row < paths.length; row++) {
			starts[row] = start;
			const at = row * COUNTS;
			start += (counts[at + 1] ?? 0) + (counts[at + 2] ?? 0) + (counts[at + 3] ?? 0) + FIELDS;
		}
		this.paths = paths;
		this.counts = counts;
		this.starts = starts;
		for (let row = 0; row < paths.length; row++) each(paths[row] ?? "", new SavedStamp(stamps, counts, row), row);
	}

	/** The row's link paths; undefined when its line does not hold them. */
	linkpaths(row: number): string[] | undefined {
		const value = this.field(row, 0);
		return Array.isArray(value) && value.every((linkpath) => typeof linkpath === "string") ? value : undefined;
	}

	/** The row's tags; undefined when its line does not hold them. */
	tags(row: number): TagFact[] | undefined {
		const value = this.field(row, 1);
		if (!Array.isArray(value) || value.length % 2 !== 0) return undefined;
		const tags: TagFact[] = [];
		for (let at = 0; at < value.length; at += 2) {
			const tag: unknown = value[at];
			const line: unknown = value[at + 1];
			if (typeof tag !== "string" || typeof line !== "number") return undefined;
			tags.push({ tag, line });
		}
		return tags;
	}

	/** The row's frontmatter, null when the note has none; undefined when its line does not hold it. */
	frontmatter(row: number): FrontmatterFact | null | undefined {
		const value = this.field(row, 2);
		if (value === 0) return null;
		return isFrontmatter(value) ? value : undefined;
	}

	/**
	 * Where the row's links led among the files of `files`; null when they were not saved, undefined when the file's
	 * targets line does not hold them.
	 */
	targets(row: number): string[] | null | undefined {
		if (row < 0 || row >= this.paths.length) return undefined;
		const targets = this.linkTargetsOf();
		if (targets === undefined) return this.files ? undefined : null;
		return targets.targets(row);
	}

	/** Every row's targets (for the files of `files`), as numbers; undefined when none were saved or the line is unusable. */
	linkTargetsOf(): SavedTargets | undefined {
		if (this.linkTargets === undefined) {
			const line = this.lines;
			const value =
				line && this.tail && this.files
					? targetsValue(this.tail.bytes.subarray(line.targets, line.paths - 1), this.ahead?.links?.take())
					: undefined;
			this.linkTargets = SavedTargets.parse(value, this.paths) ?? null;
		}
		return this.linkTargets ?? undefined;
	}

	/**
	 * The row's `index`th field, parsed; undefined when there is none, or its bytes are not between a line's start or
	 * a tab and a tab or the line's end where the numbers say.
	 */
	private field(row: number, index: number): unknown {
		let start = this.starts[row];
		if (start === undefined) return undefined;
		const at = row * COUNTS + 1;
		for (let before = 0; before < index; before++) start += (this.counts[at + before] ?? 0) + 1;
		// Where its separator is (a tab, or the line feed after the last field).
		const end = start + (this.counts[at + index] ?? 0);
		if (!(start >= this.from && start <= end)) return undefined;
		// The separators before and after it too; within the notes' lines (before the last three lines).
		const lines = this.linesAt(start - 1, end + 1);
		if (!lines) return undefined;
		const { bytes, base } = lines;
		if (bytes[start - 1 - base] !== (index === 0 ? LINE_FEED : TAB)) return undefined;
		if (bytes[end - base] !== (index + 1 < FIELDS ? TAB : LINE_FEED)) return undefined;
		return parseJson(bytes, start - base, end - base);
	}

	/** The notes' lines' bytes from `start` to `end` (`bytes[0]` is the file's byte `base`): from their block if in one. */
	private linesAt(start: number, end: number): { bytes: Buffer; base: number } | undefined {
		const block = Math.floor(start / LINES_BLOCK);
		if (Math.floor((end - 1) / LINES_BLOCK) !== block) {
			const bytes = this.readLines(start, end);
			return bytes?.length === end - start ? { bytes, base: start } : undefined;
		}
		let bytes = this.blocks.get(block);
		if (bytes === undefined) {
			const base = block * LINES_BLOCK;
			bytes = this.readLines(base, base + LINES_BLOCK) ?? null;
			this.blocks.set(block, bytes);
		}
		return bytes && end - block * LINES_BLOCK <= bytes.length ? { bytes, base: block * LINES_BLOCK } : undefined;
	}
}

/**
 * A saved row's stamp, read from the decoded numbers when asked: taking up 100k notes makes one small object per note,
 * not one with three numbers of their own each (less to allocate and to collect).
 */
class SavedStamp implements Stamp {
	constructor(
		private readonly stamps: Float64Array,
		private readonly counts: Uint32Array,
		private readonly row: number,
	) {}

	get mtimeMs(): number {
		return this.stamps[this.row * STAMP_FLOATS] ?? 0;
	}

	get ctimeMs(): number {
		return this.stamps[this.row * STAMP_FLOATS + 1] ?? 0;
	}

	get size(): number {
		return this.counts[this.row * COUNTS] ?? 0;
	}

	get ino(): number {
		return this.stamps[this.row * STAMP_FLOATS + 2] ?? 0;
	}
}

const ROWS_PER_WRITE = 500;

/** The notes' lines are read in blocks of this many bytes. */
const LINES_BLOCK = 1024 * 1024;
/** How many bytes of a file's end are read first in search of its last three lines (then as many again, and so on). */
const TAIL_CHUNK = 1024 * 1024;
/** How many bytes of a file's start are read in search of its head line (then as many again, and so on). */
const HEAD_CHUNK = 4096;

/** The file's head line (without its line feed); undefined when the file has none. */
function readHead(descriptor: number, size: number): { bytes: Buffer } | undefined {
	let bytes = Buffer.alloc(0);
	while (bytes.length < size) {
		const part = Buffer.allocUnsafe(Math.min(Math.max(HEAD_CHUNK, bytes.length), size - bytes.length));
		if (readAt(descriptor, part, bytes.length) !== part.length) return undefined;
		const searchFrom = bytes.length;
		bytes = Buffer.concat([bytes, part]);
		const end = bytes.indexOf(LINE_FEED, searchFrom);
		if (end >= 0) return { bytes: bytes.subarray(0, end) };
	}
	return undefined;
}

/**
 * The file's three lines before its last one (`offset`: where they start in the file): read at once from where the
 * last line says they start, or, when that is not so (the file edited), found by searching back from the last line;
 * undefined when the file has no such lines after the head line (which ends at `from - 1`).
 */
function readTail(descriptor: number, size: number, from: number): { bytes: Buffer; offset: number } | undefined {
	const last = readRange(descriptor, Math.max(from - 1, size - LAST_LINE_BYTES), size);
	if (last === undefined || last.length < 2 || last[last.length - 1] !== LINE_FEED) return undefined;
	const lastLine = last.lastIndexOf(LINE_FEED, last.length - 2) + 1;
	if (lastLine === 0) return undefined;
	const end = size - (last.length - lastLine);
	const text = last.toString("latin1", lastLine, last.length - 1);
	const start = /^\d{1,15}$/.test(text) ? Number(text) : -1;
	if (start >= from && start < end) {
		// From the line feed before them: that it is one tells the lines start there. In memory a worker can share
		// (the stat-ahead worker parses the paths and stamps from the same bytes).
		const bytes = readRange(descriptor, start - 1, end, true);
		if (bytes?.[0] === LINE_FEED && lineFeeds(bytes, 1) === 3) return { bytes: bytes.subarray(1), offset: start };
	}
	return searchTail(descriptor, end, from);
}

/** How many bytes of the file's end are read for its last line (a number, then a line feed). */
const LAST_LINE_BYTES = 32;

/** How many line feeds `bytes` holds from `at` on, when its last byte is one (else -1). */
function lineFeeds(bytes: Buffer, at: number): number {
	if (bytes[bytes.length - 1] !== LINE_FEED) return -1;
	let count = 0;
	for (let next = bytes.indexOf(LINE_FEED, at); next >= 0; next = bytes.indexOf(LINE_FEED, next + 1)) count++;
	return count;
}

/** `readTail`'s search: the three lines before `end`, read back from it in growing chunks. */
function searchTail(descriptor: number, end: number, from: number): { bytes: Buffer; offset: number } | undefined {
	let offset = end;
	let bytes: Buffer = Buffer.alloc(0);
	while (offset > from - 1) {
		const start = Math.max(from - 1, offset - Math.max(TAIL_CHUNK, bytes.length));
		const part = readRange(descriptor, start, offset);
		if (!part) return undefined;
		bytes = bytes.length === 0 ? part : Buffer.concat([part, bytes]);
		offset = start;
		// The fourth line feed back from `end` (its last byte the first): the one before the three lines.
		let lineFeed = bytes.length;
		for (let found = 0; found < 4 && lineFeed >= 0; found++)
			lineFeed = lineFeed > 0 ? bytes.lastIndexOf(LINE_FEED, lineFeed - 1) : -1;
		if (lineFeed >= 0) return { bytes: bytes.subarray(lineFeed + 1), offset: offset + lineFeed + 1 };
	}
	return undefined;
}

/** The file's bytes from `start` to `end` (`shared`: in a `SharedArrayBuffer`); undefined when it has fewer. */
function readRange(descriptor: number, start: number, end: number, shared = false): Buffer | undefined {
	const length = Math.max(0, end - start);
	const bytes = shared ? Buffer.from(new SharedArrayBuffer(length)) : Buffer.allocUnsafe(length);
	return readAt(descriptor, bytes, start) === bytes.length ? bytes : undefined;
}

/** Reads into the whole of `bytes` from the file's `position`; how many bytes it read (fewer at the file's end). */
function readAt(descriptor: number, bytes: Buffer, position: number): number {
	let done = 0;
	while (done < bytes.length) {
		const read = readSync(descriptor, bytes, done, bytes.length - done, position + done);
		if (read === 0) break;
		done += read;
	}
	return done;
}

function stamp(stats: Stamp): Stamp {
	return { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino };
}

function sameStamp(a: Stamp, b: Stamp): boolean {
	return a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.ino === b.ino;
}

/** A note's fields, as its line holds them. */
function fieldsOf(note: SavedNote): string[] {
	const tags = JSON.stringify(note.tags.flatMap((tag) => [tag.tag, tag.line]));
	const frontmatter = note.frontmatter ? JSON.stringify(note.frontmatter) : "0";
	return [JSON.stringify(note.linkpaths), tags, frontmatter];
}

/** The signature of a set of paths (in any order). */
export function filesSignature(paths: Iterable<string>): FilesSignature {
	let count = 0;
	let sum = 0;
	let xor = 0;
	for (const path of paths) {
		let hash = 0x811c9dc5;
		for (let at = 0; at < path.length; at++) hash = Math.imul(hash ^ path.charCodeAt(at), 0x01000193);
		count++;
		sum = (sum + (hash >>> 0)) % 0x100000000;
		xor = (xor ^ hash) >>> 0;
	}
	return { count, sum, xor };
}

export function sameFiles(a: FilesSignature | undefined, b: FilesSignature): boolean {
	return a !== undefined && a.count === b.count && a.sum === b.sum && a.xor === b.xor;
}

/**
 * The last line's rows (`ROW_BYTES` each: every row's `STAMP_FLOATS` floats, then every row's `COUNTS` integers,
 * little-endian), from its decoded bytes; undefined when they are not exactly that many rows.
 */
function rowsFromBytes(bytes: Uint8Array, rows: number): { stamps: Float64Array; counts: Uint32Array } | undefined {
	if (bytes.length !== rows * ROW_BYTES) return undefined;
	const floats = rows * STAMP_FLOATS;
	if (endianness() !== "LE") {
		const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		const stamps = new Float64Array(floats);
		const counts = new Uint32Array(rows * COUNTS);
		stamps.forEach((_, at) => (stamps[at] = view.readDoubleLE(at * 8)));
		counts.forEach((_, at) => (counts[at] = view.readUInt32LE(floats * 8 + at * 4)));
		return { stamps, counts };
	}
	// Viewed where decoded (memory of its own, from its start: the floats are aligned).
	return {
		stamps: new Float64Array(bytes.buffer, bytes.byteOffset, floats),
		counts: new Uint32Array(bytes.buffer, bytes.byteOffset + floats * 8, rows * COUNTS),
	};
}

function isArrayOf<T extends "string" | "number">(
	value: unknown,
	type: T,
): value is (T extends "string" ? string : number)[] {
	return Array.isArray(value) && value.every((item) => typeof item === type);
}

function isFilesSignature(value: unknown): value is FilesSignature {
	return isRecord(value) && [value.count, value.sum, value.xor].every((number) => typeof number === "number");
}

/**
 * A JSON string of base64 decoded from the bytes where they are (no string of 8 MB at 100k notes, no JSON parse);
 * undefined when the bytes are not plain base64 in quotes. What it decodes to is checked by its length.
 */
function base64String(bytes: Buffer, start: number, end: number): Uint8Array | undefined {
	if (end - start < 2 || bytes[start] !== QUOTE || bytes[end - 1] !== QUOTE) return undefined;
	return decodeBase64(bytes, start + 1, end - 1);
}

const QUOTE = 0x22;
const EQUALS = 0x3d;

/**
 * Whether `bytes[start..end)` is exactly the JSON of `value` (as `save` writes it: `JSON.stringify`), compared where
 * the bytes are: a string of plain ASCII (most paths) code by code, any other by its own JSON. No JSON of the whole
 * list is made (at 100k notes a rope of 3.5 MB to flatten and encode).
 */
function sameJson(value: readonly string[] | undefined, bytes: Buffer, start: number, end: number): boolean {
	if (value === undefined || bytes[start] !== OPEN_BRACKET || bytes[end - 1] !== CLOSE_BRACKET) return false;
	let at = start + 1;
	for (let index = 0; index < value.length; index++) {
		if (index > 0 && bytes[at++] !== COMMA) return false;
		const item = value[index] ?? "";
		const plainEnd = plainJsonString(item, bytes, at, end);
		if (plainEnd >= 0) {
			at = plainEnd;
			continue;
		}
		const json = Buffer.from(JSON.stringify(item));
		if (at + json.length > end || !bytes.subarray(at, at + json.length).equals(json)) return false;
		at += json.length;
	}
	return at === end - 1;
}

/**
 * Where the JSON string of `text` ends in `bytes` from `at` when `text` is plain ASCII that JSON writes as it is
 * (no quote, backslash or control character) and the bytes hold it; -1 otherwise (then its own JSON decides).
 */
function plainJsonString(text: string, bytes: Buffer, at: number, end: number): number {
	if (at + text.length + 2 > end || bytes[at] !== QUOTE) return -1;
	let to = at + 1;
	for (let index = 0; index < text.length; index++, to++) {
		const code = text.charCodeAt(index);
		if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH || bytes[to] !== code) return -1;
	}
	return bytes[to] === QUOTE ? to + 1 : -1;
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;

function parseJson(bytes: Buffer, start: number, end: number): unknown {
	try {
		return JSON.parse(bytes.toString("utf8", start, end));
	} catch {
		return undefined;
	}
}

/**
 * Where the saved index of the vault at `realRoot` (its real path) is kept: the user's cache folder
 * (`$XDG_CACHE_HOME` when absolute, else `~/.cache`), under claude-code-bridge/folder-index; undefined when that
 * folder is inside the vault (nothing is ever written among the notes).
 */
export function savedFolderIndexFile(
	realRoot: string,
	environment: Readonly<Record<string, string | undefined>>,
	homeDir: string,
): string | undefined {
	const configured = environment.XDG_CACHE_HOME;
	const cacheHome = configured !== undefined && isAbsolute(configured) ? configured : join(homeDir, ".cache");
	const name = createHash("sha256").update(realRoot).digest("hex").slice(0, 24);
	const file = join(cacheHome, "claude-code-bridge", "folder-index", `${name}.json`);
	const inside = relative(realRoot, file);
	return inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? undefined : file;
}

function isFrontmatter(value: unknown): value is FrontmatterFact {
	if (!isRecord(value) || typeof value.endLine !== "number" || !isRecord(value.keyLines)) return false;
	if (!Object.values(value.keyLines).every((line) => typeof line === "number")) return false;
	if (value.properties !== undefined && !isRecord(value.properties)) return false;
	return value.problem === undefined || typeof value.problem === "string";
}

/** Whether JSON gives back exactly this value: finite numbers (not -0), strings, booleans, null, arrays, plain objects. */
function carriedExactly(value: unknown): boolean {
	if (value === null || typeof value === "string" || typeof value === "boolean") return true;
	if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
	if (Array.isArray(value)) return value.every(carriedExactly);
	if (typeof value !== "object") return false;
	const prototype: unknown = Object.getPrototypeOf(value);
	if (prototype !== Object.prototype && prototype !== null) return false;
	return Object.entries(value).every(([key, item]) => key !== "__proto__" && carriedExactly(item));
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
