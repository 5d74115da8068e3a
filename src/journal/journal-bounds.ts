import { blobsOf, type JournalRecord } from "./journal-records";
import type { JournalBounds, RecordSizes } from "./journal-store";

/** What a user would expect kept: the last 30 days, at most 10,000 calls and 20 MB. */
export const DEFAULT_JOURNAL_BOUNDS: JournalBounds = {
	maxEntries: 10_000,
	maxBytes: 20 * 1024 * 1024,
	maxAgeMs: 30 * 24 * 60 * 60 * 1000,
};

/** The size a record takes in a store (its JSON line). */
export function recordBytes(record: JournalRecord): number {
	return Buffer.byteLength(JSON.stringify(record), "utf8") + 1;
}

/** The blobs the records name. */
export function blobNames(records: readonly JournalRecord[]): Set<string> {
	const names = new Set<string>();
	for (const record of records) for (const blob of blobsOf(record)) names.add(blob.hash);
	return names;
}

/**
 * What a set of records takes: calls (entries), bytes (records and each blob once), and the oldest time.
 * `recordsBytes`: the records' own bytes when already known (what a store's append returned), else their sizes.
 */
export function measure(records: readonly JournalRecord[], recordsBytes: number | RecordSizes = recordBytes): { entries: number; bytes: number; oldest: number | undefined } {
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
export function withinBounds(records: readonly JournalRecord[], bounds: JournalBounds, now: number, sizeOf: RecordSizes = recordBytes): JournalRecord[] {
	const groups = new Map<string, { newest: number; records: JournalRecord[] }>();
	for (const record of records) {
		const group = groups.get(record.id);
		if (group) {
			group.records.push(record);
			group.newest = Math.max(group.newest, record.at);
		} else groups.set(record.id, { newest: record.at, records: [record] });
	}
	const newestFirst = [...groups.entries()].sort((a, b) => b[1].newest - a[1].newest);
	const kept = new Set<string>();
	const blobs = new Set<string>();
	let bytes = 0;
	for (const [id, group] of newestFirst) {
		if (kept.size >= bounds.maxEntries || now - group.newest > bounds.maxAgeMs) break;
		let groupBytes = 0;
		const newBlobs: string[] = [];
		for (const record of group.records) {
			groupBytes += sizeOf(record);
			for (const blob of blobsOf(record)) {
				if (blobs.has(blob.hash) || newBlobs.includes(blob.hash)) continue;
				newBlobs.push(blob.hash);
				groupBytes += blob.bytes;
			}
		}
		if (bytes + groupBytes > bounds.maxBytes) break;
		bytes += groupBytes;
		for (const blob of newBlobs) blobs.add(blob);
		kept.add(id);
	}
	return records.filter((record) => kept.has(record.id));
}
