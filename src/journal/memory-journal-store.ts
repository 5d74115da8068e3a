import { recordBytes } from "./journal-bounds";
import type { JournalRecord, RecordHead } from "./journal-records";
import { PreImageError, type JournalStore, type RecordSizes } from "./journal-store";

/** A journal kept in memory: for tests, and a stand-in where no storage is given. */
export class MemoryJournalStore implements JournalStore {
	private records: JournalRecord[] = [];
	private readonly blobs = new Map<string, Uint8Array>();
	/** When each blob was last put (as a folder store's modification time tells). */
	private readonly blobPutAt = new Map<string, number>();

	load(): Promise<JournalRecord[]> {
		return Promise.resolve(this.records.map((record) => structuredClone(record)));
	}

	heads(): Promise<{ heads: RecordHead[]; sizes: RecordSizes }> {
		return Promise.resolve({ heads: [...this.records], sizes: recordBytes });
	}

	append(records: readonly JournalRecord[]): Promise<number> {
		let bytes = 0;
		for (const record of records) {
			this.records.push(structuredClone(record));
			bytes += recordBytes(record);
		}
		return Promise.resolve(bytes);
	}

	putBlob(hash: string, bytes: Uint8Array): Promise<void> {
		if (!this.blobs.has(hash)) this.blobs.set(hash, Uint8Array.from(bytes));
		this.blobPutAt.set(hash, Date.now());
		return Promise.resolve();
	}

	getBlob(hash: string, maxBytes = Infinity): Promise<Uint8Array | undefined> {
		const bytes = this.blobs.get(hash);
		if (bytes && bytes.byteLength > maxBytes)
			return Promise.reject(new PreImageError("is larger than the record says"));
		return Promise.resolve(bytes ? Uint8Array.from(bytes) : undefined);
	}

	dropBlob(hash: string, keptAt: number): Promise<void> {
		if ((this.blobPutAt.get(hash) ?? 0) <= keptAt) {
			this.blobs.delete(hash);
			this.blobPutAt.delete(hash);
		}
		return Promise.resolve();
	}

	compact(
		select: (records: RecordHead[], sizes: RecordSizes) => RecordHead[],
		keepBlobs: (records: RecordHead[]) => ReadonlySet<string>,
	): Promise<void> {
		const picked = new Set(select(this.records, recordBytes));
		this.records = this.records.filter((record) => picked.has(record));
		const keep = keepBlobs(this.records);
		for (const hash of [...this.blobs.keys()]) {
			if (keep.has(hash)) continue;
			this.blobs.delete(hash);
			this.blobPutAt.delete(hash);
		}
		return Promise.resolve();
	}

	/** Puts bytes under a name as someone else could (tests: a swapped pre-image). */
	plantBlob(hash: string, bytes: Uint8Array): void {
		this.blobs.set(hash, Uint8Array.from(bytes));
	}

	/** Blobs held now (tests). */
	get blobCount(): number {
		return this.blobs.size;
	}
}
