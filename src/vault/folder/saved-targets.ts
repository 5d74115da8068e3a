import { endianness } from "node:os";
import { decodeBase64 } from "../../shared/base64-bytes";
import { comparePaths } from "./folder-note-store";

/**
 * Where the saved notes' links led, as numbers (a saved index's targets line): a file linked to is a saved note's row
 * (rows in path order), or the notes' count plus its place among `files`, the other files linked to (sorted). Kept
 * as typed arrays, and turned around (which rows link to a file) in two passes when first asked: a later session's
 * backlinks make no map or string per link.
 */
export class SavedTargets {
	/** Per row, where its targets start in `ids`; the last entry is where the last one's end. */
	private readonly starts: Int32Array;
	private reverse: { starts: Int32Array; rows: Int32Array } | undefined;
	/** The rows of the one file asked for before `reverse` was made. */
	private first: { id: number; rows: Int32Array } | undefined;

	private constructor(
		private readonly paths: readonly string[],
		private readonly files: readonly string[],
		/** Per row, how many files its links led to; -1: not saved. */
		private readonly counts: Int32Array,
		private readonly ids: Int32Array,
	) {
		this.starts = new Int32Array(counts.length + 1);
		let at = 0;
		for (let row = 0; row < counts.length; row++) {
			this.starts[row] = at;
			at += Math.max(0, counts[row] ?? 0);
		}
		this.starts[counts.length] = at;
	}

	/** The line's targets for notes saved at `paths` (sorted); undefined when the line does not hold them exactly. */
	static parse(value: unknown, paths: readonly string[]): SavedTargets | undefined {
		if (typeof value !== "object" || value === null) return undefined;
		const { files, links } = value as { files?: unknown; links?: unknown };
		if (!Array.isArray(files) || !(typeof links === "string" || links instanceof Uint8Array)) return undefined;
		if (!sortedStrings(files) || !sortedStrings(paths)) return undefined;
		const bytes = typeof links === "string" ? Buffer.from(links, "base64") : links;
		if (bytes.length % 4 !== 0) return undefined;
		const numbers = fromLittleEndian(bytes);
		const notes = paths.length;
		if (numbers.length < notes) return undefined;
		let total = notes;
		for (let row = 0; row < notes; row++) {
			const count = numbers[row] ?? -2;
			if (count < -1) return undefined;
			total += Math.max(0, count);
		}
		if (total !== numbers.length) return undefined;
		const ids = numbers.subarray(notes);
		const known = notes + files.length;
		for (const id of ids) if (id < 0 || id >= known) return undefined;
		return new SavedTargets(paths, files, numbers.subarray(0, notes), ids);
	}

	/** Where the row's links led; null when that was not saved. */
	targets(row: number): string[] | null {
		const count = this.counts[row] ?? -1;
		if (count < 0) return null;
		const start = this.starts[row] ?? 0;
		const targets: string[] = [];
		for (let at = start; at < start + count; at++) targets.push(this.pathOf(this.ids[at] ?? 0));
		return targets;
	}

	/** How many saved notes (rows) there are. */
	get rows(): number {
		return this.paths.length;
	}

	/** Whether the row's targets were saved. */
	hasTargets(row: number): boolean {
		return (this.counts[row] ?? -1) >= 0;
	}

	/** The path of a saved note's row (or of a linked file's number). */
	pathOf(id: number): string {
		const notes = this.paths.length;
		return (id < notes ? this.paths[id] : this.files[id - notes]) ?? "";
	}

	/**
	 * The rows whose saved links lead to `path`, ascending, each once. The first file asked for is found by one pass
	 * over the targets (a later session's first backlinks ask for one note, page after page); a second one has them
	 * turned around for every file.
	 */
	sourceRows(path: string): Int32Array {
		const id = this.idOf(path);
		if (id === undefined) return EMPTY;
		if (!this.reverse) {
			if (this.first === undefined) this.first = { id, rows: this.rowsLinkingTo(id) };
			if (this.first.id === id) return this.first.rows;
			this.first = undefined;
		}
		const reverse = (this.reverse ??= this.turnAround());
		return reverse.rows.subarray(reverse.starts[id], reverse.starts[id + 1]);
	}

	/** The rows with a link to the file of this number, ascending, each once: one pass over the targets. */
	private rowsLinkingTo(id: number): Int32Array {
		const rows: number[] = [];
		const ids = this.ids;
		for (let row = 0; row < this.counts.length; row++) {
			const end = this.starts[row + 1] ?? 0;
			for (let at = this.starts[row] ?? 0; at < end; at++) {
				if (ids[at] !== id) continue;
				rows.push(row);
				break;
			}
		}
		return Int32Array.from(rows);
	}

	/** Rows by the file they link to: a count per file, then each row put in its file's place (rows ascending). */
	private turnAround(): { starts: Int32Array; rows: Int32Array } {
		const known = this.paths.length + this.files.length;
		const starts = new Int32Array(known + 1);
		for (const id of this.ids) starts[id + 1] = (starts[id + 1] ?? 0) + 1;
		for (let id = 0; id < known; id++) starts[id + 1] = (starts[id + 1] ?? 0) + (starts[id] ?? 0);
		const next = starts.slice(0, known);
		const rows = new Int32Array(this.ids.length);
		for (let row = 0; row < this.counts.length; row++) {
			const end = this.starts[row + 1] ?? 0;
			for (let at = this.starts[row] ?? 0; at < end; at++) {
				const id = this.ids[at] ?? 0;
				const place = next[id] ?? 0;
				// A row listed twice for one file (only an edited file holds that) counts once.
				if (place > (starts[id] ?? 0) && rows[place - 1] === row) continue;
				rows[place] = row;
				next[id] = place + 1;
			}
		}
		// Places left by a row listed twice stay at the end of their file's range: cut them off per file.
		return { starts, rows: compact(starts, next, rows) };
	}

	private idOf(path: string): number | undefined {
		const row = search(this.paths, path);
		if (row !== undefined) return row;
		const file = search(this.files, path);
		return file === undefined ? undefined : this.paths.length + file;
	}
}

/**
 * The targets line for notes in path order: a note's targets as rows of those notes, other files by the notes'
 * count plus their place among the other files.
 */
export function targetsLine(notes: readonly { path: string; targets?: readonly string[] }[]): string {
	const rows = new Map(notes.map((note, row) => [note.path, row]));
	const others = new Set<string>();
	let count = notes.length;
	for (const note of notes)
		for (const target of note.targets ?? []) {
			count++;
			if (!rows.has(target)) others.add(target);
		}
	const files = [...others].sort(comparePaths);
	const numbers = new Map(files.map((path, at) => [path, notes.length + at]));
	const encoded = Buffer.alloc(count * 4);
	let next = notes.length;
	notes.forEach((note, row) => {
		encoded.writeInt32LE(note.targets ? note.targets.length : -1, row * 4);
		for (const target of note.targets ?? [])
			encoded.writeInt32LE(rows.get(target) ?? numbers.get(target) ?? 0, 4 * next++);
	});
	return JSON.stringify({ files, links: encoded.toString("base64") });
}

/**
 * A targets line's bytes as `SavedTargets.parse` takes them (`{ files, links }`): where the line is plain (its links
 * base64 alone), the small list of files is parsed and the links decoded from the bytes where they are (`links` then
 * the decoded bytes), with no string of the megabytes of base64 and no JSON parse of them (the same value: such a line
 * is exactly that object); else the line parsed whole. Undefined when it is no JSON. `decodedLinks`: the links'
 * base64 (`linksRegion`) already decoded, by a worker (`DecodedAhead`).
 */
export function targetsValue(line: Buffer, decodedLinks?: Uint8Array): unknown {
	const region = linksRegion(line);
	if (region) {
		const decoded = decodedLinks ?? decodeBase64(line, region.start, region.end);
		// From the files list's `[` to its `]`.
		const files = decoded
			? jsonOf(line.toString("utf8", FILES_KEY.length - 1, region.start - LINKS_KEY.length + 1))
			: undefined;
		if (files !== undefined) return { files, links: decoded };
	}
	return jsonOf(line.toString("utf8"));
}

/** Where a plain targets line's links are (the base64 between their key's quote and the line's closing quote). */
export function linksRegion(line: Uint8Array): { start: number; end: number } | undefined {
	const bytes = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
	const links = bytes.indexOf(LINKS_KEY);
	if (links <= 0 || !bytes.subarray(0, FILES_KEY.length).equals(FILES_KEY) || !bytes.subarray(-2).equals(LINE_END))
		return undefined;
	return { start: links + LINKS_KEY.length, end: bytes.length - LINE_END.length };
}

const FILES_KEY = Buffer.from('{"files":[');
const LINKS_KEY = Buffer.from('],"links":"');
const LINE_END = Buffer.from('"}');

function jsonOf(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const EMPTY = new Int32Array(0);

/** The bytes' little-endian 32-bit integers: viewed where they are when they are memory of their own (a decode's). */
function fromLittleEndian(bytes: Uint8Array): Int32Array {
	const count = bytes.length / 4;
	if (endianness() === "LE" && bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength)
		return new Int32Array(bytes.buffer, 0, count);
	const numbers = new Int32Array(count);
	const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (endianness() === "LE") new Uint8Array(numbers.buffer).set(bytes);
	else for (let at = 0; at < count; at++) numbers[at] = view.readInt32LE(at * 4);
	return numbers;
}

/** Each file's rows in `rows[starts[id]..next[id])`: moved together when a duplicate left a gap. */
function compact(starts: Int32Array, next: Int32Array, rows: Int32Array): Int32Array {
	let gaps = false;
	for (let id = 0; id < next.length && !gaps; id++) gaps = next[id] !== starts[id + 1];
	if (!gaps) return rows;
	let to = 0;
	for (let id = 0; id < next.length; id++) {
		const from = starts[id] ?? 0;
		const end = next[id] ?? 0;
		starts[id] = to;
		for (let at = from; at < end; at++) rows[to++] = rows[at] ?? 0;
	}
	starts[next.length] = to;
	return rows.subarray(0, to);
}

function sortedStrings(values: readonly unknown[]): values is string[] {
	for (let at = 0; at < values.length; at++) {
		const value = values[at];
		if (typeof value !== "string") return false;
		if (at > 0 && !((values[at - 1] as string) < value)) return false;
	}
	return true;
}

/** The place of `path` in sorted `paths`; undefined when it is not there. */
function search(paths: readonly string[], path: string): number | undefined {
	let low = 0;
	let high = paths.length - 1;
	while (low <= high) {
		const middle = (low + high) >>> 1;
		const found = paths[middle] ?? "";
		if (found === path) return middle;
		if (found < path) low = middle + 1;
		else high = middle - 1;
	}
	return undefined;
}
