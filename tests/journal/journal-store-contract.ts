import { contentHash } from "../../src/journal/content-hash";
import { recordBytes } from "../../src/journal/journal-bounds";
import type { JournalRecord } from "../../src/journal/journal-records";
import type { JournalStore } from "../../src/journal/journal-store";

/** A store under test; `ageBlobs` makes its blobs old enough for compaction to drop (a shared store keeps young ones). */
interface MadeStore {
	store: JournalStore;
	dispose: () => void;
	ageBlobs?: () => void;
}

/** What every `JournalStore` adapter must do; run by each adapter's own test. */
export function journalStoreContract(name: string, create: () => MadeStore): void {
	describe(`${name} as a JournalStore`, () => {
		let made: MadeStore | undefined;
		beforeEach(() => {
			made = create();
		});
		afterEach(() => made?.dispose());

		const call = (id: string, at: number): JournalRecord => ({
			type: "call",
			id,
			at,
			session: { key: "s1", surface: "ide" },
			tool: "t",
			notes: [],
			args: "",
			outcome: "ok",
			durationMs: 1,
			answerBytes: 2,
		});

		it("gives back appended records in order, and blobs by hash, byte for byte", async () => {
			const store = made!.store;
			await store.append([call("a", 1)]);
			await store.append([{ type: "undo", id: "a", at: 2 }]);
			expect((await store.load()).map((record) => [record.type, record.id])).toEqual([
				["call", "a"],
				["undo", "a"],
			]);
			const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0xe9, 0x00]);
			const hash = contentHash(bytes);
			await store.putBlob(hash, bytes);
			expect(Buffer.from((await store.getBlob(hash))!).equals(Buffer.from(bytes))).toBe(true);
			expect(await store.getBlob(contentHash(Uint8Array.from([1])))).toBeUndefined();
		});

		it("tells the bytes appended records take: their JSON lines, as the bounds count them", async () => {
			const accented: JournalRecord = {
				type: "call",
				id: "b",
				at: 2,
				session: { key: "s1", surface: "ide" },
				tool: "t",
				notes: ["Café ✓.md"],
				args: 'path="Café ✓.md"',
				outcome: "ok",
				durationMs: 1,
				answerBytes: 2,
			};
			const records: JournalRecord[] = [call("a", 1), accented, { type: "undo", id: "a", at: 3 }];
			expect(await made!.store.append(records)).toBe(
				records.reduce((sum, record) => sum + recordBytes(record), 0),
			);
			expect(await made!.store.append([])).toBe(0);
		});

		it("gives the heads of the records stored, a change's in full, each with its size in the store", async () => {
			const store = made!.store;
			const change: JournalRecord = {
				type: "change",
				id: "a",
				at: 2,
				session: { key: "s1", surface: "ide" },
				tool: "t",
				change: { kind: "edit", path: "Café.md", before: { hash: "a".repeat(64), bytes: 1 }, after: "x" },
			};
			const bytes = await store.append([change, call("a", 1), { type: "undo", id: "a", at: 3 }]);
			const { heads, sizes } = await store.heads();
			expect(heads.map((head) => [head.type, head.id, head.at])).toEqual([
				["change", "a", 2],
				["call", "a", 1],
				["undo", "a", 3],
			]);
			expect(heads[0]).toEqual(change);
			expect(heads.reduce((sum, head) => sum + sizes(head), 0)).toBe(bytes);
		});

		it("drops a blob at once, but not one kept again after the time given (for another write)", async () => {
			const store = made!.store;
			const released = Uint8Array.from([1, 2, 3]);
			const keptAgain = Uint8Array.from([4, 5, 6]);
			await store.putBlob(contentHash(released), released);
			await store.putBlob(contentHash(keptAgain), keptAgain);
			const keptAt = Date.now() + 1;
			await new Promise((resolve) => setTimeout(resolve, 5));
			await store.putBlob(contentHash(keptAgain), keptAgain);
			await store.dropBlob(contentHash(released), keptAt);
			await store.dropBlob(contentHash(keptAgain), keptAt);
			await store.dropBlob(contentHash(Uint8Array.from([9])), keptAt);
			expect(await store.getBlob(contentHash(released))).toBeUndefined();
			expect(Buffer.from((await store.getBlob(contentHash(keptAgain)))!).equals(Buffer.from(keptAgain))).toBe(
				true,
			);
		});

		it("compacts to the records selected and the blobs they keep", async () => {
			const store = made!.store;
			const kept = Uint8Array.from([1, 2, 3]);
			const dropped = Uint8Array.from([4, 5, 6]);
			await store.putBlob(contentHash(kept), kept);
			await store.putBlob(contentHash(dropped), dropped);
			await store.append([call("old", 1)]);
			await store.append([call("new", 2)]);
			made!.ageBlobs?.();
			await store.compact(
				(records) => records.filter((record) => record.id === "new"),
				() => new Set([contentHash(kept)]),
			);
			expect((await store.load()).map((record) => record.id)).toEqual(["new"]);
			expect(await store.getBlob(contentHash(kept))).toBeDefined();
			expect(await store.getBlob(contentHash(dropped))).toBeUndefined();
		});
	});
}
