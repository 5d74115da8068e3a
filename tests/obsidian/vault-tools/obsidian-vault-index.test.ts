import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import type { App } from "../../__mocks__/obsidian";
import { createIndexedApp, vaultIndexPorts } from "../harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import type { WorkPace } from "../../../src/vault/notes/notes";

/** What only the Obsidian adapter does (the shared behaviour is in tests/contracts/vault-index.contract.ts). */
describe("ObsidianVaultIndex over the fake app", () => {
	let app: App;
	let index: ObsidianVaultIndex;
	beforeEach(async () => {
		app = await createIndexedApp({
			"Target.md": "# Target\n\nOne ^dup\n\nTwo ^dup\n",
			"Linker.md": "[[Target]] and [[Target#Target|t]]\n",
		});
		index = new ObsidianVaultIndex(vaultIndexPorts(app));
		index.load();
		await index.refresh();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => index?.unload());

	it("moves through fileManager.renameFile, so Obsidian rewrites the links", async () => {
		const report = await index.renameNote("Target.md", "Moved/Target 2.md");
		expect(app.fileManager.renames).toBe(1);
		expect(report.updates).toEqual([{ path: "Linker.md", links: 2 }]);
		expect(app.vault.contents.get("Linker.md")).toBe("[[Target 2]] and [[Target 2#Target|t]]\n");
	});

	it("says which links no longer lead to the note when Obsidian did not update them (its setting is off)", async () => {
		app.fileManager.autoUpdateLinks = false;
		await expect(index.renameNote("Target.md", "Moved/Target 2.md")).rejects.toThrow(
			/moved Target\.md to Moved\/Target 2\.md, but links no longer lead where they led .*Automatically update internal links.*Linker\.md:1 \[\[Target\]\], Linker\.md:1 \[\[Target#Target\|t\]\]/,
		);
		expect(app.vault.contents.has("Moved/Target 2.md")).toBe(true);
	});

	it("keeps duplicate block ids visible, though Obsidian's blocks map keeps one per id", () => {
		expect(index.facts("Target.md")?.blockIds).toEqual([
			{ id: "dup", line: 2, start: 4, end: 8 },
			{ id: "dup", line: 4, start: 4, end: 8 },
		]);
	});

	it("follows a note Obsidian has parsed again after a change: its facts come from the new cache entry", async () => {
		await app.vault.modify(app.vault.getFileByPath("Target.md") as never, "# Renamed heading\n");
		await app.metadataCache.parsePending();
		await index.refresh();
		expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Renamed heading"]);
		expect(index.facts("Target.md")?.blockIds).toEqual([]);
	});

	it("looks again only at the notes that changed since the last refresh, and reads one changed on disk", async () => {
		const list = jest.spyOn(app.vault, "getMarkdownFiles");
		await index.refresh();
		expect(list).not.toHaveBeenCalled();
		app.vault.writeExternally("Target.md", "# Changed on disk\n");
		await index.refresh();
		expect(list).not.toHaveBeenCalled();
		// Obsidian has not parsed it yet: the facts come from the text the refresh read.
		expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
		app.vault.writeExternally("New.md", "# New\n");
		await index.refresh();
		expect(list).toHaveBeenCalledTimes(1);
		expect(index.facts("New.md")?.headings.map((heading) => heading.text)).toEqual(["New"]);
	});

	it("forgets a deleted note at once", async () => {
		await app.fileManager.trashFile(app.vault.getFileByPath("Target.md") as never);
		await index.refresh();
		expect(index.notePaths()).toEqual(["Linker.md"]);
		expect(index.facts("Target.md")).toBeUndefined();
		expect(index.facts("Linker.md")?.links.map((link) => link.target)).toEqual([undefined, undefined]);
	});
});

describe("ObsidianVaultIndex bookkeeping", () => {
	it("after reading every note's frontmatter (as after a restart), looks at none of them again at the next refresh", async () => {
		const notes = Object.fromEntries(
			Array.from({ length: 5 }, (_, at) => [`N${at}.md`, `---\nstatus: s${at}\n---\n# N${at}\n`]),
		);
		const app = await createIndexedApp({ ...notes, "Plain.md": "# No frontmatter\n" });
		const index = new ObsidianVaultIndex(vaultIndexPorts(app));
		index.load();
		const reads = jest.spyOn(app.vault, "cachedRead");
		await index.refresh();
		expect(reads).toHaveBeenCalledTimes(5);
		const lookups = jest.spyOn(app.metadataCache, "getFileCache");
		await index.refresh();
		expect(lookups).not.toHaveBeenCalled();
		expect(index.frontmatterOf("N3.md")?.properties).toEqual(expect.objectContaining({ status: "s3" }));
		// A note changed since is still looked at and read.
		app.vault.writeExternally("N1.md", "---\nstatus: changed\n---\n");
		await index.refresh();
		expect(index.frontmatterOf("N1.md")?.properties).toEqual(expect.objectContaining({ status: "changed" }));
		index.unload();
	});

	it("gives the frontmatter once it has been read, even when facts were asked for before the first refresh", async () => {
		const app = await createIndexedApp({ "Props.md": "---\nstatus: done\n---\n# Props\n" });
		const index = new ObsidianVaultIndex(vaultIndexPorts(app));
		index.load();
		expect(index.facts("Props.md")?.headings.map((heading) => heading.text)).toEqual(["Props"]);
		await index.refresh();
		expect(index.facts("Props.md")?.frontmatter).toEqual({
			endLine: 2,
			properties: { status: "done" },
			keyLines: { status: 1 },
		});
		index.unload();
	});

	it("does not read a renamed note from the disk on every refresh (Obsidian moves its cache entry and sends no `changed`)", async () => {
		const app = await createIndexedApp({ "A.md": "# A\n", "B.md": "[[A]]\n" });
		const index = new ObsidianVaultIndex(vaultIndexPorts(app));
		index.load();
		await index.refresh();
		await index.renameNote("A.md", "Moved/A.md");
		await app.metadataCache.parsePending();
		await index.refresh();
		const reads = jest.spyOn(app.vault, "read");
		await index.refresh();
		expect(reads).not.toHaveBeenCalled();
		expect(index.facts("Moved/A.md")?.headings.map((heading) => heading.text)).toEqual(["A"]);
		expect(index.facts("B.md")?.links.map((link) => link.target)).toEqual(["Moved/A.md"]);
		index.unload();
	});
});

describe("ObsidianVaultIndex with a pace (the plugin's)", () => {
	const notes: Record<string, string> = { "Hub.md": "---\ntags: [hub]\n---\n# Hub\n" };
	for (let note = 0; note < 200; note++)
		notes[`Area/Note ${note}.md`] =
			note % 10 === 3
				? `---\nrelated: "[[Hub]]"\n---\n# Note ${note}\n`
				: `# Note ${note}\n\n${note % 2 === 0 ? "[[Hub]]" : "[[Note 1]]"} #topic\n`;

	async function indexOver(app: App, pace?: WorkPace & { yields: number }): Promise<ObsidianVaultIndex> {
		const index = new ObsidianVaultIndex({ ...vaultIndexPorts(app), ...(pace ? { pace } : {}) });
		index.load();
		await index.refresh();
		return index;
	}

	it("looks through every note in slices and answers as without one", async () => {
		const app = await createIndexedApp(notes);
		let time = 0;
		const pace = {
			sliceMs: 8,
			yields: 0,
			now: () => (time += 1),
			yieldToMain: () => {
				pace.yields++;
				return Promise.resolve();
			},
		};
		const paced = await indexOver(app, pace);
		const refreshYields = pace.yields;
		expect(refreshYields).toBeGreaterThan(0);
		const plain = await indexOver(app);
		const sources = (list: { source: string; link: { line: number } }[]): string[] =>
			list.map((backlink) => `${backlink.source}:${backlink.link.line}`);
		const found = await paced.backlinks("Hub.md");
		expect(sources(found)).toEqual(sources(await plain.backlinks("Hub.md")));
		// 100 in the body, 20 in a property.
		expect(new Set(found.map((backlink) => backlink.source)).size).toBe(120);
		expect(pace.yields).toBeGreaterThan(refreshYields);
		paced.unload();
		plain.unload();
	});

	it("keeps the backlinks it found for the next page, until the store reports a change", async () => {
		const app = await createIndexedApp(notes);
		const index = await indexOver(app);
		const first = await index.backlinks("Hub.md");
		const facts = jest.spyOn(index, "facts");
		expect(await index.backlinks("Hub.md")).toEqual(first);
		expect(facts).not.toHaveBeenCalled();
		app.vault.writeExternally("Area/Note 1.md", "# Note 1\n\n[[Hub]] now\n");
		await app.metadataCache.parsePending();
		await index.refresh();
		const after = await index.backlinks("Hub.md");
		expect(after.length).toBe(first.length + 1);
		expect(after.some((backlink) => backlink.source === "Area/Note 1.md")).toBe(true);
		index.unload();
	});

	it("answers tags and properties without resolving any link", async () => {
		const app = await createIndexedApp(notes);
		const index = await indexOver(app);
		const resolve = jest.spyOn(app.metadataCache, "getFirstLinkpathDest");
		expect(index.tagsOf("Area/Note 0.md")?.map((tag) => tag.tag)).toEqual(["topic"]);
		expect(index.frontmatterOf("Area/Note 3.md")?.properties).toEqual({ related: "[[Hub]]" });
		expect(index.tagsOf("Hub.md")?.map((tag) => tag.tag)).toEqual(["hub"]);
		expect(resolve).not.toHaveBeenCalled();
		// The facts asked afterwards have their links resolved, from the same entry.
		expect(index.facts("Area/Note 0.md")?.links.map((link) => link.target)).toEqual(["Hub.md"]);
		expect(resolve).toHaveBeenCalled();
		index.unload();
	});

	it("gives the same tags and frontmatter alone as in the facts, and new ones after a change", async () => {
		const app = await createIndexedApp({
			"Tagged.md": "---\ntags: [alpha, beta/gamma]\nstatus: open\n---\n# Tagged\n\nBody #inline\n",
		});
		const index = await indexOver(app);
		const alone = { tags: index.tagsOf("Tagged.md"), frontmatter: index.frontmatterOf("Tagged.md") };
		const facts = index.facts("Tagged.md");
		expect(alone.tags).toEqual(facts?.tags);
		expect(alone.tags?.map((tag) => tag.tag)).toEqual(["alpha", "beta/gamma", "inline"]);
		expect(alone.frontmatter).toEqual(facts?.frontmatter);
		await app.vault.modify(app.vault.getFileByPath("Tagged.md") as never, "---\nstatus: done\n---\n#other\n");
		await app.metadataCache.parsePending();
		await index.refresh();
		expect(index.tagsOf("Tagged.md")?.map((tag) => tag.tag)).toEqual(["other"]);
		expect(index.frontmatterOf("Tagged.md")?.properties).toEqual({ status: "done" });
		index.unload();
	});

	/** The texts a scan lends or gives, by position, as text. */
	async function scanned(index: ObsidianVaultIndex, paths: readonly string[]): Promise<string[]> {
		const texts: string[] = [];
		await index.scanSearchTexts(paths, (position, text) => texts.push(`${position}:${text.toString()}`));
		return texts;
	}

	/** Lets the background reads of a scan finish (the mock's reads resolve in microtasks; no pace here). */
	const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

	it("keeps the search texts it reads, in order, once each, and reads a note's again once it changed", async () => {
		const app = await createIndexedApp({ "A.md": "Alpha TEXT\r\nline\n", "B.md": "beta\n" });
		const index = await indexOver(app);
		expect(index.searchText("A.md")).toBeUndefined();
		const read = jest.spyOn(app.vault, "cachedRead");
		const paths = ["A.md", "B.md", "Missing.md"];
		// Kept as the search reads them: not read again to be kept.
		const kept: (string | undefined)[] = [];
		expect(
			await index.scanSearchTexts(paths, (position) =>
				kept.push(index.searchText(paths[position] ?? "")?.toString()),
			),
		).toBeUndefined();
		expect(kept).toEqual(["alpha text\n\nline\n", "beta\n"]);
		await settled();
		expect(read).toHaveBeenCalledTimes(2);
		expect(await scanned(index, paths)).toEqual(["0:alpha text\n\nline\n", "1:beta\n"]);
		expect(await scanned(index, ["B.md", "Missing.md", "A.md"])).toEqual(["0:beta\n", "2:alpha text\n\nline\n"]);
		expect(read).toHaveBeenCalledTimes(2);
		await app.vault.modify(app.vault.getFileByPath("B.md") as never, "Changed\n");
		expect(index.searchText("B.md")).toBeUndefined();
		expect(await scanned(index, paths)).toEqual(["0:alpha text\n\nline\n", "1:changed\n"]);
		await settled();
		expect(read).toHaveBeenCalledTimes(3);
		expect(index.searchText("B.md")?.toString()).toBe("changed\n");
		index.unload();
	});

	it("does not keep a search text read while its note changed (it may be the old one)", async () => {
		const app = await createIndexedApp({ "A.md": "old\n" });
		const index = await indexOver(app);
		let release = (): void => undefined;
		const read = jest
			.spyOn(app.vault, "cachedRead")
			.mockReturnValueOnce(new Promise((resolve) => (release = () => resolve("old\n"))));
		const scanning = scanned(index, ["A.md"]);
		while (read.mock.calls.length === 0) await settled();
		await app.vault.modify(app.vault.getFileByPath("A.md") as never, "new\n");
		release();
		// The search answers the text it read; that one is not kept, the note's new text is read in the background.
		expect(await scanning).toEqual(["0:old\n"]);
		await settled();
		expect(read).toHaveBeenCalledTimes(2);
		expect(index.searchText("A.md")?.toString()).toBe("new\n");
		expect(await scanned(index, ["A.md"])).toEqual(["0:new\n"]);
		index.unload();
	});

	it("takes the search texts from the note's bytes when they can be read at once, and through `cachedRead` otherwise", async () => {
		const app = await createIndexedApp({ "A.md": "Alpha\n", "B.md": "Beta\n" });
		const asked: string[] = [];
		const index = new ObsidianVaultIndex({
			...vaultIndexPorts(app),
			readNoteBytes: (file) => {
				asked.push(file.path);
				return file.path === "A.md" ? Buffer.from("From DISK\n") : undefined;
			},
		});
		index.load();
		await index.refresh();
		const read = jest.spyOn(app.vault, "cachedRead");
		expect(await scanned(index, ["A.md", "B.md", "Missing.md"])).toEqual(["0:from disk\n", "1:beta\n"]);
		expect(asked).toEqual(["A.md", "B.md"]);
		expect(read.mock.calls.map(([file]) => file.path)).toEqual(["B.md"]);
		await app.vault.modify(app.vault.getFileByPath("A.md") as never, "Changed\n");
		expect(index.searchText("A.md")).toBeUndefined();
		expect(await scanned(index, ["A.md"])).toEqual(["0:from disk\n"]);
		expect(asked).toEqual(["A.md", "B.md", "A.md"]);
		index.unload();
	});
});
