import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FolderJournalStore } from "../../src/journal/folder-journal-store";
import { FLUSH_RECORDS, Journal } from "../../src/journal/journal";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { contentHash } from "../../src/journal/content-hash";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";

const SESSION = { key: "s1", surface: "ide" as const };
const DAY = 24 * 60 * 60 * 1000;

function journalWith(
	store = new MemoryJournalStore(),
	bounds = {},
	clock = { now: 1_000 * DAY },
): { journal: Journal; store: MemoryJournalStore | FolderJournalStore; clock: { now: number } } {
	let id = 0;
	const journal = new Journal({ store, bounds, now: () => ++clock.now, newId: () => `id${++id}` });
	return { journal, store, clock };
}

function record(journal: Journal, tool = "read_note"): string {
	const id = journal.begin({ session: SESSION, tool, notes: [], args: "" });
	journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 10 });
	return id;
}

describe("Journal", () => {
	it("keeps at most maxEntries calls in the store, the newest", async () => {
		const temp = makeTempDir("journal-bounds");
		try {
			const store = new FolderJournalStore(join(temp.path, "journal"));
			const { journal } = journalWith(store as never, { maxEntries: 10 });
			const ids = Array.from({ length: 25 }, () => record(journal));
			await journal.flush();
			const lines = readFileSync(join(temp.path, "journal", "records.jsonl"), "utf8")
				.trim()
				.split("\n");
			expect(lines.length).toBeLessThanOrEqual(10);
			const kept = (await journal.entries()).map((entry) => entry.id);
			expect(kept[0]).toBe(ids.at(-1));
			expect(kept.every((id) => ids.slice(-10).includes(id))).toBe(true);
		} finally {
			temp.remove();
		}
	});

	it("compacts to half of a bound, so that a full journal is compacted once per half a bound of calls, not on every flush", async () => {
		const store = new MemoryJournalStore();
		const compact = jest.spyOn(store, "compact");
		const { journal } = journalWith(store, { maxEntries: 100 });
		const ids: string[] = [];
		const recordAndFlush = async (count: number): Promise<void> => {
			for (let index = 0; index < count; index++) {
				ids.push(record(journal));
				await journal.flush();
			}
		};
		await recordAndFlush(101);
		expect(compact).toHaveBeenCalledTimes(1);
		expect((await journal.entries()).map((entry) => entry.id)).toEqual(ids.slice(-50).reverse());
		// Fifty more calls fill it up to the bound again without another compaction; the next one compacts.
		await recordAndFlush(50);
		expect(compact).toHaveBeenCalledTimes(1);
		await recordAndFlush(1);
		expect(compact).toHaveBeenCalledTimes(2);
		expect((await journal.entries()).length).toBe(50);
	});

	it("keeps the bytes of records and pre-images within maxBytes, dropping the oldest changes' pre-images", async () => {
		const { journal, store } = journalWith(new MemoryJournalStore(), { maxBytes: 20_000 });
		for (let index = 0; index < 10; index++) {
			const id = journal.begin({ session: SESSION, tool: "edit_note", notes: [], args: "" });
			const bytes = Buffer.alloc(3_000, index);
			await journal.recordChange(
				id,
				{
					kind: "edit",
					path: "a.md",
					before: { hash: contentHash(bytes), bytes: bytes.length },
					after: "0".repeat(64),
				},
				[{ hash: contentHash(bytes), bytes }],
			);
			journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 1 });
		}
		await journal.flush();
		const entries = await journal.entries();
		expect(entries.length).toBeLessThan(10);
		expect(entries.length).toBeGreaterThanOrEqual(2);
		expect((store as MemoryJournalStore).blobCount).toBe(entries.length);
		expect(entries.length * 3_000).toBeLessThanOrEqual(20_000);
	});

	it("drops calls older than maxAgeMs", async () => {
		const { journal, clock } = journalWith(new MemoryJournalStore(), { maxAgeMs: 30 * DAY });
		const old = record(journal);
		await journal.flush();
		clock.now += 31 * DAY;
		const fresh = record(journal);
		await journal.flush();
		expect((await journal.entries()).map((entry) => entry.id)).toEqual([fresh]);
		expect(old).not.toBe(fresh);
	});

	it("files a change under its call, shows a running call without an outcome, and records an unattributed write on its own", async () => {
		const { journal } = journalWith();
		const id = journal.begin({ session: SESSION, tool: "create_note", notes: [], args: "path=x.md" });
		await journal.recordChange(id, { kind: "create", path: "x.md", after: "a".repeat(64) }, []);
		let [entry] = await journal.entries();
		expect(entry).toMatchObject({ id, tool: "create_note", notes: ["x.md"] });
		expect(entry?.outcome).toBeUndefined();
		journal.finish(id, { outcome: "ok", durationMs: 2, answerBytes: 3 });
		[entry] = await journal.entries();
		expect(entry).toMatchObject({ id, outcome: "ok", changes: [{ kind: "create", path: "x.md" }] });
		await journal.recordChange(undefined, { kind: "create", path: "y.md", after: "b".repeat(64) }, []);
		await new Promise((resolve) => setImmediate(resolve));
		const lone = (await journal.entries()).find((candidate) => candidate.notes.includes("y.md"));
		expect(lone?.session).toEqual({ key: "unattributed", surface: "other" });
	});

	it("logs a store that fails, and goes on", async () => {
		const logs: string[] = [];
		const store = new MemoryJournalStore();
		store.append = () => Promise.reject(new Error("disk full"));
		const journal = new Journal({ store, log: (message) => logs.push(message) });
		record(journal);
		await journal.flush();
		expect(logs).toEqual(["The activity journal could not be written: disk full"]);
	});
});

/** Lets promise chains over an in-memory store run (long before FLUSH_DELAY_MS). */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("Journal's buffered appends", () => {
	/** A store that counts its appends. */
	function countingStore(): { store: MemoryJournalStore; appends: () => number } {
		const store = new MemoryJournalStore();
		const append = store.append.bind(store);
		let appends = 0;
		store.append = (records) => {
			appends++;
			return append(records);
		};
		return { store, appends: () => appends };
	}

	it("writes a burst of calls in one append, and every read sees them first", async () => {
		const { store, appends } = countingStore();
		const { journal } = journalWith(store);
		const ids = Array.from({ length: 5 }, () => record(journal));
		expect(await store.load()).toEqual([]);
		expect((await journal.entries()).map((entry) => entry.id)).toEqual([...ids].reverse());
		expect(appends()).toBe(1);
		expect((await store.load()).map((stored) => stored.id)).toEqual(ids);
	});

	it("writes waiting calls on its own after a short delay, or at once when FLUSH_RECORDS wait", async () => {
		const { store, appends } = countingStore();
		const { journal } = journalWith(store);
		record(journal);
		await settled();
		expect(appends()).toBe(0);
		await pollUntil(() => (appends() === 1 ? true : undefined), "the timer's append");
		for (let index = 0; index < FLUSH_RECORDS; index++) record(journal);
		await settled();
		expect(appends()).toBe(2);
		expect((await store.load()).length).toBe(1 + FLUSH_RECORDS);
	});

	it("loses nothing on close: what waits is written, and a call that ends after it is written at once", async () => {
		const temp = makeTempDir("journal-close");
		try {
			const folder = join(temp.path, "journal");
			const { journal } = journalWith(new FolderJournalStore(folder) as never);
			const first = record(journal);
			await journal.close();
			// Read by another process's store: only what reached the file.
			expect((await new FolderJournalStore(folder).load()).map((stored) => stored.id)).toEqual([first]);
		} finally {
			temp.remove();
		}
		const { store, appends } = countingStore();
		const { journal } = journalWith(store);
		const late = journal.begin({ session: SESSION, tool: "edit_note", notes: [], args: "" });
		await journal.close();
		journal.finish(late, { outcome: "ok", durationMs: 1, answerBytes: 1 });
		await settled();
		expect(appends()).toBe(1);
		expect((await store.load()).map((stored) => stored.id)).toEqual([late]);
	});

	it("writes a change at once, after the calls that ended before it, and an undo too", async () => {
		const { store } = countingStore();
		const { journal } = journalWith(store);
		const before = record(journal);
		const id = journal.begin({ session: SESSION, tool: "create_note", notes: [], args: "" });
		await journal.recordChange(id, { kind: "create", path: "x.md", after: "a".repeat(64) }, []);
		expect((await store.load()).map((stored) => [stored.type, stored.id])).toEqual([
			["call", before],
			["change", id],
		]);
		await journal.markUndone(id);
		expect((await store.load()).at(-1)).toMatchObject({ type: "undo", id });
	});

	it("keeps a pre-image kept before a write through a compaction that runs before the write is recorded", async () => {
		const { journal, store } = journalWith(new MemoryJournalStore(), { maxEntries: 2 });
		const bytes = Buffer.from("before\n");
		const image = { hash: contentHash(bytes), bytes };
		await journal.keepPreImages([image]);
		// Calls ending meanwhile push the journal past its bound: it compacts.
		for (let index = 0; index < 4; index++) record(journal);
		await journal.flush();
		expect(await store.getBlob(image.hash)).toBeDefined();
		const id = journal.begin({ session: SESSION, tool: "edit_note", notes: [], args: "" });
		await journal.recordChange(
			id,
			{ kind: "edit", path: "a.md", before: { hash: image.hash, bytes: bytes.length }, after: "b".repeat(64) },
			[image],
		);
		expect(Buffer.from((await store.getBlob(image.hash))!).equals(bytes)).toBe(true);
	});

	it("drops a released pre-image at once, but not while another write it protects is in progress", async () => {
		const { journal, store } = journalWith(new MemoryJournalStore(), {});
		const bytes = Buffer.from("the same bytes in two notes\n");
		const image = { hash: contentHash(bytes), bytes };
		// Two writes at once over notes holding the same bytes: one is not recorded, the other is.
		await journal.keepPreImages([image]);
		await journal.keepPreImages([image]);
		await journal.releasePreImages([image]);
		expect(await store.getBlob(image.hash)).toBeDefined();
		const id = journal.begin({ session: SESSION, tool: "edit_note", notes: [], args: "" });
		await journal.recordChange(
			id,
			{ kind: "edit", path: "a.md", before: { hash: image.hash, bytes: bytes.length }, after: "b".repeat(64) },
			[image],
		);
		expect(Buffer.from((await store.getBlob(image.hash))!).equals(bytes)).toBe(true);
		// A third write over those bytes, not recorded: the recorded edit still names them, so they stay.
		await journal.keepPreImages([image]);
		await journal.releasePreImages([image]);
		expect(await store.getBlob(image.hash)).toBeDefined();
		const alone = { hash: contentHash(Buffer.from("alone\n")), bytes: Buffer.from("alone\n") };
		await journal.keepPreImages([alone]);
		await journal.releasePreImages([alone]);
		expect(await store.getBlob(alone.hash)).toBeUndefined();
	});

	it("describes a call when its record is written, once", async () => {
		const { store } = countingStore();
		const { journal } = journalWith(store);
		let described = 0;
		const id = journal.begin({
			session: SESSION,
			tool: "read_note",
			describe: () => {
				described++;
				return { notes: ["a.md"], args: "path=a.md" };
			},
		});
		journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 1 });
		expect(described).toBe(0);
		await journal.flush();
		await journal.entries();
		expect(described).toBe(1);
		expect(await store.load()).toMatchObject([{ id, notes: ["a.md"], args: "path=a.md" }]);
	});
	it("writes a call's line with its fields in the order the journal's readers expect: a turn after the session, a detail after the sizes", async () => {
		const temp = makeTempDir("journal-line-order");
		try {
			const store = new FolderJournalStore(join(temp.path, "journal"));
			const { journal } = journalWith(store as never);
			const plain = journal.begin({ session: SESSION, tool: "read_note", notes: ["a.md"], args: "path=a.md" });
			journal.finish(plain, { outcome: "ok", durationMs: 1, answerBytes: 10 });
			const inTurn = journal.begin({ session: SESSION, turn: "turn-1", tool: "edit", notes: [], args: "" });
			journal.finish(inTurn, { outcome: "error", detail: "no such note", durationMs: 2, answerBytes: 0 });
			await journal.flush();
			const keys = readFileSync(join(temp.path, "journal", "records.jsonl"), "utf8")
				.trim()
				.split("\n")
				.map((line) => Object.keys(JSON.parse(line) as object));
			const head = ["type", "id", "at", "session"];
			const tail = ["tool", "notes", "args", "outcome", "durationMs", "answerBytes"];
			expect(keys).toEqual([
				[...head, ...tail],
				[...head, "turn", ...tail, "detail"],
			]);
		} finally {
			temp.remove();
		}
	});
});
