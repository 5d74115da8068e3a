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
	await journal.recordChange(
		id,
		{ kind: "edit", path, before: { hash: contentHash(before), bytes: before.length }, after: contentHash(after) },
		[{ hash: contentHash(before), bytes: before }],
	);
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
		expect(await undo.entry(id)).toMatchObject({
			kind: "refused",
			reason: expect.stringMatching(/undone already/) as unknown,
		});
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
		await store.compact(
			(records) => records,
			() => new Set(),
		);
		expect(await undo.entry(id)).toMatchObject({
			kind: "refused",
			reason: expect.stringMatching(/no longer kept/) as unknown,
		});
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
		await journal.recordChange(
			created,
			{ kind: "create", path: "new.md", after: contentHash(Buffer.from("made")) },
			[],
		);
		vault.files.set("moved/m.md", Buffer.from("m"));
		vault.files.set("m.md", Buffer.from("someone put a file here"));
		const moved = journal.begin({ session: SESSION, tool: "move_note", notes: [], args: "" });
		await journal.recordChange(
			moved,
			{ kind: "move", from: "m.md", to: "moved/m.md", after: contentHash(Buffer.from("m")), rewrites: [] },
			[],
		);
		expect(await undo.entry(moved)).toMatchObject({
			kind: "conflict",
			reason: "m.md is taken by another file now; nothing was undone",
		});
		vault.files.set("new.md", Buffer.from("made, then edited"));
		expect(await undo.entry(created)).toMatchObject({ kind: "conflict" });
		expect(vault.trashed).toEqual([]);
		vault.files.set("new.md", Buffer.from("made"));
		expect(await undo.entry(created)).toMatchObject({ kind: "undone" });
		expect(vault.trashed).toEqual(["new.md"]);
	});

	describe("the journal read back is untrusted (its folder syncs with the vault)", () => {
		const SECRET = Buffer.from("-----BEGIN PRIVATE KEY-----\n");
		/** Records as someone with write access to the journal's folder would plant them, and the notes they aim at. */
		const planted = async (
			mac?: string,
		): Promise<{ vault: BytesVault; undo: Undo; store: MemoryJournalStore; journal: Journal }> => {
			const { journal, vault, undo, store } = setUp();
			vault.files.set("Note.md", Buffer.from("mine\n"));
			vault.files.set("Victim.md", Buffer.from("victim\n"));
			const session = { key: "s-evil", surface: "panel" as const };
			const seal = mac === undefined ? {} : { mac };
			const at = Date.now() + 1_000;
			store.plantBlob(contentHash(SECRET), SECRET);
			await store.append([
				{
					type: "change",
					id: "evil-edit",
					at,
					session,
					tool: "Edit",
					change: {
						kind: "edit",
						path: "Note.md",
						before: { hash: contentHash(SECRET), bytes: SECRET.length },
						after: contentHash(Buffer.from("mine\n")),
					},
					...seal,
				},
				{
					type: "change",
					id: "evil-create",
					at,
					session,
					tool: "Write",
					change: { kind: "create", path: "Victim.md", after: contentHash(Buffer.from("victim\n")) },
					...seal,
				},
			]);
			return { vault, undo, store, journal };
		};

		it("never acts on a record this device did not seal, with a seal that does not hold or none: it is unreadable and nothing is touched", async () => {
			for (const mac of [undefined, "f".repeat(64)]) {
				const { vault, undo, journal } = await planted(mac);
				for (const id of ["evil-edit", "evil-create"]) {
					const result = await undo.entry(id);
					expect(result).toEqual({
						kind: "refused",
						id,
						reason: expect.stringMatching(
							/^the journal's record of evil-\w+ is unreadable: this device did not write it as it reads now .*; nothing was undone$/,
						) as unknown,
					});
				}
				expect(vault.files.get("Note.md")?.toString()).toBe("mine\n");
				expect(vault.files.get("Victim.md")?.toString()).toBe("victim\n");
				expect(vault.trashed).toEqual([]);
				const entries = await journal.entries();
				expect(
					entries.map((entry) => ({
						id: entry.id,
						notes: entry.notes,
						changes: entry.changes,
						unreadable: entry.unreadable !== undefined,
					})),
				).toEqual([
					{ id: "evil-create", notes: [], changes: [], unreadable: true },
					{ id: "evil-edit", notes: [], changes: [], unreadable: true },
				]);
				expect(await undo.session("s-evil")).toEqual([]);
			}
		});

		it("a planted record under the id of a call of this device makes that call unreadable, never partly undone", async () => {
			const { journal, vault, undo, store } = setUp();
			vault.files.set("n.md", Buffer.from("before"));
			const id = await edit(journal, vault, "n.md", "after");
			await store.append([
				{
					type: "change",
					id,
					at: Date.now() + 1_000,
					session: SESSION,
					tool: "edit_note",
					change: { kind: "create", path: "Victim.md", after: "0".repeat(64) },
				},
			]);
			expect(await undo.entry(id)).toMatchObject({
				kind: "refused",
				reason: expect.stringMatching(/unreadable/) as unknown,
			});
			expect(vault.files.get("n.md")?.toString()).toBe("after");
		});

		it("refuses a sealed edit whose pre-image was swapped in the journal's folder, writing nothing", async () => {
			const { journal, vault, undo, store } = setUp();
			vault.files.set("n.md", Buffer.from("before"));
			const id = await edit(journal, vault, "n.md", "after");
			store.plantBlob(contentHash(Buffer.from("before")), Buffer.from("BEFORE"));
			expect(await undo.entry(id)).toEqual({
				kind: "refused",
				id,
				reason: "the earlier text of n.md in the journal's folder is not the text that was kept; nothing was undone",
			});
			expect(vault.files.get("n.md")?.toString()).toBe("after");
		});

		it("refuses a sealed change whose path the vault no longer allows (private now, or leading out through a link), writing nothing", async () => {
			const { journal, vault, store } = setUp();
			vault.files.set("n.md", Buffer.from("before"));
			const id = await edit(journal, vault, "n.md", "after");
			const guarded = Object.assign(Object.create(vault) as BytesVault, {
				pathProblem: (path: string) =>
					path === "n.md" ? "a private note or a file of the config folder" : undefined,
			});
			expect(await new Undo(journal, guarded).entry(id)).toEqual({
				kind: "refused",
				id,
				reason:
					"edit_note (" + id + ") names a private note or a file of the config folder; nothing was undone",
			});
			expect(vault.files.get("n.md")?.toString()).toBe("after");
			expect(store.blobCount).toBe(1);
		});

		it("a record written before records were sealed is shown, and refused as such", async () => {
			const store = new MemoryJournalStore();
			const vault = new BytesVault();
			vault.files.set("n.md", Buffer.from("after"));
			await store.append([
				{
					type: "change",
					id: "old",
					at: 5,
					session: SESSION,
					tool: "edit_note",
					change: {
						kind: "edit",
						path: "n.md",
						before: { hash: contentHash(Buffer.from("x")), bytes: 1 },
						after: contentHash(Buffer.from("after")),
					},
				},
			]);
			const journal = new Journal({ store, seal: testSeal("/vault", 10) });
			const [entry] = await journal.entries();
			expect(entry).toMatchObject({
				id: "old",
				notes: ["n.md"],
				notUndoable: "written before this version; cannot be undone safely",
			});
			expect(await new Undo(journal, vault).entry("old")).toEqual({
				kind: "refused",
				id: "old",
				reason: "edit_note (old) was written before this version; cannot be undone safely; nothing was undone",
			});
		});
	});
});
