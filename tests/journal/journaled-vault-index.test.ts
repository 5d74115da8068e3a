import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/journal/content-hash";
import { Journal } from "../../src/journal/journal";
import { JournaledVaultIndex } from "../../src/journal/journaled-vault-index";
import { JournalWriter } from "../../src/journal/journal-writer";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import type { VaultIndex } from "../../src/vault/notes/vault-index";
import { makeTempDir } from "../helpers/temp-dir";

describe("JournaledVaultIndex", () => {
	let temp: ReturnType<typeof makeTempDir> | undefined;
	let folder: FolderVaultIndex | undefined;

	afterEach(() => {
		folder?.dispose();
		temp?.remove();
	});

	function setUp(files: Record<string, string | Buffer>): {
		index: JournaledVaultIndex;
		journal: Journal;
		store: MemoryJournalStore;
		vault: string;
	} {
		temp = makeTempDir("journaled-index");
		const vault = temp.path;
		for (const [path, text] of Object.entries(files)) {
			mkdirSync(join(vault, path, ".."), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		folder = new FolderVaultIndex({ root: vault, watch: false });
		const store = new MemoryJournalStore();
		const journal = new Journal({ store });
		const writer = new JournalWriter({
			journal,
			bytes: {
				readBytes: (path) =>
					Promise.resolve(existsSync(join(vault, path)) ? readFileSync(join(vault, path)) : undefined),
			},
			isPrivate: (path, text) => path.startsWith("Private/") || (text?.includes("#secret") ?? false),
		});
		const index = new JournaledVaultIndex({ index: folder, writer });
		return { index, journal, store, vault };
	}

	it("offers the faster reads of the index it wraps (search texts, tags, frontmatter), answering as that index does", async () => {
		const { index } = setUp({ "a.md": "---\ntitle: A\n---\nWords #tag\n", "b.md": "More WORDS\n" });
		await index.refresh();
		const inner = folder!;
		const paths = index.notePaths();
		const texts = (of: VaultIndex): string[] => {
			const found: string[] = [];
			of.forEachSearchText?.(paths, (position, text) => found.push(`${position}: ${text.toString()}`));
			return found;
		};
		expect(texts(index)).toEqual(texts(inner));
		expect(texts(index)).toHaveLength(2);
		expect(index.searchText?.("b.md")?.toString()).toBe("more words\n");
		expect(index.tagsOf?.("a.md")).toEqual(inner.tagsOf("a.md"));
		expect(index.tagsOf?.("a.md")?.map((tag) => tag.tag)).toEqual(["tag"]);
		expect(index.frontmatterOf?.("a.md")).toEqual(inner.frontmatterOf("a.md"));
		expect(index.textNow?.("a.md")).toBe(inner.textNow("a.md"));
		expect(index.factsWithoutLinks?.("a.md")?.headings).toEqual(inner.facts("a.md")?.headings);
		// Whether a path is a note: without it the privacy layer decides every note of the vault for each question.
		expect([index.isNote?.("a.md"), index.isNote?.("missing.md")]).toEqual([true, false]);
	});

	it("offers no faster read the index it wraps does not have", () => {
		const store = new MemoryJournalStore();
		const bare = { refresh: () => Promise.resolve(), notePaths: () => [] } as unknown as VaultIndex;
		const index = new JournaledVaultIndex({
			index: bare,
			writer: new JournalWriter({
				journal: new Journal({ store }),
				bytes: { readBytes: () => Promise.resolve(undefined) },
				isPrivate: () => false,
			}),
		});
		expect([
			index.textNow,
			index.tagsOf,
			index.frontmatterOf,
			index.searchText,
			index.forEachSearchText,
			index.factsWithoutLinks,
			index.isNote,
		]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
	});

	it("records no change for a write that makes its note private: its path is nowhere in the records", async () => {
		const { index, journal, store } = setUp({ "Open.md": "plain words\n" });
		await index.refresh();
		const edit = journal.begin({
			session: { key: "s", surface: "vault-tools-stdio" },
			tool: "edit_note",
			notes: [],
			args: "",
		});
		await index.writeText("Open.md", "plain words #secret\n", (await index.readText("Open.md"))!, {
			journalId: edit,
		});
		const create = journal.begin({
			session: { key: "s", surface: "vault-tools-stdio" },
			tool: "create_note",
			notes: [],
			args: "",
		});
		await index.createNote("Tagged.md", "#secret plans\n", { journalId: create });
		expect((await journal.entries()).flatMap((entry) => entry.changes)).toEqual([]);
		const stored = JSON.stringify(await store.load());
		expect(stored).not.toContain("Open.md");
		expect(stored).not.toContain("Tagged.md");
	});

	it("keeps no pre-image of a write that made its note private, or of one that failed, unless a record names it", async () => {
		const { index, journal, store } = setUp({
			"Open.md": "plain words\n",
			"Same.md": "plain words\n",
			"Other.md": "other words\n",
		});
		await index.refresh();
		// Same.md holds the same bytes as Open.md: its recorded edit names that pre-image, which must stay.
		await index.writeText("Same.md", "changed words\n", (await index.readText("Same.md"))!, {
			journalId: journal.begin({ session: { key: "s", surface: "ide" }, tool: "edit_note", notes: [], args: "" }),
		});
		expect(store.blobCount).toBe(1);
		await index.writeText("Open.md", "plain words #secret\n", (await index.readText("Open.md"))!);
		await expect(index.writeText("Other.md", "new\n", "not what it holds")).rejects.toThrow();
		await index.writeText("Other.md", "other words #secret\n", (await index.readText("Other.md"))!);
		expect(store.blobCount).toBe(1);
		expect(await store.getBlob(contentHash(Buffer.from("plain words\n")))).toBeDefined();
		expect(await store.getBlob(contentHash(Buffer.from("other words\n")))).toBeUndefined();
	});

	it("keeps an edit's exact pre-image and the hash of what it wrote, under the call that wrote it", async () => {
		const before = Buffer.from("\ufeffone\r\ntwo\r\n", "utf8");
		const { index, journal, store, vault } = setUp({ "n.md": before });
		await index.refresh();
		const id = journal.begin({ session: { key: "s", surface: "ide" }, tool: "edit_note", notes: [], args: "" });
		await index.writeText("n.md", "\ufeffone\r\nthree\r\n", (await index.readText("n.md"))!, { journalId: id });
		const [entry] = await journal.entries();
		expect(entry?.id).toBe(id);
		const change = entry?.changes[0];
		if (change?.kind !== "edit") throw new Error("an edit");
		expect(change.before).toEqual({ hash: contentHash(before), bytes: before.length });
		expect(change.after).toBe(contentHash(readFileSync(join(vault, "n.md"))));
		expect(Buffer.from((await store.getBlob(change.before.hash))!).equals(before)).toBe(true);
	});

	it("records nothing for a write that failed", async () => {
		const { index, journal } = setUp({ "n.md": "text\n" });
		await index.refresh();
		await expect(index.writeText("n.md", "new\n", "not what it holds", { journalId: "x" })).rejects.toThrow();
		await expect(index.createNote("n.md", "again\n")).rejects.toThrow();
		expect(await journal.entries()).toEqual([]);
	});

	it("records a move with the visible notes it rewrote, never a private one", async () => {
		const { index, journal, store } = setUp({
			"a.md": "# A\n",
			"b.md": "see [[a]]\n",
			"Private/p.md": "see [[a]]\n",
			"c.md": "no link\n",
		});
		await index.refresh();
		await index.renameNote("a.md", "Folder/z.md");
		const [entry] = await journal.entries();
		expect(entry?.changes).toHaveLength(1);
		const change = entry?.changes[0];
		if (change?.kind !== "move") throw new Error("a move");
		expect(change.rewrites.map((rewrite) => rewrite.path)).toEqual(["b.md"]);
		expect(JSON.stringify(await store.load())).not.toContain("Private");
		// b.md's pre-image, named by the change, and a.md's, kept before the move in case it changed (it did not).
		expect(store.blobCount).toBe(2);
		expect(await store.getBlob(contentHash(Buffer.from("# A\n")))).toBeDefined();
	});
	it("has the note's pre-image in the store before the write it protects reaches disk (an edit, a move and every note it may rewrite)", async () => {
		const { index, journal, store, vault } = setUp({ "n.md": "one\n", "a.md": "# A\n", "b.md": "see [[a]]\n" });
		await index.refresh();
		const stored: Record<string, boolean> = {};
		const held = async (path: string): Promise<boolean> =>
			(await store.getBlob(contentHash(readFileSync(join(vault, path))))) !== undefined;
		const inner = folder!;
		const writeText = inner.writeText.bind(inner);
		const renameNote = inner.renameNote.bind(inner);
		inner.writeText = async (...args) => {
			stored[args[0]] ??= await held(args[0]);
			return writeText(...args);
		};
		inner.renameNote = async (...args) => {
			stored["a.md"] ??= await held("a.md");
			stored["b.md"] ??= await held("b.md");
			return renameNote(...args);
		};
		const id = journal.begin({ session: { key: "s", surface: "ide" }, tool: "edit_note", notes: [], args: "" });
		await index.writeText("n.md", "two\n", "one\n", { journalId: id });
		await index.renameNote("a.md", "z.md", { journalId: id });
		expect(stored).toEqual({ "n.md": true, "a.md": true, "b.md": true });
		expect((await journal.entries())[0]?.changes.map((change) => change.kind)).toEqual(["edit", "move"]);
	});
});
