import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { recordBytes } from "./journal-bounds";
import { parseJournalLines, parseRecords } from "./journal-lines";
import type { JournalRecord } from "./journal-records";
import type { JournalStore, RecordSizes } from "./journal-store";

const RECORDS = "records.jsonl";
const BLOBS = "blobs";
const LOCK = "compact.lock";
/** A compaction lock older than this was left by a process that died. */
const STALE_LOCK_MS = 60_000;
const HASH = /^[0-9a-f]{64}$/;
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

	constructor(readonly folder: string) {}

	async load(): Promise<JournalRecord[]> {
		await this.prepare();
		return parseRecords(await readIfExists(join(this.folder, RECORDS)));
	}

	async append(records: readonly JournalRecord[]): Promise<number> {
		if (records.length === 0) return 0;
		await this.prepare();
		// One write of whole lines with O_APPEND: lines of processes writing at once do not interleave.
		let text = "";
		for (const record of records) text += `${JSON.stringify(record)}\n`;
		const bytes = Buffer.from(text, "utf8");
		await fs.appendFile(join(this.folder, RECORDS), bytes, { mode: 0o600, flag: "a" });
		return bytes.byteLength;
	}

	async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
		assertHash(hash);
		await this.prepare();
		const path = join(this.folder, BLOBS, hash);
		// Kept already: made young again, so that a compaction running now keeps it for the write it protects.
		const now = new Date();
		if (await fs.utimes(path, now, now).then(() => true, () => false)) return;
		const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
		await fs.writeFile(temporary, bytes, { mode: 0o600, flag: "wx" });
		await fs.rename(temporary, path);
	}

	async getBlob(hash: string): Promise<Uint8Array | undefined> {
		assertHash(hash);
		await this.prepare();
		try {
			return await fs.readFile(join(this.folder, BLOBS, hash));
		} catch {
			return undefined;
		}
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

	async compact(select: (records: JournalRecord[], sizes: RecordSizes) => JournalRecord[], keepBlobs: (records: JournalRecord[]) => ReadonlySet<string>): Promise<void> {
		await this.prepare();
		if (!(await this.lock())) return;
		try {
			const path = join(this.folder, RECORDS);
			for (let attempt = 0; attempt < 3; attempt++) {
				const bytes = await readBytesIfExists(path);
				const lines = new Map((await parseJournalLines(bytes.toString("utf8"))).map((line) => [line.record, line]));
				// The selection runs in a turn of its own, not after the parse's last slice.
				await new Promise((resolve) => setImmediate(resolve));
				const kept = select([...lines.keys()], (record) => lines.get(record)?.bytes ?? recordBytes(record));
				const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
				// The kept lines as they were read: records are not encoded again (nor changed, whoever wrote them).
				await fs.writeFile(temporary, kept.map((record) => `${lines.get(record)?.text ?? JSON.stringify(record)}\n`).join(""), { mode: 0o600, flag: "wx" });
				// Another process appended while we read: start over rather than drop its lines.
				if ((await sizeIfExists(path)) !== bytes.byteLength) {
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
					const stats = await fs.stat(blob).catch(() => undefined);
					if (stats && now - stats.mtimeMs < YOUNG_BLOB_MS) continue;
					await fs.rm(blob, { force: true });
				}
				return;
			}
		} finally {
			await fs.rm(join(this.folder, LOCK), { force: true });
		}
	}

	/** The folders with their modes (made once per store). */
	private prepare(): Promise<void> {
		this.ready ??= (async () => {
			await fs.mkdir(join(this.folder, BLOBS), { recursive: true, mode: 0o700 });
			await fs.chmod(this.folder, 0o700);
			await fs.chmod(join(this.folder, BLOBS), 0o700);
			const records = join(this.folder, RECORDS);
			if (await exists(records)) await fs.chmod(records, 0o600);
		})();
		return this.ready;
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

function assertHash(hash: string): void {
	if (!HASH.test(hash)) throw new Error(`Not a content hash: ${hash.slice(0, 80)}`);
}

async function readIfExists(path: string): Promise<string> {
	return (await readBytesIfExists(path)).toString("utf8");
}

async function readBytesIfExists(path: string): Promise<Buffer> {
	try {
		return await fs.readFile(path);
	} catch (error) {
		if ((error as { code?: unknown }).code === "ENOENT") return Buffer.alloc(0);
		throw error;
	}
}

async function sizeIfExists(path: string): Promise<number> {
	try {
		return (await fs.stat(path)).size;
	} catch (error) {
		if ((error as { code?: unknown }).code === "ENOENT") return 0;
		throw error;
	}
}

async function exists(path: string): Promise<boolean> {
	return fs.lstat(path).then(
		() => true,
		() => false,
	);
}
