import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import type { FrontmatterFact, TagFact } from "../markdown/note-model";

/** Bumped whenever what is saved, or how a note's text becomes it, changes: an older file is then not used. */
const FORMAT = 3;
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

export interface Stamp {
	mtimeMs: number;
	ctimeMs: number;
	size: number;
	ino: number;
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
 * The file is a line of JSON for the header, then a line per note: its path and stamp as JSON, then (tab-separated,
 * JSON, which never holds a raw tab or line feed) its link paths, its tags (tag, line, tag, line…), its frontmatter
 * (or 0) and where its links led (a saved note by its row, any other file by its path; or 0) among the files the
 * header's signature describes. `load` reads each note's path and stamp at once and the rest only when asked (`SavedNotes`): taking up the
 * summaries of 100k notes makes no object per link, tag or property before one is wanted.
 */
export class SavedFolderIndex {
	constructor(private readonly options: SavedFolderIndexOptions) {}

	/** The saved notes, or undefined when there is no usable file. */
	load(): SavedNotes | undefined {
		let bytes: Buffer;
		try {
			bytes = readFileSync(this.options.file);
		} catch {
			return undefined;
		}
		const headEnd = bytes.indexOf(LINE_FEED);
		if (headEnd < 0) return undefined;
		const head = parseJson(bytes, 0, headEnd);
		if (!isRecord(head) || head.format !== FORMAT) return undefined;
		if (head.vault !== this.options.vault || head.version !== this.options.version) return undefined;
		return new SavedNotes(bytes, headEnd + 1, isFilesSignature(head.files) ? head.files : undefined);
	}

	/**
	 * Writes the notes (those JSON carries exactly) to a new file that then takes the old one's name, a few hundred at
	 * a time (the text of 100k notes' summaries at once would add its size to the peak memory).
	 */
	save(notes: Iterable<SavedNote>, files?: FilesSignature): void {
		const saved = [...notes].filter((note) => !note.frontmatter || carriedExactly(note.frontmatter));
		const rows = new Map(saved.map((note, row) => [note.path, row]));
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
			writeSync(descriptor, `${head}\n`);
			let batch = "";
			let written = 0;
			for (const note of saved) {
				batch += lineOf(note, files ? rows : undefined);
				if (++written % ROWS_PER_WRITE === 0) {
					writeSync(descriptor, batch);
					batch = "";
				}
			}
			if (batch !== "") writeSync(descriptor, batch);
			closeSync(descriptor);
			descriptor = undefined;
			renameSync(temporary, this.options.file);
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
			rmSync(temporary, { force: true });
		}
	}
}

/** The fields of a note's line after its path and stamp: link paths, tags, frontmatter, targets. */
const FIELDS = 4;
/** Per row in `SavedNotes.bounds`: where each field starts, then where the line ends. */
const BOUNDS = FIELDS + 1;

/** The notes of a saved index's file, each read from its line when asked (a row number: its order in the file). */
export class SavedNotes {
	/**
	 * Per row, `BOUNDS` offsets into the file: where each of its fields starts (-1 for a field the line lacks), then
	 * where its line ends. Found in one pass over the file's bytes (a native `indexOf` per tab and line cost about
	 * 2 µs each: at 100k notes, 0.5 s of a later session's first call).
	 */
	private bounds: number[] = [];
	/** Each row's path. */
	private readonly paths: string[] = [];

	/** `files`: the files the saved link targets were found among. */
	constructor(
		private readonly bytes: Buffer,
		private readonly from: number,
		readonly files?: FilesSignature,
	) {}

	/**
	 * Calls `each` with every saved note's path, stamp and row, in the file's order; stops at the first line that is
	 * not one (the notes before it stay usable).
	 */
	forEach(each: (path: string, stamp: Stamp, row: number) => void): void {
		const bytes = this.bytes;
		const bounds: number[] = [];
		this.bounds = bounds;
		this.paths.length = 0;
		let start = this.from;
		while (start < bytes.length) {
			const row = this.paths.length;
			let headEnd = -1;
			let fields = 0;
			let at = start;
			for (; at < bytes.length; at++) {
				const byte = bytes[at];
				if (byte === LINE_FEED) break;
				if (byte !== TAB || fields === FIELDS) continue;
				if (headEnd < 0) headEnd = at;
				bounds.push(at + 1);
				fields++;
			}
			const head = headEnd < 0 ? undefined : parseJson(bytes, start, headEnd);
			const [path, mtimeMs, ctimeMs, size, ino] =
				Array.isArray(head) && head.length === 5 ? (head as unknown[]) : [];
			if (
				typeof path !== "string" ||
				typeof mtimeMs !== "number" ||
				typeof ctimeMs !== "number" ||
				typeof size !== "number" ||
				typeof ino !== "number"
			) {
				bounds.length = row * BOUNDS;
				return;
			}
			// Fields the line lacks start nowhere.
			for (; fields < FIELDS; fields++) bounds.push(-1);
			bounds.push(at);
			this.paths.push(path);
			each(path, { mtimeMs, ctimeMs, size, ino }, row);
			start = at + 1;
		}
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
	 * Where the row's links led among the files of `files`; null when they were not saved, undefined when its line
	 * does not hold them.
	 */
	targets(row: number): string[] | null | undefined {
		const value = this.field(row, 3);
		if (value === 0) return null;
		if (!Array.isArray(value)) return undefined;
		const targets: string[] = [];
		for (const target of value as unknown[]) {
			const path = typeof target === "number" ? this.paths[target] : target;
			if (typeof path !== "string") return undefined;
			targets.push(path);
		}
		return targets;
	}

	/** The row's `index`th tab-separated field after its path and stamp, parsed; undefined when there is none. */
	private field(row: number, index: number): unknown {
		const start = this.bounds[row * BOUNDS + index];
		if (start === undefined || start < 0) return undefined;
		const next = index + 1 < FIELDS ? (this.bounds[row * BOUNDS + index + 1] ?? -1) : -1;
		const end = next >= 0 ? next - 1 : (this.bounds[row * BOUNDS + FIELDS] ?? start);
		return parseJson(this.bytes, start, end);
	}
}

const ROWS_PER_WRITE = 500;

/** A note's line; its targets (with `rows`) by the row of a saved note, else by path. */
function lineOf(note: SavedNote, rows: ReadonlyMap<string, number> | undefined): string {
	const { mtimeMs, ctimeMs, size, ino } = note.stamp;
	const tags = JSON.stringify(note.tags.flatMap((tag) => [tag.tag, tag.line]));
	const frontmatter = note.frontmatter ? JSON.stringify(note.frontmatter) : "0";
	const targets =
		rows && note.targets ? JSON.stringify(note.targets.map((target) => rows.get(target) ?? target)) : "0";
	return `${JSON.stringify([note.path, mtimeMs, ctimeMs, size, ino])}\t${JSON.stringify(note.linkpaths)}\t${tags}\t${frontmatter}\t${targets}\n`;
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

function isFilesSignature(value: unknown): value is FilesSignature {
	return isRecord(value) && [value.count, value.sum, value.xor].every((number) => typeof number === "number");
}

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
