import { mkdirSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderVault } from "../../../src/vault/folder/folder-vault";
import { WriteRefusedError } from "../../../src/vault/notes/vault-index";
import { makeTempDir } from "../../helpers/temp-dir";

describe("FolderVault: one store read by every surface", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let vault: FolderVault | undefined;
	beforeEach(() => (temp = makeTempDir("folder-vault")));
	afterEach(() => {
		vault?.dispose();
		vault = undefined;
		temp?.remove();
	});
	const write = (path: string, text: string): void => {
		mkdirSync(join(temp.path, path, ".."), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	};

	it("keeps both notes, and what is known of them, when a rename onto another note is refused", async () => {
		write("A.md", "[[B]]\n");
		write("B.md", "# B\n");
		write("C.md", "[[A]]\n");
		vault = new FolderVault({ root: temp.path, watch: false });
		const index = vault.index;
		await index.refresh();
		expect((await index.backlinks("A.md")).map((backlink) => backlink.source)).toEqual(["C.md"]);
		const known = vault.store.stampOf("A.md");
		expect(known).toBeDefined();
		await expect(index.renameNote("A.md", "B.md")).rejects.toThrow();
		expect(index.notePaths()).toEqual(["A.md", "B.md", "C.md"]);
		expect(vault.store.stampOf("A.md")).toBe(known);
		expect(vault.store.isNote("B.md")).toBe(true);
		expect(index.resolveLink("B", "A.md")).toBe("B.md");
		expect((await index.backlinks("A.md")).map((backlink) => backlink.source)).toEqual(["C.md"]);
	});

	it("lists a file once for the IDE, the diagnostics and the vault tools: one refresh brings all three up to date", async () => {
		write("A.md", "[[B]]\n");
		vault = new FolderVault({ root: temp.path, watch: false });
		expect(vault.files.list().map((entry) => entry.path)).toEqual(["A.md"]);
		write("Folder/B.md", "# B\n");
		write("Folder/picture.png", "png");
		// The IDE's listing refreshes the store; the others see the new files without a refresh of their own.
		expect(
			vault.files
				.list()
				.map((entry) => entry.path)
				.sort(),
		).toEqual(["A.md", "Folder/B.md", "Folder/picture.png"]);
		expect(vault.index.notePaths()).toEqual(["A.md", "Folder/B.md"]);
		expect([...vault.notes.notePaths()]).toEqual(["A.md", "Folder/B.md"]);
		expect(vault.index.resolveLink("B", "A.md")).toBe("Folder/B.md");
		expect(vault.notes.resolveLink("B", "A.md")).toBe("Folder/B.md");
		expect(vault.files.list().find((entry) => entry.path === "Folder/picture.png")?.size).toBe(3);
	});

	it("reads a note's tags once per version; `fresh` sees a change before any refresh", () => {
		write("Note.md", "public #work\n");
		vault = new FolderVault({ root: temp.path, watch: false });
		vault.store.refresh();
		expect(vault.tagsOf("Note.md", { fresh: true })).toEqual(["work"]);
		const kept = vault.tagsOf("Note.md");
		expect(vault.tagsOf("Note.md")).toBe(kept);
		write("Note.md", "now secret #private and longer\n");
		expect(vault.tagsOf("Note.md", { fresh: true })).toEqual(["private"]);
		// A note the store has not listed yet, and a file that is not a note.
		write("Later.md", "#later\n");
		expect(vault.tagsOf("Later.md")).toEqual(["later"]);
		expect(vault.tagsOf("picture.png")).toEqual([]);
	});

	it("keeps the vault tools' whole-vault facts apart from a note's whole facts, with the same values", () => {
		write("Note.md", "---\ntags: [a]\nstatus: open\n---\n# Note\n\n[[Other]] #b\n");
		vault = new FolderVault({ root: temp.path, watch: false });
		const index = vault.index;
		vault.store.refresh();
		const facts = index.facts("Note.md");
		expect(index.tagsOf("Note.md")).toEqual(facts?.tags);
		expect(index.frontmatterOf("Note.md")).toEqual(facts?.frontmatter);
		expect(index.searchText("Note.md")?.toString("utf8")).toBe(
			"---\ntags: [a]\nstatus: open\n---\n# note\n\n[[other]] #b\n",
		);
	});

	it("reads the tags of every note first from its bytes, and a frontmatter without a tag key when asked, to the same values", () => {
		const notes: Record<string, string> = {
			"Plain.md": "---\ntitle: Plain\nlist: [1, two]\n---\n# Plain #t\n\n```\n#code\n```\n",
			"Tagged.md": "---\ntags: [a]\nstatus: open\n---\nBody #b\n",
			"Broken.md": "---\nkey: [unclosed\n---\nBody\n",
		};
		for (const [path, text] of Object.entries(notes)) write(path, text);
		vault = new FolderVault({ root: temp.path, watch: false });
		const index = vault.index;
		vault.store.refresh();
		const tags = Object.keys(notes).map((path) => index.tagsOf(path));
		const frontmatters = Object.keys(notes).map((path) => index.frontmatterOf(path));
		const facts = Object.keys(notes).map((path) => index.facts(path));
		expect(tags).toEqual(facts.map((fact) => fact?.tags));
		expect(frontmatters).toEqual(facts.map((fact) => fact?.frontmatter));
		expect(frontmatters[0]?.properties).toEqual({ title: "Plain", list: [1, "two"] });
		expect(frontmatters[2]?.problem).toMatch(/does not parse/);
	});

	it("gives a note's facts without resolving its links when asked so (no file's name is looked up), and resolved when asked", () => {
		write("Note.md", "# Note\n\n[[Other]]\n");
		write("Folder/Other.md", "other\n");
		vault = new FolderVault({ root: temp.path, watch: false });
		const index = vault.index;
		vault.store.refresh();
		const resolve = jest.spyOn(vault.store.files, "resolve");
		const bare = index.factsWithoutLinks("Note.md");
		expect(bare?.headings.map((heading) => heading.text)).toEqual(["Note"]);
		expect(resolve).not.toHaveBeenCalled();
		expect(index.facts("Note.md")?.links.map((link) => link.target)).toEqual(["Folder/Other.md"]);
		expect(resolve).toHaveBeenCalled();
	});

	it("a write re-checks confinement on disk even while the store still takes a replaced folder for a real one", async () => {
		write("Sub/a.md", "old\n");
		const outside = makeTempDir("folder-vault-outside");
		try {
			writeFileSync(join(outside.path, "a.md"), "old\n");
			vault = new FolderVault({ root: temp.path, watch: true });
			await vault.index.refresh();
			expect(vault.index.notePaths()).toEqual(["Sub/a.md"]);
			// Replaced by a link out within this turn: no watcher event has been handled yet.
			renameSync(join(temp.path, "Sub"), join(temp.path, "Gone"));
			symlinkSync(outside.path, join(temp.path, "Sub"));
			expect(vault.index.notePaths()).toEqual(["Sub/a.md"]);
			await expect(vault.index.writeText("Sub/a.md", "new\n", "old\n")).rejects.toBeInstanceOf(WriteRefusedError);
			await expect(vault.index.createNote("Sub/new.md", "x")).rejects.toBeInstanceOf(WriteRefusedError);
			expect(readFileSync(join(outside.path, "a.md"), "utf8")).toBe("old\n");
			expect(readdirSync(outside.path)).toEqual(["a.md"]);
		} finally {
			outside.remove();
		}
	});
});
