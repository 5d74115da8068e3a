import { join } from "node:path";
import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { SavedFolderIndex } from "../../../src/vault/folder/saved-folder-index";
import { StatAhead } from "../../../src/vault/folder/stat-ahead";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import type { BacklinksFound } from "../../../src/vault/notes/vault-index";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeNoteFolder, makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

const TARGET = "Hub/Target.md";
/** 300 notes in three folders; every seventh links to the target (one of them twice), the rest to each other. */
function notes(): Record<string, string> {
	const files: Record<string, string> = { [TARGET]: "The target. [[#Part]]\n" };
	for (let n = 0; n < 300; n++) {
		const name = `F${n % 3}/note ${String(n).padStart(3, "0")}.md`;
		files[name] =
			n % 7 === 0
				? `Line one.\nTo [[Target]]${n === 21 ? " and [[Hub/Target|again]]" : ""}.\n`
				: `Plain prose, [[note ${n + 1}]].\n`;
	}
	return files;
}

function folder(files: Record<string, string>) {
	const made = makeNoteFolder("backlink-pages", files);
	temps.push(made);
	return made;
}

const shown = (found: BacklinksFound): string[] =>
	found.backlinks.map((backlink) => `${backlink.source}:${backlink.link.line}:${backlink.link.start}`);

/** What a warmed index (every note read: its reverse index) answers at once. */
async function complete(root: string, target: string): Promise<string[]> {
	const warmed = new FolderVaultIndex({ root, watch: false });
	try {
		await warmed.refresh();
		for (const path of warmed.notePaths()) warmed.warmNote(path);
		const found = await warmed.backlinksFrom(target, { sources: 1, deadline: 0 });
		expect(found.complete).toBe(true);
		return shown(found);
	} finally {
		warmed.dispose();
	}
}

/** Every page asked with the time already up, until one says it looked at every note. */
async function pagesOf(
	ask: (sources: number) => Promise<BacklinksFound>,
	paths: readonly string[],
): Promise<BacklinksFound[]> {
	const pages: BacklinksFound[] = [];
	for (let page = 0; page < 100; page++) {
		const found = await ask(Number.MAX_SAFE_INTEGER);
		pages.push(found);
		if (found.complete) return pages;
		// A complete prefix: every link from the notes up to `through`, and none from after it.
		const through = found.through ?? "";
		expect(paths.indexOf(through)).toBe(found.looked - 1);
		for (const backlink of found.backlinks) expect(backlink.source <= through).toBe(true);
	}
	throw new Error("the pages never looked at every note");
}

describe("backlinks page by page in a vault's first session (a complete prefix of the notes in path order)", () => {
	it.each([false, true])("grows a prefix whose pages add up to the complete answer (watching: %s)", async (watch) => {
		const { root } = folder(notes());
		const expected = await complete(root, TARGET);
		// 43 notes, one with two links, and the target's link to its own heading.
		expect(expected).toHaveLength(45);
		// From 50 notes the read-ahead worker reads the notes in path order ahead of the pass, page after page.
		const index = new FolderVaultIndex({ root, watch, readAheadFromNotes: 50 });
		try {
			await index.refresh();
			const paths = [...index.notePaths()];
			const pages = await pagesOf((sources) => index.backlinksFrom(TARGET, { sources, deadline: 0 }), paths);
			expect(pages.length).toBeGreaterThan(2);
			for (let page = 1; page < pages.length; page++) {
				const before = shown(pages[page - 1]);
				const after = shown(pages[page]);
				// A grown prefix keeps what it held, in the same order: an offset into it stays valid.
				expect(after.slice(0, before.length)).toEqual(before);
				expect(pages[page].looked).toBeGreaterThan(pages[page - 1].looked);
			}
			expect(shown(pages.at(-1) as BacklinksFound)).toEqual(expected);
			expect(await index.backlinks(TARGET)).toHaveLength(expected.length);
		} finally {
			index.dispose();
		}
	});

	it("stops once links from enough notes are found, and goes on from there", async () => {
		const { root } = folder(notes());
		const index = new FolderVaultIndex({ root, watch: false });
		try {
			await index.refresh();
			const paths = index.notePaths();
			const first = await index.backlinksFrom(TARGET, { sources: 5, deadline: Infinity });
			const sources = [...new Set(first.backlinks.map((backlink) => backlink.source))];
			expect(sources).toHaveLength(5);
			expect(first.complete).toBe(false);
			// The prefix ends at the fifth note found.
			expect(first.through).toBe(sources[4]);
			expect(first.looked).toBe(paths.indexOf(sources[4] ?? "") + 1);
			const second = await index.backlinksFrom(TARGET, { sources: 12, deadline: Infinity });
			expect(new Set(second.backlinks.map((backlink) => backlink.source)).size).toBe(12);
			expect(shown(second).slice(0, first.backlinks.length)).toEqual(shown(first));
		} finally {
			index.dispose();
		}
	});

	it("with enough found, goes on to the last note when its pace says it gets there in time, and only then", async () => {
		const { root } = folder(notes());
		const expected = await complete(root, TARGET);
		const index = new FolderVaultIndex({ root, watch: false });
		try {
			await index.refresh();
			// Time to spare: the first ask for 5 notes' links looks at every note and says so.
			const whole = await index.backlinksFrom(TARGET, { sources: 5, deadline: Infinity, finishBy: Infinity });
			expect(whole.complete).toBe(true);
			expect(shown(whole)).toEqual(expected);
		} finally {
			index.dispose();
		}
		const hurried = new FolderVaultIndex({ root, watch: false });
		try {
			await hurried.refresh();
			// The time to finish by has passed: it stops at the fifth linking note, as without it.
			const first = await hurried.backlinksFrom(TARGET, { sources: 5, deadline: Infinity, finishBy: 0 });
			expect(first.complete).toBe(false);
			expect(new Set(first.backlinks.map((backlink) => backlink.source)).size).toBe(5);
		} finally {
			hurried.dispose();
		}
	});

	it("looks again from the first note when a note changed between pages", async () => {
		const { root, write } = folder(notes());
		const index = new FolderVaultIndex({ root, watch: false });
		try {
			await index.refresh();
			const first = await index.backlinksFrom(TARGET, { sources: 5, deadline: Infinity });
			const [gone] = first.backlinks.map((backlink) => backlink.source);
			expect(gone).toBeDefined();
			// A note in the prefix no longer links to the target, and one before it now does.
			write(gone ?? "", "No link any more, and a longer text than before.\n");
			write("F0/note 003.md", "Now [[Target]].\n");
			await index.refresh();
			const next = await index.backlinksFrom(TARGET, { sources: 10, deadline: Infinity });
			const sources = next.backlinks.map((backlink) => backlink.source);
			expect(sources).not.toContain(gone);
			expect(sources).toContain("F0/note 003.md");
		} finally {
			index.dispose();
		}
	});

	it("still gets further page by page while a note keeps changing", async () => {
		const { root, write } = folder(notes());
		const expected = await complete(root, TARGET);
		const index = new FolderVaultIndex({ root, watch: false });
		try {
			await index.refresh();
			const paths = [...index.notePaths()];
			let edits = 0;
			const pages = await pagesOf(async (sources) => {
				// A note every page has looked at changes before each page: each begins again from the first note.
				write("F0/note 003.md", `Plain prose, edited ${"again ".repeat(++edits)}.\n`);
				await index.refresh();
				return index.backlinksFrom(TARGET, { sources, deadline: 0 });
			}, paths);
			for (let page = 1; page < pages.length; page++)
				expect(pages[page]?.looked).toBeGreaterThan(pages[page - 1]?.looked ?? 0);
			expect(shown(pages.at(-1) as BacklinksFound)).toEqual(expected);
		} finally {
			index.dispose();
		}
	});

	it("watching, a link written into a note of the prefix is found by the next page", async () => {
		const { root, write } = folder(notes());
		const index = new FolderVaultIndex({ root, watch: true });
		try {
			await index.refresh();
			const first = await index.backlinksFrom(TARGET, { sources: 5, deadline: Infinity });
			expect(first.through).toBeDefined();
			// Only glanced at (no stamp taken): the watcher tells it changed.
			write("F0/note 003.md", "Now [[Target]].\n");
			await waitUntil(
				async () => {
					await index.refresh();
					const next = await index.backlinksFrom(TARGET, { sources: 10, deadline: Infinity });
					return next.backlinks.some((backlink) => backlink.source === "F0/note 003.md");
				},
				"the link written into a note of the prefix to be found",
				{ timeoutMs: 20_000 },
			);
		} finally {
			index.dispose();
		}
	});

	it("through the privacy layer, never shows a hidden note's link, and asks on until enough visible ones are found", async () => {
		const { root } = folder(notes());
		const expected = (await complete(root, TARGET)).filter((line) => !line.startsWith("F1/"));
		const index = new FolderVaultIndex({ root, watch: false });
		const vault = new VisibleVault({
			index,
			paths: new VaultPaths(root),
			isPrivate: (path) => path.startsWith("F1/"),
		});
		try {
			await vault.refresh();
			// F1's notes come before the rest of the path order's second part: hidden ones are found first there.
			const enough = await vault.backlinksFrom(TARGET, { sources: 20, deadline: Infinity });
			expect(enough.backlinks.some((backlink) => backlink.source.startsWith("F1/"))).toBe(false);
			expect(new Set(enough.backlinks.map((backlink) => backlink.source)).size).toBe(20);
			const paths = [...index.notePaths()];
			const pages = await pagesOf((sources) => vault.backlinksFrom(TARGET, { sources, deadline: 0 }), paths);
			for (const page of pages) expect(shown(page).some((line) => line.startsWith("F1/"))).toBe(false);
			expect(shown(pages.at(-1) as BacklinksFound)).toEqual(expected);
		} finally {
			index.dispose();
		}
	});
});

describe("backlinks page by page in a later session, while the worker checks the saved stamps", () => {
	/** The index saved by a session that read every note, for a later session on the vault. */
	async function savedSession(root: string): Promise<SavedFolderIndex> {
		const saved = new SavedFolderIndex({
			file: join(makeTempDir("backlink-pages-cache").path, "index.json"),
			vault: root,
			version: "test",
		});
		const first = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved);
		await first.refresh();
		for (const path of first.notePaths()) first.warmNote(path);
		first.save();
		first.dispose();
		return saved;
	}

	it("answers from the saved rows found so far, in path order, trusting no row not checked; the pages add up", async () => {
		const { root, write } = folder(notes());
		const saved = await savedSession(root);
		// Same size: only the stamp's times tell these from the saved texts. One linking note links no more and one note
		// that did not link now does, both early in path order (the files are the same: the saved targets hold).
		write("F0/note 021.md", "Line one.\nTo [[Tar]] and [[Hub/Target|again]].\n");
		write("F0/note 003.md", "Plain prose, [[Target]]\n");
		const expected = await complete(root, TARGET);
		expect(expected).toContain("F0/note 003.md:0:13");
		expect(expected).not.toContain("F0/note 021.md:1:3");
		const store = new FolderNoteStore({ root, watch: false, readAheadFromNotes: 1 });
		const index = new FolderVaultIndex(store, libraryYamlCodec, saved);
		try {
			await index.refresh();
			const rows = index.savedNotesTakenUp;
			await waitUntil(() => store.statAheadDone === rows, "the worker's stamps");
			// As if the worker had found the first 60 rows only.
			const finished = jest.spyOn(StatAhead.prototype, "finished", "get").mockReturnValue(false);
			const found = Object.getOwnPropertyDescriptor(StatAhead.prototype, "foundSoFar")?.value as (
				this: StatAhead,
				...args: Parameters<StatAhead["foundSoFar"]>
			) => number;
			const soFar = jest.spyOn(StatAhead.prototype, "foundSoFar").mockImplementation(function (
				this: StatAhead,
				from,
				each,
			) {
				return found.call(Object.assign(Object.create(this) as StatAhead, { rows: 60 }), from, each);
			});
			const first = await index.backlinksFrom(TARGET, { sources: 4, deadline: Infinity });
			expect(first.complete).toBe(false);
			const sources = [...new Set(first.backlinks.map((backlink) => backlink.source))];
			expect(sources).toHaveLength(4);
			// The first four linking notes as they are now, not as saved: a complete prefix that ends before the fifth.
			const linking = [...new Set(expected.map((backlink) => backlink.split(":")[0] ?? ""))];
			expect(sources).toEqual(linking.slice(0, 4));
			expect(shown(first)).toEqual(
				expected.filter((backlink) => linking.indexOf(backlink.split(":")[0] ?? "") < 4),
			);
			const paths = index.notePaths();
			expect(first.looked).toBe(paths.indexOf(linking[4] ?? ""));
			expect(first.through).toBe(paths[first.looked - 1]);
			soFar.mockRestore();
			finished.mockRestore();
			const whole = await index.backlinksFrom(TARGET, { sources: Number.MAX_SAFE_INTEGER, deadline: Infinity });
			expect(whole.complete).toBe(true);
			expect(shown(whole)).toEqual(expected);
			expect(shown(whole).slice(0, first.backlinks.length)).toEqual(shown(first));
		} finally {
			index.dispose();
			store.dispose();
		}
	});
});
