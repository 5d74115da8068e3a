import { blobsOf, type PreImage, type RecordHead } from "./journal-records";
import type { JournalBounds, RecordSizes } from "./journal-store";

/** What a user would expect kept: the last 30 days, at most 10,000 calls and 20 MB. */
export const DEFAULT_JOURNAL_BOUNDS: JournalBounds = {
	maxEntries: 10_000,
	maxBytes: 20 * 1024 * 1024,
	maxAgeMs: 30 * 24 * 60 * 60 * 1000,
};

/** The size a record takes in a store (its JSON line; of a whole record, not of a head alone). */
export function recordBytes(record: RecordHead): number {
	return Buffer.byteLength(JSON.stringify(record), "utf8") + 1;
}

/** The blobs the records name. */
export function blobNames(records: readonly RecordHead[]): Set<string> {
	const names = new Set<string>();
	for (const record of records) for (const blob of blobsOf(record)) names.add(blob.hash);
	return names;
}

/**
 * What a set of records takes: calls (entries), bytes (records and each blob once), and the oldest time.
 * `recordsBytes`: the records' own bytes when already known (what a store's append returned), else their sizes.
 */
export function measure(
	records: readonly RecordHead[],
	recordsBytes: number | RecordSizes = recordBytes,
): { entries: number; bytes: number; oldest: number | undefined } {
	const ids = new Set<string>();
	const blobs = new Map<string, number>();
	let bytes = typeof recordsBytes === "number" ? recordsBytes : 0;
	let oldest: number | undefined;
	for (const record of records) {
		ids.add(record.id);
		if (typeof recordsBytes !== "number") bytes += recordsBytes(record);
		for (const blob of blobsOf(record)) blobs.set(blob.hash, blob.bytes);
		if (oldest === undefined || record.at < oldest) oldest = record.at;
	}
	for (const size of blobs.values()) bytes += size;
	return { entries: ids.size, bytes, oldest };
}

/**
 * The records of the newest calls that fit all three bounds (a call's records stay together; a call is as old as
 * its newest record), in their stored order.
 */
export function withinBounds<Record extends RecordHead>(
	records: readonly Record[],
	bounds: JournalBounds,
	now: number,
	sizeOf: RecordSizes = recordBytes,
): Record[] {
	// One pass for each call's newest time, bytes and pre-images (most calls have one record and none).
	const calls = new Map<string, { newest: number; bytes: number; blobs: PreImage[] | undefined }>();
	for (const record of records) {
		const bytes = sizeOf(record);
		const blobs = blobsOf(record);
		const known = calls.get(record.id);
		if (known === undefined)
			calls.set(record.id, { newest: record.at, bytes, blobs: blobs.length > 0 ? [...blobs] : undefined });
		else {
			if (record.at > known.newest) known.newest = record.at;
			known.bytes += bytes;
			if (blobs.length > 0) (known.blobs ??= []).push(...blobs);
		}
	}
	const newestFirst = [...calls].sort((a, b) => b[1].newest - a[1].newest);
	const kept = new Set<string>();
	const keptBlobs = new Set<string>();
	let total = 0;
	for (const [id, call] of newestFirst) {
		if (kept.size >= bounds.maxEntries || now - call.newest > bounds.maxAgeMs) break;
		let callBytes = call.bytes;
		const newBlobs: string[] = [];
		for (const blob of call.blobs ?? []) {
			if (keptBlobs.has(blob.hash) || newBlobs.includes(blob.hash)) continue;
			newBlobs.push(blob.hash);
			callBytes += blob.bytes;
		}
		if (total + callBytes > bounds.maxBytes) break;
		total += callBytes;
		for (const blob of newBlobs) keptBlobs.add(blob);
		kept.add(id);
	}
	return records.filter((record) => kept.has(record.id));
}
