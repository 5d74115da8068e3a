import fc from "fast-check";
import { DEFAULT_JOURNAL_BOUNDS, measure, recordBytes, withinBounds } from "../../src/journal/journal-bounds";
import { blobsOf, type JournalRecord } from "../../src/journal/journal-records";
import type { JournalBounds } from "../../src/journal/journal-store";

const call = (id: string, at: number): JournalRecord => ({
	type: "call",
	id,
	at,
	session: { key: "s", surface: "ide" },
	tool: "t",
	notes: [],
	args: "",
	outcome: "ok",
	durationMs: 0,
	answerBytes: 0,
});
const edit = (id: string, at: number, hash: string, bytes: number): JournalRecord => ({
	type: "change",
	id,
	at,
	session: { key: "s", surface: "ide" },
	tool: "t",
	change: { kind: "edit", path: "a.md", before: { hash, bytes }, after: "f".repeat(64) },
});

describe("journal bounds", () => {
	it("defaults to what a user expects: 10,000 calls, 20 MB, 30 days", () => {
		expect(DEFAULT_JOURNAL_BOUNDS).toEqual({
			maxEntries: 10_000,
			maxBytes: 20 * 1024 * 1024,
			maxAgeMs: 30 * 24 * 60 * 60 * 1000,
		});
	});

	it("keeps a call's records together, newest calls first, in stored order", () => {
		const records = [call("a", 1), edit("b", 2, "1".repeat(64), 10), call("c", 3), call("b", 4)];
		const kept = withinBounds(records, { maxEntries: 2, maxBytes: Infinity, maxAgeMs: Infinity }, 10);
		expect(kept.map((record) => `${record.type}:${record.id}`)).toEqual(["change:b", "call:c", "call:b"]);
	});

	it("counts a shared pre-image once, and stops at the byte bound", () => {
		const shared = "2".repeat(64);
		const records = [edit("a", 1, shared, 5_000), edit("b", 2, shared, 5_000), edit("c", 3, "3".repeat(64), 5_000)];
		expect(measure(records).bytes).toBeLessThan(11_000);
		const kept = withinBounds(records, { maxEntries: 10, maxBytes: 6_000, maxAgeMs: Infinity }, 10);
		expect(kept.map((record) => record.id)).toEqual(["c"]);
	});

	it("drops calls older than the age bound", () => {
		expect(
			withinBounds(
				[call("old", 0), call("new", 90)],
				{ maxEntries: 10, maxBytes: Infinity, maxAgeMs: 50 },
				100,
			).map((record) => record.id),
		).toEqual(["new"]);
	});

	it("keeps the same records as grouping every record by call would (the simple form it replaced), ties included", () => {
		const record = fc.oneof(
			fc
				.record({ id: fc.constantFrom("a", "b", "c", "d", "e", "f"), at: fc.integer({ min: 0, max: 20 }) })
				.map(({ id, at }) => call(id, at)),
			fc
				.record({
					id: fc.constantFrom("a", "b", "c", "d", "e", "f"),
					at: fc.integer({ min: 0, max: 20 }),
					hash: fc.constantFrom("1", "2", "3"),
					bytes: fc.integer({ min: 1, max: 400 }),
				})
				.map(({ id, at, hash, bytes }) => edit(id, at, hash.repeat(64), bytes)),
		);
		const bounds = fc.record({
			maxEntries: fc.integer({ min: 0, max: 7 }),
			maxBytes: fc.integer({ min: 0, max: 4_000 }),
			maxAgeMs: fc.integer({ min: 0, max: 25 }),
		});
		fc.assert(
			fc.property(fc.array(record, { maxLength: 30 }), bounds, (records, limits) => {
				expect(withinBounds(records, limits, 22)).toEqual(groupedWithinBounds(records, limits, 22));
			}),
			{ numRuns: 2_000 },
		);
	});
});

/** The first form of `withinBounds`: every record in its call's group, groups newest first. */
function groupedWithinBounds(records: readonly JournalRecord[], bounds: JournalBounds, now: number): JournalRecord[] {
	const groups = new Map<string, { newest: number; records: JournalRecord[] }>();
	for (const record of records) {
		const group = groups.get(record.id);
		if (group) {
			group.records.push(record);
			group.newest = Math.max(group.newest, record.at);
		} else groups.set(record.id, { newest: record.at, records: [record] });
	}
	const kept = new Set<string>();
	const blobs = new Set<string>();
	let bytes = 0;
	for (const [id, group] of [...groups.entries()].sort((a, b) => b[1].newest - a[1].newest)) {
		if (kept.size >= bounds.maxEntries || now - group.newest > bounds.maxAgeMs) break;
		let groupBytes = 0;
		const newBlobs: string[] = [];
		for (const record of group.records) {
			groupBytes += recordBytes(record);
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
