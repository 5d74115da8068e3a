import type { JournalRecord, RecordHead } from "./journal-records";

/** The size of each record in a store: a store that read them gives the sizes of their lines (no encoding again). */
export type RecordSizes = (record: RecordHead) => number;

/** How much the journal keeps: the newest calls within all three bounds. */
export interface JournalBounds {
	maxEntries: number;
	/** Records and pre-images together. */
	maxBytes: number;
	maxAgeMs: number;
}

/**
 * Where the journal lives: a folder in the user's data folder (headless host, stdio server), the plugin's own
 * storage (Obsidian), or memory (tests). Never the vault's notes. Records are appended in order; pre-images are
 * blobs named by their hash.
 */
export interface JournalStore {
	/** Every record stored now, oldest first (records of other processes sharing the store included). */
	load(): Promise<JournalRecord[]>;
	/**
	 * What the journal's bounds read of every record stored now (`RecordHead`: a store may skip parsing the rest of
	 * a call's line), oldest first, with each one's size in the store.
	 */
	heads(): Promise<{ heads: RecordHead[]; sizes: RecordSizes }>;
	/**
	 * Adds records after those stored, in order, as one write (records of processes appending at once never mix).
	 * `lines`, when given, are the records' JSON (`JSON.stringify` of each, as the journal encoded them once): a store
	 * of lines writes them as they are. Resolves to the bytes they take in the store (`recordBytes` of each), so the
	 * journal's bounds need not encode them again.
	 */
	append(records: readonly JournalRecord[], lines?: readonly string[]): Promise<number>;
	/** Keeps a note's bytes under their hash (a blob already there is kept as it is). */
	putBlob(hash: string, bytes: Uint8Array): Promise<void>;
	/**
	 * A kept note's bytes; undefined when none are kept under that name. Throws `PreImageError` when what is there is
	 * no blob of ours: a link (never followed), not a plain file, or more than `maxBytes` (default: any size).
	 */
	getBlob(hash: string, maxBytes?: number): Promise<Uint8Array | undefined>;
	/**
	 * Removes a blob no record names, unless it was kept again after `keptAt` (ms since the epoch; by another
	 * process sharing the store, for a write of its own). Nothing there is no error.
	 */
	dropBlob(hash: string, keptAt: number): Promise<void>;
	/**
	 * Keeps only the records `select` picks from those stored at that moment (read afresh; a store may give each
	 * record's head only, see `RecordHead`, and keeps the whole of each record picked), and only the blobs
	 * `keepBlobs` names for them (and, in a store other processes share, blobs written in the last minute: a
	 * pre-image is kept before the write it protects, so its change may not be recorded yet); done as one step, so
	 * an append never lands half-compacted.
	 */
	compact(
		select: (records: RecordHead[], sizes: RecordSizes) => RecordHead[],
		keepBlobs: (records: RecordHead[]) => ReadonlySet<string>,
	): Promise<void>;
}

/** What the journal's folder holds under a pre-image's name is not that pre-image: it is never written back. */
export class PreImageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "PreImageError";
	}
}
