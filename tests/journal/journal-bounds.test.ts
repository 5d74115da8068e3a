import { DEFAULT_JOURNAL_BOUNDS, measure, withinBounds } from "../../src/journal/journal-bounds";
import type { JournalRecord } from "../../src/journal/journal-records";

const call = (id: string, at: number): JournalRecord => ({ type: "call", id, at, session: { key: "s", surface: "ide" }, tool: "t", notes: [], args: "", outcome: "ok", durationMs: 0, answerBytes: 0 });
const edit = (id: string, at: number, hash: string, bytes: number): JournalRecord => ({ type: "change", id, at, session: { key: "s", surface: "ide" }, tool: "t", change: { kind: "edit", path: "a.md", before: { hash, bytes }, after: "f".repeat(64) } });

describe("journal bounds", () => {
	it("defaults to what a user expects: 10,000 calls, 20 MB, 30 days", () => {
		expect(DEFAULT_JOURNAL_BOUNDS).toEqual({ maxEntries: 10_000, maxBytes: 20 * 1024 * 1024, maxAgeMs: 30 * 24 * 60 * 60 * 1000 });
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
		expect(withinBounds([call("old", 0), call("new", 90)], { maxEntries: 10, maxBytes: Infinity, maxAgeMs: 50 }, 100).map((record) => record.id)).toEqual(["new"]);
	});
});
