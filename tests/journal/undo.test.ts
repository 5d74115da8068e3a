import { contentHash } from "../../src/journal/content-hash";
import { Journal } from "../../src/journal/journal";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { Undo, type UndoVault } from "../../src/journal/undo";
import { testSeal } from "./test-seal";

/** A vault of bytes in memory; its rename moves one note (links are the folder test's business). */
class BytesVault implements UndoVault {
	readonly files = new Map<string, Buffer>();
	readonly trashed: string[] = [];

	readBytes(path: string): Promise<Uint8Array | undefined> {
		return Promise.resolve(this.files.get(path));
	}
	writeBytes(path: string, bytes: Uint8Array, expectedHash: string): Promise<void> {
		const current = this.files.get(path);
		if (!current || contentHash(current) !== expectedHash) return Promise.reject(new Error(`${path} changed`));
		this.files.set(path, Buffer.from(bytes));
		return Promise.resolve();
	}
	exists(path: string): Promise<boolean> {
		return Promise.resolve(this.files.has(path));
	}
	renameNote(from: string, to: string): Promise<void> {
		const bytes = this.files.get(from);
		if (!bytes) return Promise.reject(new Error(`no ${from}`));
		this.files.delete(from);
		this.files.set(to, bytes);
		return Promise.resolve();
	}
	trash(path: string): Promise<void> {
		this.files.delete(path);
		this.trashed.push(path);
		return Promise.resolve();
	}
}

const SESSION = { key: "s1", surface: "vault-tools-http" as const };

async function edit(journal: Journal, vault: BytesVault, path: string, text: string): Promise<string> {
	const id = journal.begin({ session: SESSION, tool: "edit_note", notes: [], args: "" });
	const before = vault.files.get(path)!;
	const after = Buffer.from(text);
	vault.files.set(path, after);
	await journal.recordChange(id, { kind: "edit", path, before: { hash: contentHash(before), bytes: before.length }, after: contentHash(after) }, [{ hash: contentHash(before), bytes: before }]);
	journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 1 });
	return id;
}

describe("Undo", () => {
	let clock = 0;
	const setUp = (): { journal: Journal; vault: BytesVault; undo: Undo; store: MemoryJournalStore } => {
		const store = new MemoryJournalStore();
		const journal = new Journal({ store, now: () => ++clock, seal: testSeal() });
		const vault = new BytesVault();
		return { journal, vault, undo: new Undo(journal, vault), store };
	};

	it("puts the exact bytes back, once", async () => {
		const { journal, vault, undo } = setUp();
		const original = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff]);
		vault.files.set("n.md", original);
		const id = await edit(journal, vault, "n.md", "changed");
		expect(await undo.entry(id)).toEqual({ kind: "undone", id, notes: ["n.md"] });
		expect(vault.files.get("n.md")?.equals(original)).toBe(true);
		expect(await undo.entry(id)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/undone already/) as unknown });
	});

	it("answers a conflict with both sides for a three-way review, writing nothing", async () => {
		const { journal, vault, undo } = setUp();
		vault.files.set("n.md", Buffer.from("before"));
		const id = await edit(journal, vault, "n.md", "claude's");
		vault.files.set("n.md", Buffer.from("user's"));
		const result = await undo.entry(id);
		expect(result).toMatchObject({ kind: "conflict", reason: "n.md changed since; nothing was undone" });
		if (result.kind !== "conflict") throw new Error("a conflict");
		expect(Buffer.from(result.conflicts[0].restore!).toString()).toBe("before");
		expect(Buffer.from(result.conflicts[0].current!).toString()).toBe("user's");
		expect(vault.files.get("n.md")?.toString()).toBe("user's");
	});

	it("refuses when the pre-image is no longer kept", async () => {
		const { journal, vault, undo, store } = setUp();
		vault.files.set("n.md", Buffer.from("before"));
		const id = await edit(journal, vault, "n.md", "after");
		await store.compact((records) => records, () => new Set());
		expect(await undo.entry(id)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/no longer kept/) as unknown });
		expect(vault.files.get("n.md")?.toString()).toBe("after");
	});

	it("undoes a session newest first; an older change of a note changed again undoes cleanly after the newer", async () => {
		const { journal, vault, undo } = setUp();
		vault.files.set("n.md", Buffer.from("v0"));
		const first = await edit(journal, vault, "n.md", "v1");
		const second = await edit(journal, vault, "n.md", "v2");
		const results = await undo.session("s1");
		expect(results.map((result) => [result.kind, result.id])).toEqual([
			["undone", second],
			["undone", first],
		]);
		expect(vault.files.get("n.md")?.toString()).toBe("v0");
	});

	it("trashes a created note only while unchanged, and moves a moved note back only when its old place is free", async () => {
		const { journal, vault, undo } = setUp();
		vault.files.set("new.md", Buffer.from("made"));
		const created = journal.begin({ session: SESSION, tool: "create_note", notes: [], args: "" });
		await journal.recordChange(created, { kind: "create", path: "new.md", after: contentHash(Buffer.from("made")) }, []);
		vault.files.set("moved/m.md", Buffer.from("m"));
		vault.files.set("m.md", Buffer.from("someone put a file here"));
		const moved = journal.begin({ session: SESSION, tool: "move_note", notes: [], args: "" });
		await journal.recordChange(moved, { kind: "move", from: "m.md", to: "moved/m.md", after: contentHash(Buffer.from("m")), rewrites: [] }, []);
		expect(await undo.entry(moved)).toMatchObject({ kind: "conflict", reason: "m.md is taken by another file now; nothing was undone" });
		vault.files.set("new.md", Buffer.from("made, then edited"));
		expect(await undo.entry(created)).toMatchObject({ kind: "conflict" });
		expect(vault.trashed).toEqual([]);
		vault.files.set("new.md", Buffer.from("made"));
		expect(await undo.entry(created)).toMatchObject({ kind: "undone" });
		expect(vault.trashed).toEqual(["new.md"]);
	});
});
