import { randomBytes } from "node:crypto";
import { close, constants, open, promises as fs, write } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { DEFAULT_JOURNAL_BOUNDS, recordBytes } from "./journal-bounds";
import { parseRecords, scanJournalLines, type StoredLine } from "./journal-lines";
import type { JournalRecord, RecordHead } from "./journal-records";
import { PreImageError, type JournalStore, type RecordSizes } from "./journal-store";

const RECORDS = "records.jsonl";
const BLOBS = "blobs";
const LOCK = "compact.lock";
/** A compaction lock older than this was left by a process that died. */
const STALE_LOCK_MS = 60_000;
const HASH = /^[0-9a-f]{64}$/;
const LINE_END = Buffer.from("\n");
/** Not following a link where the platform can say so (Windows has no O_NOFOLLOW; the lstat checks serve there). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** How the records file is opened to append: never through a link planted in its place. */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;

/** Four times the default bound of the whole journal (records and pre-images). */
const MAX_RECORDS_BYTES = 4 * DEFAULT_JOURNAL_BOUNDS.maxBytes;
/** A blob written this recently may protect a write whose change is not recorded yet: compaction keeps it. */
const YOUNG_BLOB_MS = 60_000;

/**
 * The journal in a folder of the user's data folder (`journal-folder.ts`): `records.jsonl`, one record per line,
 * appended (several processes of the same vault, the headless host and stdio servers, share it), and `blobs/<hash>`,
 * the notes' pre-images. The folders are 0700 and the files 0600: a journal holds excerpts of notes.
 * Compaction rewrites the records file under a lock file and starts over when another process appended meanwhile.
 */
export class FolderJournalStore implements JournalStore {
	private ready: Promise<void> | undefined;

	/**
	 * @param maxRecordsBytes the most of the records file read (past it, its newest lines): well past what the
	 * journal's bounds let it grow to between compactions.
	 */
	constructor(
		readonly folder: string,
		private readonly maxRecordsBytes = MAX_RECORDS_BYTES,
	) {}

	async load(): Promise<JournalRecord[]> {
		await this.prepare();
		return parseRecords((await this.readRecords()).toString("utf8"));
	}

	async heads(): Promise<{ heads: RecordHead[]; sizes: RecordSizes }> {
		await this.prepare();
		const lines = await this.readLines();
		return { heads: [...lines.keys()], sizes: sizesOf(lines) };
	}

	async append(records: readonly JournalRecord[], lines?: readonly string[]): Promise<number> {
		if (records.length === 0) return 0;
		await this.prepare();
		// One write of whole lines with O_APPEND: lines of processes writing at once do not interleave.
		let text = "";
		for (const [index, record] of records.entries()) text += `${lines?.[index] ?? JSON.stringify(record)}\n`;
		const bytes = Buffer.from(text, "utf8");
		// Never through a link planted in its place (the folder syncs with the vault): that would append elsewhere.
		await appendBytes(join(this.folder, RECORDS), bytes);
		return bytes.byteLength;
	}

	async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
		assertHash(hash);
		await this.prepare();
		const path = join(this.folder, BLOBS, hash);
		// Kept already: made young again, so that a compaction running now keeps it for the write it protects. Only a
		// plain file of the right size counts as kept (utimes would follow a link planted here); anything else is replaced.
		const kept = await fs.lstat(path).catch(() => undefined);
		const now = new Date();
		if (
			kept?.isFile() &&
			kept.size === bytes.byteLength &&
			(await fs.utimes(path, now, now).then(
				() => true,
				() => false,
			))
		)
			return;
		const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
		await fs.writeFile(temporary, bytes, { mode: 0o600, flag: "wx" });
		await fs.rename(temporary, path);
	}

	async getBlob(hash: string, maxBytes = Infinity): Promise<Uint8Array | undefined> {
		assertHash(hash);
		await this.prepare();
		const read = await readPlainFile(join(this.folder, BLOBS, hash), maxBytes);
		if (read === "missing") return undefined;
		if ("refused" in read) throw new PreImageError(read.refused);
		return read;
	}

	async dropBlob(hash: string, keptAt: number): Promise<void> {
		assertHash(hash);
		await this.prepare();
		const path = join(this.folder, BLOBS, hash);
		const stats = await fs.stat(path).catch(() => undefined);
		// Touched since: kept again for another write (putBlob makes a kept blob young), which needs it.
		if (!stats || stats.mtimeMs > keptAt) return;
		await fs.rm(path, { force: true });
	}

	async compact(
		select: (records: RecordHead[], sizes: RecordSizes) => RecordHead[],
		keepBlobs: (records: RecordHead[]) => ReadonlySet<string>,
	): Promise<void> {
		await this.prepare();
		if (!(await this.lock())) return;
		try {
			const path = join(this.folder, RECORDS);
			for (let attempt = 0; attempt < 3; attempt++) {
				const size = await sizeIfExists(path);
				const bytes = await this.readRecords();
				const lines = await this.readLines(bytes);
				// The selection runs in a turn of its own, not after the scan's last slice.
				await new Promise((resolve) => setImmediate(resolve));
				const kept = select([...lines.keys()], sizesOf(lines));
				const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
				// The kept lines' bytes as they were read: records are not decoded nor encoded again (nor changed,
				// whoever wrote them). `select` picks among the records it was given.
				await fs.writeFile(temporary, keptBytes(bytes, kept, lines), { mode: 0o600, flag: "wx" });
				// Another process appended while we read: start over rather than drop its lines.
				if ((await sizeIfExists(path)) !== size) {
					await fs.rm(temporary, { force: true });
					continue;
				}
				await fs.rename(temporary, path);
				const keep = keepBlobs(kept);
				const now = Date.now();
				for (const name of await fs.readdir(join(this.folder, BLOBS))) {
					if (keep.has(name)) continue;
					const blob = join(this.folder, BLOBS, name);
					// A pre-image kept for a write in progress (in this process or another) is not named by a record yet.
					const stats = await fs.lstat(blob).catch(() => undefined);
					if (stats && now - stats.mtimeMs < YOUNG_BLOB_MS) continue;
					await fs.rm(blob, { force: true });
				}
				return;
			}
		} finally {
			await fs.rm(join(this.folder, LOCK), { force: true });
		}
	}

	/** The records file's lines by their records' heads (`scanJournalLines`), read afresh unless given. */
	private async readLines(bytes?: Buffer): Promise<Map<RecordHead, StoredLine>> {
		const lines = await scanJournalLines(bytes ?? (await this.readRecords()));
		return new Map(lines.map((line) => [line.head, line]));
	}

	/**
	 * The records file's bytes, read without following a link, at most `maxRecordsBytes` (past that, its newest
	 * lines): the file is in a folder that may sync with the vault, and another device may have put anything there.
	 */
	private async readRecords(): Promise<Buffer> {
		const path = join(this.folder, RECORDS);
		const read = await readPlainFile(path, Infinity, this.maxRecordsBytes);
		if (read === "missing") return Buffer.alloc(0);
		if ("refused" in read)
			throw new Error(`The activity journal's records file ${path} ${read.refused}; it is not read`);
		return read;
	}

	/** The folders with their modes (made once per store); a link in place of the folder, its blobs or its records is refused. */
	private prepare(): Promise<void> {
		const attempt = (this.ready ??= (async () => {
			await fs.mkdir(join(this.folder, BLOBS), { recursive: true, mode: 0o700 });
			for (const [path, mode] of [
				[this.folder, 0o700],
				[join(this.folder, BLOBS), 0o700],
				[join(this.folder, RECORDS), 0o600],
			] as const) {
				const stats = await fs.lstat(path).catch(() => undefined);
				if (stats?.isSymbolicLink())
					throw new Error(
						`The activity journal's ${path} is a link, which the journal never follows; move it away`,
					);
				// chmod follows links: only what was checked above to be none.
				if (stats) await fs.chmod(path, mode);
			}
		})());
		// A refusal is told again next time (and the link may have been moved away meanwhile).
		attempt.catch(() => {
			if (this.ready === attempt) this.ready = undefined;
		});
		return attempt;
	}

	/** Takes the compaction lock; false when another process holds it (that one compacts). */
	private async lock(): Promise<boolean> {
		const path = join(this.folder, LOCK);
		try {
			const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
			await handle.close();
			return true;
		} catch {
			const stats = await fs.stat(path).catch(() => undefined);
			if (stats && Date.now() - stats.mtimeMs > STALE_LOCK_MS) {
				await fs.rm(path, { force: true });
				return this.lock();
			}
			return false;
		}
	}
}

/**
 * A file's bytes read through one handle opened without following a link, when it is a plain file of at most
 * `maxBytes` (its last `tailBytes` only, from its first whole line, when given): "missing" when there is none, else
 * why it was not read (a link, a folder, a device, too large).
 */
async function readPlainFile(
	path: string,
	maxBytes: number,
	tailBytes?: number,
): Promise<Buffer | "missing" | { refused: string }> {
	const link = await fs
		.lstat(path)
		.catch((error: unknown) => ((error as { code?: unknown }).code === "ENOENT" ? "missing" : undefined));
	if (link === "missing") return link;
	if (link?.isSymbolicLink()) return { refused: "is a link, which the journal never follows" };
	let handle: fs.FileHandle;
	try {
		handle = await fs.open(path, constants.O_RDONLY | NO_FOLLOW);
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		if (code === "ENOENT") return "missing";
		if (code === "ELOOP") return { refused: "is a link, which the journal never follows" };
		throw error;
	}
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) return { refused: "is not a plain file" };
		if (stats.size > maxBytes) return { refused: "is larger than the journal keeps" };
		const length = Math.min(stats.size, tailBytes ?? stats.size);
		const bytes = Buffer.alloc(length);
		const { bytesRead } = await handle.read(bytes, 0, length, stats.size - length);
		// A tail starts part way into a line: that line is left out.
		return length < stats.size ? bytes.subarray(bytes.indexOf(10) + 1, bytesRead) : bytes.subarray(0, bytesRead);
	} finally {
		await handle.close();
	}
}

/** Each record's size: its line's, newline included. */
function sizesOf(lines: ReadonlyMap<RecordHead, StoredLine>): RecordSizes {
	return (record) => {
		const line = lines.get(record);
		return line ? line.end - line.start + 1 : recordBytes(record);
	};
}

/**
 * Appends bytes to a file (made 0600), through the callback API: about half the CPU of `fs.promises.appendFile`
 * (no FileHandle made and closed through promises; measured on Node 20), and the journal appends every 200 ms.
 */
function appendBytes(path: string, bytes: Uint8Array): Promise<void> {
	return new Promise((resolve, reject) => {
		open(path, APPEND, 0o600, (openError, fd) => {
			if (openError) return reject(openError);
			let written = 0;
			const done = (failure: Error | null): void =>
				close(fd, (closeError) => {
					const error = failure ?? closeError;
					if (error) reject(error);
					else resolve();
				});
			const next = (): void =>
				write(fd, bytes, written, bytes.byteLength - written, null, (writeError, count) => {
					if (writeError) return done(writeError);
					written += count;
					if (written < bytes.byteLength) next();
					else done(null);
				});
			next();
		});
	});
}

/**
 * The bytes of the kept records' lines, each ending in a newline, in the order kept: a run of lines that follow
 * each other in the file (most of a compaction's: the newest calls) is copied in one piece.
 */
function keptBytes(bytes: Buffer, kept: readonly RecordHead[], lines: ReadonlyMap<RecordHead, StoredLine>): Buffer {
	const pieces: Buffer[] = [];
	let runStart = -1;
	let runEnd = -1;
	const endRun = (): void => {
		if (runStart < 0) return;
		pieces.push(bytes.subarray(runStart, runEnd));
		// The file's last line may lack its newline (a write cut short just before it).
		if (runEnd > bytes.length) pieces.push(LINE_END);
	};
	for (const record of kept) {
		const line = lines.get(record);
		if (!line) continue;
		if (line.start === runEnd) {
			runEnd = line.end + 1;
			continue;
		}
		endRun();
		runStart = line.start;
		runEnd = line.end + 1;
	}
	endRun();
	return Buffer.concat(pieces);
}

function assertHash(hash: string): void {
	if (!HASH.test(hash)) throw new Error(`Not a content hash: ${hash.slice(0, 80)}`);
}

async function sizeIfExists(path: string): Promise<number> {
	try {
		return (await fs.stat(path)).size;
	} catch (error) {
		if ((error as { code?: unknown }).code === "ENOENT") return 0;
		throw error;
	}
}
