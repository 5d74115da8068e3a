import { contentHash } from "../../src/journal/content-hash";
import { Journal } from "../../src/journal/journal";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { TurnRewind, type RewindChooser } from "../../src/journal/turn-rewind";
import type { UndoVault } from "../../src/journal/undo";
import { testSeal } from "./test-seal";

/** A vault of bytes in memory (writes only over the expected bytes, as the roots' undo writes are). */
class BytesVault implements UndoVault {
	readonly files = new Map<string, Buffer>();
	readonly trashed: string[] = [];
	readonly written: string[] = [];
	readBytes(path: string): Promise<Uint8Array | undefined> {
		return Promise.resolve(this.files.get(path));
	}
	writeBytes(path: string, bytes: Uint8Array, expectedHash: string): Promise<void> {
		const current = this.files.get(path);
		if (!current || contentHash(current) !== expectedHash)
			return Promise.reject(new Error(`${path} changed since; nothing was written`));
		this.files.set(path, Buffer.from(bytes));
		this.written.push(path);
		return Promise.resolve();
	}
	exists(path: string): Promise<boolean> {
		return Promise.resolve(this.files.has(path));
	}
	renameNote(): Promise<void> {
		return Promise.reject(new Error("not here"));
	}
	trash(path: string): Promise<void> {
		this.files.delete(path);
		this.trashed.push(path);
		return Promise.resolve();
	}
}

const SESSION = { key: "s1", surface: "panel" as const, client: "claude-code" };

interface Fixture {
	journal: Journal;
	vault: BytesVault;
	rewind: TurnRewind;
	/** Claude writes `text` into `path` during `turn` (as the panel's gate journals a write). */
	write: (turn: string | undefined, path: string, text: string | Buffer) => Promise<string>;
}

function setUp(): Fixture {
	let clock = 0;
	const journal = new Journal({ store: new MemoryJournalStore(), now: () => ++clock, seal: testSeal() });
	const vault = new BytesVault();
	return {
		journal,
		vault,
		rewind: new TurnRewind(journal, vault),
		write: async (turn, path, text) => {
			const id = journal.begin({
				session: SESSION,
				tool: "Edit",
				notes: [path],
				args: "",
				...(turn && { turn }),
			});
			const before = vault.files.get(path);
			const after = Buffer.from(text);
			vault.files.set(path, after);
			await journal.recordChange(
				id,
				before === undefined
					? { kind: "create", path, after: contentHash(after) }
					: {
							kind: "edit",
							path,
							before: { hash: contentHash(before), bytes: before.length },
							after: contentHash(after),
						},
				before === undefined ? [] : [{ hash: contentHash(before), bytes: before }],
			);
			journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 0 });
			return id;
		},
	};
}

const never: RewindChooser = () => Promise.reject(new Error("no review expected"));

describe("TurnRewind", () => {
	it("puts back every note changed in the turns, byte for byte, to before the first of them; earlier turns stay", async () => {
		const { vault, rewind, write, journal } = setUp();
		const a = Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x0d, 0x0a, 0xc3, 0xa9]);
		vault.files.set("A.md", a);
		vault.files.set("B.md", Buffer.from("B0"));
		await write("t1", "B.md", "B1 (turn one)");
		await write("t2", "A.md", "A2");
		const b = await write("t3", "B.md", "B3");
		await write("t3", "A.md", "A3");
		expect(await rewind.plan(new Set(["t2", "t3"]))).toEqual({ restore: ["A.md", "B.md"], review: [], left: [] });
		const result = await rewind.restore(new Set(["t2", "t3"]), never);
		expect(result).toMatchObject({ restore: ["A.md", "B.md"], review: [], left: [] });
		expect(vault.files.get("A.md")?.equals(a)).toBe(true);
		expect(vault.files.get("B.md")?.toString()).toBe("B1 (turn one)");
		const entries = await journal.entries();
		expect(entries.filter((entry) => entry.undoneAt !== undefined).map((entry) => entry.turn)).toEqual([
			"t3",
			"t3",
			"t2",
		]);
		expect(entries.find((entry) => entry.id === b)?.turn).toBe("t3");
		// Nothing left to put back: a second rewind plans nothing.
		expect(await rewind.plan(new Set(["t2", "t3"]))).toEqual({ restore: [], review: [], left: [] });
	});

	it("sends a note Claude made in those turns to the trash", async () => {
		const { vault, rewind, write } = setUp();
		await write("t1", "New.md", "made by Claude");
		const result = await rewind.restore(new Set(["t1"]), never);
		expect(result.restore).toEqual(["New.md"]);
		expect(vault.trashed).toEqual(["New.md"]);
	});

	it("puts a note the user changed since to the review; what they choose is written over exactly what they saw", async () => {
		const { vault, rewind, write, journal } = setUp();
		vault.files.set("A.md", Buffer.from("mine before"));
		vault.files.set("B.md", Buffer.from("B0"));
		await write("t1", "A.md", "Claude's");
		await write("t1", "B.md", "B1");
		vault.files.set("A.md", Buffer.from("Claude's, then mine"));
		expect(await rewind.plan(new Set(["t1"]))).toEqual({ restore: ["B.md"], review: ["A.md"], left: [] });
		const asked: string[] = [];
		const result = await rewind.restore(new Set(["t1"]), ({ path, current, earlier }) => {
			asked.push(`${path}: ${Buffer.from(current).toString()} → ${Buffer.from(earlier).toString()}`);
			return Promise.resolve(Buffer.from("mine, chosen"));
		});
		expect(result).toMatchObject({ restore: ["B.md"], review: ["A.md"], left: [] });
		expect(await result.reviewed).toEqual([{ path: "A.md", outcome: "restored" }]);
		expect(asked).toEqual(["A.md: Claude's, then mine → mine before"]);
		expect(vault.files.get("A.md")?.toString()).toBe("mine, chosen");
		expect((await journal.entries()).every((entry) => entry.undoneAt !== undefined)).toBe(true);
	});

	it("keeps a note the user keeps in the review, and leaves its entry undoable from the activity view", async () => {
		const { vault, rewind, write, journal } = setUp();
		vault.files.set("A.md", Buffer.from("before"));
		await write("t1", "A.md", "Claude's");
		vault.files.set("A.md", Buffer.from("the user's"));
		const result = await rewind.restore(new Set(["t1"]), () => Promise.resolve(undefined));
		expect(await result.reviewed).toEqual([{ path: "A.md", outcome: "kept" }]);
		expect(vault.files.get("A.md")?.toString()).toBe("the user's");
		expect((await journal.entries())[0]?.undoneAt).toBeUndefined();
	});

	it("does not write a choice over a note changed again while the review was open", async () => {
		const { vault, rewind, write } = setUp();
		vault.files.set("A.md", Buffer.from("before"));
		await write("t1", "A.md", "Claude's");
		vault.files.set("A.md", Buffer.from("the user's"));
		const result = await rewind.restore(new Set(["t1"]), () => {
			vault.files.set("A.md", Buffer.from("typed while deciding"));
			return Promise.resolve(Buffer.from("before"));
		});
		expect(await result.reviewed).toEqual([
			{ path: "A.md", outcome: "not written", reason: "A.md changed since; nothing was written" },
		]);
		expect(vault.files.get("A.md")?.toString()).toBe("typed while deciding");
	});

	it("reviews a note someone wrote between two of Claude's changes, even when it now holds Claude's last text", async () => {
		const { vault, rewind, write } = setUp();
		vault.files.set("A.md", Buffer.from("v0"));
		await write("t1", "A.md", "v1");
		vault.files.set("A.md", Buffer.from("v1 and the user's line"));
		await write("t2", "A.md", "v2");
		expect(await rewind.plan(new Set(["t1", "t2"]))).toEqual({ restore: [], review: ["A.md"], left: [] });
	});

	it("leaves what it cannot put back, with the reason: a note gone, a note Claude made and the user changed, a move", async () => {
		const { vault, rewind, write, journal } = setUp();
		vault.files.set("Gone.md", Buffer.from("g0"));
		await write("t1", "Gone.md", "g1");
		vault.files.delete("Gone.md");
		await write("t1", "Made.md", "made");
		vault.files.set("Made.md", Buffer.from("made, then the user's"));
		const move = journal.begin({ session: SESSION, tool: "move_note", notes: [], args: "", turn: "t1" });
		await journal.recordChange(
			move,
			{ kind: "move", from: "Old.md", to: "New.md", after: "0".repeat(64), rewrites: [] },
			[],
		);
		journal.finish(move, { outcome: "ok", durationMs: 1, answerBytes: 0 });
		const plan = await rewind.plan(new Set(["t1"]));
		expect(plan.restore).toEqual([]);
		expect(plan.left).toEqual([
			{ path: "Gone.md", reason: "is gone (moved or deleted since)" },
			{ path: "Made.md", reason: "Claude made it, and it changed since; it stays as it is" },
			{ path: "Old.md", reason: "Claude moved or renamed it; undo that in the activity view" },
			{ path: "New.md", reason: "Claude moved or renamed it; undo that in the activity view" },
		]);
	});

	it("skips changes already undone, changes without a turn, and other turns", async () => {
		const { vault, rewind, write, journal } = setUp();
		vault.files.set("A.md", Buffer.from("a0"));
		vault.files.set("B.md", Buffer.from("b0"));
		vault.files.set("C.md", Buffer.from("c0"));
		const undone = await write("t1", "A.md", "a1");
		await journal.markUndone(undone);
		vault.files.set("A.md", Buffer.from("a0"));
		await write(undefined, "B.md", "b1");
		await write("t9", "C.md", "c1");
		expect(await rewind.plan(new Set(["t1"]))).toEqual({ restore: [], review: [], left: [] });
	});

	it("reads the turn back from the store as written; a turn that is not an id is never recorded", async () => {
		const store = new MemoryJournalStore();
		const seal = testSeal();
		const journal = new Journal({ store, seal });
		const id = journal.begin({ session: SESSION, tool: "Edit", notes: [], args: "", turn: "5b1c-turn" });
		journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 0 });
		await journal.flush();
		expect((await journal.entries())[0]?.turn).toBe("5b1c-turn");
		// A turn that is not an id (too long, or with a path in it) is never recorded.
		const odd = journal.begin({ session: SESSION, tool: "Edit", notes: [], args: "", turn: "../x" });
		journal.finish(odd, { outcome: "ok", durationMs: 1, answerBytes: 0 });
		expect((await journal.entries()).find((entry) => entry.id === odd)?.turn).toBeUndefined();
	});
});
