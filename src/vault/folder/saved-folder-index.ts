import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import type { FrontmatterFact, TagFact } from "../markdown/note-model";

/** Bumped whenever what is saved, or how a note's text becomes it, changes: an older file is then not used. */
const FORMAT = 1;

/** What a whole-vault question needs of one note (the folder index's summary), with the stamp it was made at. */
export interface SavedNote {
	path: string;
	stamp: { mtimeMs: number; ctimeMs: number; size: number; ino: number };
	/** Each link path once. */
	linkpaths: readonly string[];
	tags: readonly TagFact[];
	frontmatter?: FrontmatterFact;
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
 * version or for another vault, or holds anything unexpected, is not used. Frontmatter values that JSON cannot carry
 * exactly (`.inf`, dates, `__proto__` keys) leave their note unsaved: it is read when asked for.
 */
export class SavedFolderIndex {
	constructor(private readonly options: SavedFolderIndexOptions) {}

	/** The saved notes, or undefined when there is no usable file. */
	load(): SavedNote[] | undefined {
		let parsed: unknown;
		try {
			parsed = JSON.parse(readFileSync(this.options.file, "utf8"));
		} catch {
			return undefined;
		}
		if (!isRecord(parsed) || parsed.format !== FORMAT) return undefined;
		if (parsed.vault !== this.options.vault || parsed.version !== this.options.version) return undefined;
		if (!Array.isArray(parsed.notes)) return undefined;
		const notes: SavedNote[] = [];
		for (const row of parsed.notes as unknown[]) {
			const note = noteFromRow(row);
			if (note === undefined) return undefined;
			notes.push(note);
		}
		return notes;
	}

	/**
	 * Writes the notes (those JSON carries exactly) to a new file that then takes the old one's name, a few hundred at
	 * a time (the text of 100k notes' summaries at once would add its size to the peak memory).
	 */
	save(notes: Iterable<SavedNote>): void {
		const head = JSON.stringify({ format: FORMAT, vault: this.options.vault, version: this.options.version });
		const temporary = `${this.options.file}.${process.pid}.tmp`;
		let descriptor: number | undefined;
		try {
			mkdirSync(dirname(this.options.file), { recursive: true, mode: 0o700 });
			descriptor = openSync(temporary, "wx", 0o600);
			writeSync(descriptor, `${head.slice(0, -1)},"notes":[\n`);
			let batch: string[] = [];
			let first = true;
			const flush = (): void => {
				if (batch.length === 0) return;
				writeSync(descriptor as number, `${first ? "" : ",\n"}${batch.join(",\n")}`);
				first = false;
				batch = [];
			};
			for (const note of notes) {
				if (note.frontmatter && !carriedExactly(note.frontmatter)) continue;
				batch.push(rowOf(note));
				if (batch.length === ROWS_PER_WRITE) flush();
			}
			flush();
			writeSync(descriptor, "\n]}\n");
			closeSync(descriptor);
			descriptor = undefined;
			renameSync(temporary, this.options.file);
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
			rmSync(temporary, { force: true });
		}
	}
}

const ROWS_PER_WRITE = 500;

function rowOf(note: SavedNote): string {
	return JSON.stringify([
		note.path,
		note.stamp.mtimeMs,
		note.stamp.ctimeMs,
		note.stamp.size,
		note.stamp.ino,
		note.linkpaths,
		note.tags.flatMap((tag) => [tag.tag, tag.line]),
		note.frontmatter ?? 0,
	]);
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

function noteFromRow(row: unknown): SavedNote | undefined {
	if (!Array.isArray(row) || row.length !== 8) return undefined;
	const [path, mtimeMs, ctimeMs, size, ino, linkpaths, tags, frontmatter] = row as unknown[];
	if (typeof path !== "string" || ![mtimeMs, ctimeMs, size, ino].every((value) => typeof value === "number"))
		return undefined;
	if (!Array.isArray(linkpaths) || !linkpaths.every((linkpath) => typeof linkpath === "string")) return undefined;
	if (!Array.isArray(tags) || tags.length % 2 !== 0) return undefined;
	const tagFacts: TagFact[] = [];
	for (let at = 0; at < tags.length; at += 2) {
		const tag: unknown = tags[at];
		const line: unknown = tags[at + 1];
		if (typeof tag !== "string" || typeof line !== "number") return undefined;
		tagFacts.push({ tag, line });
	}
	const note: SavedNote = {
		path,
		stamp: { mtimeMs: mtimeMs as number, ctimeMs: ctimeMs as number, size: size as number, ino: ino as number },
		linkpaths: linkpaths,
		tags: tagFacts,
	};
	if (frontmatter === 0) return note;
	if (!isFrontmatter(frontmatter)) return undefined;
	note.frontmatter = frontmatter;
	return note;
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
