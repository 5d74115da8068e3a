import fs, { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import {
	SavedFolderIndex,
	filesSignature,
	sameFiles,
	savedFolderIndexFile,
	type SavedNote,
	type SavedNotes,
} from "../../../src/vault/folder/saved-folder-index";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));
afterEach(() => jest.restoreAllMocks());

function tempDir(name: string): string {
	const temp = makeTempDir(name);
	temps.push(temp);
	return temp.path;
}

const NOTE: SavedNote = {
	path: "Area/A note.md",
	stamp: { mtimeMs: 1733112233123.457, ctimeMs: 1733112233124.5, size: 312, ino: 987654321 },
	linkpaths: ["Hub/Popular Note", "Other"],
	tags: [
		{ tag: "project/alpha", line: 2 },
		{ tag: "Inline", line: 9 },
	],
	frontmatter: {
		endLine: 4,
		keyLines: { title: 1, tags: 2, nested: 3 },
		properties: { title: "A note", tags: ["project/alpha"], nested: { deep: [1, true, null, "x"] } },
	},
};

/** Every note of a loaded saved index, each field read from its line. */
function notesOf(saved: SavedNotes | undefined): (Omit<SavedNote, "linkpaths" | "tags"> & Record<string, unknown>)[] {
	const notes: (Omit<SavedNote, "linkpaths" | "tags"> & Record<string, unknown>)[] = [];
	saved?.forEach((path, stamp, row) => {
		const frontmatter = saved.frontmatter(row);
		notes.push({
			path,
			stamp: { mtimeMs: stamp.mtimeMs, ctimeMs: stamp.ctimeMs, size: stamp.size, ino: stamp.ino },
			linkpaths: saved.linkpaths(row),
			tags: saved.tags(row),
			...(frontmatter === null ? {} : { frontmatter }),
		});
	});
	return notes;
}

/** The vault paths of the notes `openSync` opened (the saved index's own file left out). */
function notesOpened(opened: jest.SpyInstance, root: string): string[] {
	return opened.mock.calls
		.map((call: unknown[]) => String(call[0]))
		.filter((path) => path.startsWith(`${root}/`))
		.map((path) => path.slice(root.length + 1));
}

describe("SavedFolderIndex", () => {
	it("gives back the notes it saved, in a file only the user can read", () => {
		const file = join(tempDir("saved-index"), "cache", "folder-index", "vault.json");
		const saved = new SavedFolderIndex({ file, vault: "/vault", version: "1.2.3" });
		const bare: SavedNote = {
			path: "b\tx\n.md",
			stamp: { mtimeMs: 1, ctimeMs: 2, size: 3, ino: 4 },
			linkpaths: [],
			tags: [],
		};
		saved.save([NOTE, bare]);
		expect(notesOf(saved.load())).toEqual([NOTE, bare]);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(join(file, "..")).mode & 0o777).toBe(0o700);
	});

	it("gives back where links led, for the files it was saved for: a saved note by its row, another file by its path", () => {
		const file = join(tempDir("saved-index-targets"), "index.json");
		const saved = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		const files = filesSignature(["a.md", "b.md", "picture.png"]);
		const a = { ...NOTE, path: "a.md", targets: ["b.md", "picture.png", "a.md"] };
		const b = { ...NOTE, path: "b.md", targets: [] };
		const unknown = { ...NOTE, path: "c.md" };
		saved.save([a, b, unknown], files);
		const loaded = saved.load();
		expect(loaded?.files).toEqual(files);
		const rows: number[] = [];
		loaded?.forEach((_path, _stamp, row) => rows.push(row));
		expect(rows.map((row) => loaded?.targets(row))).toEqual([["b.md", "picture.png", "a.md"], [], null]);
		// As numbers: a saved note by its row, another file after them (only those files' paths are written again).
		expect(readFileSync(file, "utf8")).toContain('\n{"files":["picture.png"],"links":"');
		const targets = loaded?.linkTargetsOf();
		expect([...(targets?.sourceRows("a.md") ?? [])]).toEqual([0]);
		expect([...(targets?.sourceRows("b.md") ?? [])]).toEqual([0]);
		expect([...(targets?.sourceRows("picture.png") ?? [])]).toEqual([0]);
		expect([...(targets?.sourceRows("c.md") ?? [])]).toEqual([]);
		expect([...(targets?.sourceRows("missing.md") ?? [])]).toEqual([]);
		expect(rows.map((row) => targets?.hasTargets(row))).toEqual([true, true, false]);
		// Saved without the files' signature: no targets.
		saved.save([a]);
		expect(saved.load()?.files).toBeUndefined();
	});

	it("takes the listed paths as the saved ones only when they are exactly those (else its own, in its rows)", () => {
		const file = join(tempDir("saved-index-listed"), "index.json");
		const saved = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		const notes = ["a.md", "b \u00e9.md", 'c "q".md'].map((path, at) => ({
			...NOTE,
			path,
			tags: [{ tag: path, line: at }],
		}));
		saved.save(notes);
		const rowsOf = (listed: string[]): [string, string | undefined][] => {
			const found: [string, string | undefined][] = [];
			const loaded = saved.load();
			loaded?.forEach((path, _stamp, row) => found.push([path, loaded.tags(row)?.[0]?.tag]), listed);
			return found;
		};
		// Strings of their own that equal the saved ones: taken as they are.
		const listed = notes.map((note) => `${note.path} `.slice(0, -1));
		expect(rowsOf(listed)).toEqual(notes.map((note) => [note.path, note.path]));
		// A note added since (it sorts first), one renamed: each row keeps its own saved path and line.
		for (const other of [
			["0.md", ...listed],
			["a.md", "b \u00e9.md", "c.md"],
		])
			expect(rowsOf(other)).toEqual(notes.map((note) => [note.path, note.path]));
	});

	it("tells sets of files apart by their signature, whatever their order", () => {
		expect(filesSignature(["a.md", "b/c.md"])).toEqual(filesSignature(["b/c.md", "a.md"]));
		expect(sameFiles(filesSignature(["a.md"]), filesSignature(["a.md"]))).toBe(true);
		expect(sameFiles(filesSignature(["a.md"]), filesSignature(["a.md", "b.md"]))).toBe(false);
		expect(sameFiles(filesSignature(["a.md"]), filesSignature(["A.md"]))).toBe(false);
		expect(sameFiles(undefined, filesSignature([]))).toBe(false);
	});

	it("leaves out a note whose frontmatter JSON would not give back exactly", () => {
		const file = join(tempDir("saved-index-exact"), "index.json");
		const saved = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		const withValue = (path: string, value: unknown): SavedNote => ({
			...NOTE,
			path,
			frontmatter: { endLine: 2, keyLines: { key: 1 }, properties: { key: value } },
		});
		const withProtoKey = withValue("proto.md", 1);
		Object.defineProperty(withProtoKey.frontmatter?.properties, "__proto__", { value: 1, enumerable: true });
		saved.save([
			withValue("infinite.md", Infinity),
			withValue("minus-zero.md", -0),
			withValue("date.md", new Date(0)),
			withValue("nan.md", [Number.NaN]),
			withProtoKey,
			withValue("fine.md", [1.5, "text", { a: false }]),
		]);
		expect(notesOf(saved.load()).map((note) => note.path)).toEqual(["fine.md"]);
	});

	it("reads a head line and last lines longer than its first reads of the file's start and end, and lines in blocks", () => {
		const file = join(tempDir("saved-index-long"), "index.json");
		// A head of over 4 KB (the vault's path) and last lines of over 1 MB (the paths of 6,000 notes).
		const vault = `/${"v".repeat(9000)}`;
		const notes = Array.from({ length: 6000 }, (_, at) => ({
			...NOTE,
			path: `${"Folder with a long name/".repeat(8)}note ${String(at).padStart(5, "0")}.md`,
		}));
		new SavedFolderIndex({ file, vault, version: "1" }).save(notes);
		const loaded = notesOf(new SavedFolderIndex({ file, vault, version: "1" }).load());
		// Every note whole: its notes' lines (over 1 MB) are read a block at a time, a field across two blocks too.
		expect(loaded).toEqual(notes);
	});

	it("does not use the notes' lines of a file replaced after it was loaded", () => {
		const file = join(tempDir("saved-index-replaced"), "index.json");
		const index = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		index.save([NOTE]);
		const loaded = index.load();
		// Another session saves meanwhile, its lines where the loaded offsets say: they are not the loaded notes' lines.
		index.save([{ ...NOTE, linkpaths: ["Hub/Popular Note", "Elsew"] }]);
		expect(notesOf(loaded).map((note) => [note.path, note.linkpaths, note.tags])).toEqual([
			[NOTE.path, undefined, undefined],
		]);
		expect(notesOf(index.load()).map((note) => note.linkpaths)).toEqual([["Hub/Popular Note", "Elsew"]]);
	});

	it("is not used when saved for another vault or version; a line that does not hold a note's summary is not used", () => {
		const file = join(tempDir("saved-index-refused"), "index.json");
		const other = { ...NOTE, path: "other.md" };
		new SavedFolderIndex({ file, vault: "/vault", version: "1" }).save([NOTE, other]);
		expect(new SavedFolderIndex({ file, vault: "/other", version: "1" }).load()).toBeUndefined();
		expect(new SavedFolderIndex({ file, vault: "/vault", version: "2" }).load()).toBeUndefined();
		const reader = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		expect(notesOf(reader.load())).toHaveLength(2);
		const text = readFileSync(file, "utf8");
		// A link path that is no string: that note's link paths are not used (its other parts are).
		writeFileSync(file, text.replace('"Other"', "7      "));
		const damaged = notesOf(reader.load());
		expect(damaged.map((note) => note.linkpaths)).toEqual([undefined, NOTE.linkpaths]);
		expect(damaged.map((note) => note.tags)).toEqual([NOTE.tags, NOTE.tags]);
		// A field made longer: its line's fields are no longer where the file says, and are not used (nor the next
		// line's, moved too); the notes before it are.
		writeFileSync(file, text.replace('"project/alpha",2', '"project/alpha",2,"more",3'));
		const moved = notesOf(reader.load());
		expect(moved.map((note) => note.path)).toEqual([NOTE.path, other.path]);
		expect(moved.map((note) => [note.linkpaths, note.tags])).toEqual([
			[NOTE.linkpaths, undefined],
			[undefined, undefined],
		]);
		// Cut short: no note is used.
		writeFileSync(file, text.slice(0, text.length - 12));
		expect(notesOf(reader.load())).toEqual([]);
		expect(
			new SavedFolderIndex({ file: join(file, "..", "none.json"), vault: "/vault", version: "1" }).load(),
		).toBeUndefined();
	});
});

describe("SavedFolderIndex's stamps and lengths line", () => {
	it("is smaller than a number per field (the stamp's size and the fields' lengths in 32 bits)", () => {
		const file = join(tempDir("saved-index-rows"), "index.json");
		new SavedFolderIndex({ file, vault: "/vault", version: "1" }).save([NOTE, { ...NOTE, path: "b.md" }]);
		const lines = readFileSync(file, "utf8").split("\n");
		// Two notes, 40 bytes each: three 64-bit floats and four 32-bit integers.
		expect(Buffer.from(JSON.parse(lines[lines.length - 3] ?? "") as string, "base64")).toHaveLength(80);
	});

	it("leaves out a note too large for its size to be saved", () => {
		const file = join(tempDir("saved-index-huge"), "index.json");
		const saved = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		saved.save([NOTE, { ...NOTE, path: "huge.md", stamp: { ...NOTE.stamp, size: 2 ** 32 } }]);
		expect(notesOf(saved.load()).map((note) => note.path)).toEqual([NOTE.path]);
	});

	it("does not use a file of the format before, nor rows that are not the notes' (no error either way)", () => {
		const file = join(tempDir("saved-index-untrusted"), "index.json");
		const reader = new SavedFolderIndex({ file, vault: "/vault", version: "1" });
		reader.save([NOTE, { ...NOTE, path: "b.md" }]);
		const text = readFileSync(file, "utf8");
		const lines = text.split("\n");
		const withRows = (rows: string): string =>
			[...lines.slice(0, lines.length - 3), JSON.stringify(rows), ...lines.slice(lines.length - 2)].join("\n");
		// Format 6 held a float per field: its file is not used (a later session reads the notes, then saves anew).
		writeFileSync(file, text.replace(/"format":\d+/, '"format":6'));
		expect(reader.load()).toBeUndefined();
		// Rows of another count, or no base64: no note is used.
		writeFileSync(file, withRows(Buffer.alloc(40).toString("base64")));
		expect(notesOf(reader.load())).toEqual([]);
		writeFileSync(file, withRows("not base64 at all"));
		expect(notesOf(reader.load())).toEqual([]);
		// Lengths that lead past the lines or between the wrong bytes: the notes are listed, their fields not used.
		const rows = Buffer.from(JSON.parse(lines[lines.length - 3] ?? "") as string, "base64");
		// (The first note's frontmatter said 3 bytes long, so the second note's line seems to start too early; its
		// link paths said over 4 GB long.)
		rows.writeUInt32LE(3, 48 + 12);
		rows.writeUInt32LE(0xffffffff, 64 + 4);
		writeFileSync(file, withRows(rows.toString("base64")));
		const damaged = notesOf(reader.load());
		expect(damaged.map((note) => note.path)).toEqual([NOTE.path, "b.md"]);
		expect(damaged.map((note) => [note.linkpaths, note.tags, note.frontmatter])).toEqual([
			[NOTE.linkpaths, NOTE.tags, undefined],
			[undefined, undefined, undefined],
		]);
	});
});

describe("savedFolderIndexFile", () => {
	it("is in the user's cache folder, never inside the vault", () => {
		expect(savedFolderIndexFile("/notes/vault", {}, "/home/me")).toMatch(
			/^\/home\/me\/\.cache\/claude-code-bridge\/folder-index\/[0-9a-f]{24}\.json$/,
		);
		expect(savedFolderIndexFile("/notes/vault", { XDG_CACHE_HOME: "/var/cache/me" }, "/home/me")).toMatch(
			/^\/var\/cache\/me\/claude-code-bridge\/folder-index\//,
		);
		// A relative XDG_CACHE_HOME is ignored, as the base directory specification says.
		expect(savedFolderIndexFile("/notes/vault", { XDG_CACHE_HOME: "cache" }, "/home/me")).toMatch(
			/^\/home\/me\/\.cache\//,
		);
		expect(savedFolderIndexFile("/notes/vault", {}, "/notes/vault")).toBeUndefined();
		expect(savedFolderIndexFile("/notes/a", {}, "/home/me")).not.toBe(
			savedFolderIndexFile("/notes/b", {}, "/home/me"),
		);
	});
});

describe("FolderVaultIndex with a saved index", () => {
	function vaultWithNotes(): { root: string; write: (path: string, text: string) => void } {
		const root = tempDir("saved-index-vault");
		const write = (path: string, text: string): void => {
			mkdirSync(join(root, path, ".."), { recursive: true });
			writeFileSync(join(root, path), text);
		};
		write("Hub.md", "# Hub\n");
		write("A/One.md", "---\ntags: [alpha]\ntitle: One\n---\nSee [[Hub]].\n");
		write("A/Two.md", "Also [[Hub]]. #beta\n");
		write("B/Three.md", "Nothing here.\n");
		return { root, write };
	}

	async function warmedAndSaved(root: string, file: string): Promise<void> {
		const first = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await first.refresh();
		for (const path of first.notePaths()) first.warmNote(path);
		first.save();
		first.dispose();
	}

	const saved = (root: string, file: string): SavedFolderIndex =>
		new SavedFolderIndex({ file, vault: root, version: "test" });

	it("answers backlinks, tags and properties of a later session without opening a note", async () => {
		const { root } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		const opened = jest.spyOn(fs, "openSync");
		expect(later.notePaths().map((path) => later.tagsOf(path)?.map((tag) => tag.tag))).toEqual([
			["alpha"],
			["beta"],
			[],
			[],
		]);
		expect(later.frontmatterOf("A/One.md")?.properties).toEqual({ tags: ["alpha"], title: "One" });
		const sources = (await later.backlinks("Hub.md")).map((backlink) => backlink.source);
		// The backlinks' places are read from the two notes that link; no other note is opened.
		expect(sources).toEqual(["A/One.md", "A/Two.md"]);
		expect(notesOpened(opened, root).sort()).toEqual(["A/One.md", "A/Two.md"]);
		// The saved notes' lines were read once, when the first tags were asked (the paths and stamps at the refresh).
		expect(opened.mock.calls.filter((call) => call[0] === file)).toHaveLength(1);
		later.dispose();
	});

	it("does not write the file again when a later session took up every note and nothing changed since", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		for (const path of later.notePaths()) later.warmNote(path);
		const renamed = jest.spyOn(fs, "renameSync");
		later.save();
		expect(renamed).not.toHaveBeenCalled();
		write("A/Two.md", "Changed. #delta\n");
		await later.refresh();
		later.warmNote("A/Two.md");
		later.save();
		expect(renamed).toHaveBeenCalledTimes(1);
		later.dispose();
		const next = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await next.refresh();
		const opened = jest.spyOn(fs, "openSync");
		expect(next.tagsOf("A/Two.md")?.map((tag) => tag.tag)).toEqual(["delta"]);
		expect(notesOpened(opened, root)).toEqual([]);
		next.dispose();
	});

	it("reads again a note changed while no session ran, and drops what was saved of it", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		write("A/Two.md", "No link any more, and a longer text. #gamma\n");
		write("B/Three.md", "Now [[Hub]] too.\n");
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		expect(later.tagsOf("A/Two.md")?.map((tag) => tag.tag)).toEqual(["gamma"]);
		expect((await later.backlinks("Hub.md")).map((backlink) => backlink.source)).toEqual([
			"A/One.md",
			"B/Three.md",
		]);
		later.dispose();
	});

	it("finds notes changed while no session ran when a worker checks the stamps for backlinks (a large vault)", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		// The same size: only the stamp's times tell the new text from the saved one.
		write("A/Two.md", "Also [[Other]]. #be\n");
		write("B/Three.md", "Now: [[Hub]].\n");
		const store = new FolderNoteStore({ root, watch: false, readAheadFromNotes: 1 });
		const later = new FolderVaultIndex(store, libraryYamlCodec, saved(root, file));
		await later.refresh();
		expect(later.savedNotesTakenUp).toBe(4);
		// Every stamp found by the worker before the question: the changes are found from its stamps.
		await waitUntil(() => store.statAheadDone === 4, "the worker's stamps");
		expect((await later.backlinks("Hub.md")).map((backlink) => backlink.source)).toEqual([
			"A/One.md",
			"B/Three.md",
		]);
		later.dispose();
		store.dispose();
	});

	it("with a worker checking the stamps, uses nothing saved of a note deleted, added or changed at the same size", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		fs.rmSync(join(root, "A/One.md"));
		write("C/New.md", "New [[Hub]]. #fresh\n");
		// The same size and tags' places: only the stamp's times tell the new text from the saved one.
		write("A/Two.md", "Also [[Hub]]. #gamm\n");
		const store = new FolderNoteStore({ root, watch: false, readAheadFromNotes: 1 });
		const later = new FolderVaultIndex(store, libraryYamlCodec, saved(root, file));
		await later.refresh();
		expect(later.savedNotesTakenUp).toBe(3);
		await waitUntil(() => store.statAheadDone === 4, "the worker's stamps");
		expect((await later.backlinks("Hub.md")).map((backlink) => backlink.source)).toEqual(["A/Two.md", "C/New.md"]);
		expect(later.notePaths().map((path) => later.tagsOf(path)?.map((tag) => tag.tag))).toEqual([
			["gamm"],
			[],
			["fresh"],
			[],
		]);
		later.dispose();
		store.dispose();
	});

	it("starts checking the saved stamps before the folder is listed, and stats none before it is watched", async () => {
		const { root } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		const store = new FolderNoteStore({ root, watch: true, readAheadFromNotes: 1 });
		store.statAhead(saved(root, file).load()?.savedStamps());
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect(store.statAheadDone).toBe(0);
		store.refresh();
		await waitUntil(() => store.statAheadDone === 4, "the worker's stamps");
		store.dispose();
	});

	it("checks a later session's stamps against the worker's for tags (no stat per note here), and reads a note changed meanwhile", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		// The same size: only the stamp's times tell the new text from the saved one.
		write("A/Two.md", "Also [[Hub]]. #be\n");
		const store = new FolderNoteStore({ root, watch: false, readAheadFromNotes: 1 });
		const later = new FolderVaultIndex(store, libraryYamlCodec, saved(root, file));
		await later.refresh();
		expect(later.savedNotesTakenUp).toBe(4);
		await waitUntil(() => store.statAheadDone === 4, "the worker's stamps");
		const statted = jest.spyOn(fs, "lstatSync");
		expect(later.notePaths().map((path) => later.tagsOf(path)?.map((tag) => tag.tag))).toEqual([
			["alpha"],
			["be"],
			[],
			[],
		]);
		// The changed note alone is statted here (its stamp differs from the saved one), then read.
		expect(statted.mock.calls.map((call) => String(call[0]).slice(root.length + 1))).toEqual(["A/Two.md"]);
		later.dispose();
		store.dispose();
	});

	it("reads the note itself when its saved line does not hold what is asked", async () => {
		const { root } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		// B/Three.md links nowhere: its saved link paths and targets made unreadable, it alone is read to find them.
		const bytes = readFileSync(file);
		const lines = bytes.toString("utf8").split("\n");
		const row = (JSON.parse(lines[lines.length - 4] ?? "") as string[]).indexOf("B/Three.md");
		// Its line: the notes' lines follow the head line in the paths' order.
		const lineStart = Buffer.byteLength(lines.slice(0, 1 + row).join("\n")) + 1;
		expect(bytes.toString("utf8", lineStart, lineStart + 8)).toBe("[]\t[]\t0\n");
		// The same length: the fields stay where the file says they are.
		bytes.write("{}\t[]\t0", lineStart);
		// And the targets line unusable: every note's targets are found from its link paths.
		const tampered = bytes.toString("utf8").split("\n");
		tampered.splice(tampered.length - 5, 1, '{"files":[],"links":"AAAA"}');
		writeFileSync(file, tampered.join("\n"));
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		const opened = jest.spyOn(fs, "openSync");
		expect((await later.backlinks("Hub.md")).map((backlink) => backlink.source)).toEqual(["A/One.md", "A/Two.md"]);
		expect(notesOpened(opened, root)).toEqual(["B/Three.md", "A/One.md", "A/Two.md"]);
		later.dispose();
	});

	it("finds where links lead again when files came or went since (a link's target made)", async () => {
		const { root, write } = vaultWithNotes();
		write("C/Four.md", "Waits for [[Soon]].\n");
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		write("Soon.md", "# Soon\n");
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		expect((await later.backlinks("Soon.md")).map((backlink) => backlink.source)).toEqual(["C/Four.md"]);
		expect((await later.backlinks("Hub.md")).map((backlink) => backlink.source)).toEqual(["A/One.md", "A/Two.md"]);
		later.dispose();
	});

	it("follows notes changed during a later session that answers backlinks from the saved targets", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		const sources = async (): Promise<string[]> =>
			(await later.backlinks("Hub.md")).map((backlink) => backlink.source);
		expect(await sources()).toEqual(["A/One.md", "A/Two.md"]);
		write("A/One.md", "No link now, a longer text than before.\n");
		write("B/Three.md", "Now [[Hub]], a longer text.\n");
		await later.refresh();
		expect(await sources()).toEqual(["A/Two.md", "B/Three.md"]);
		write("A/One.md", "Back to [[Hub]], and longer still than before.\n");
		await later.refresh();
		expect(await sources()).toEqual(["A/One.md", "A/Two.md", "B/Three.md"]);
		later.dispose();
	});

	it("counts the notes still as saved, and takes the saved targets for backlinks without a look at every note", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		write("B/Three.md", "Now [[Hub]], a longer text.\n");
		const store = new FolderNoteStore({ root, watch: false, readAheadFromNotes: 1 });
		const later = new FolderVaultIndex(store, libraryYamlCodec, saved(root, file));
		await later.refresh();
		expect(store.savedRowNotes).toBe(4);
		await waitUntil(() => store.statAheadDone === 4, "the worker's stamps");
		const looked = jest.spyOn(store, "savedRowOf");
		const found = await later.backlinksFrom("Hub.md", { sources: 1, deadline: Infinity });
		expect(found.complete).toBe(true);
		expect(found.backlinks.map((backlink) => backlink.source)).toEqual(["A/One.md", "A/Two.md", "B/Three.md"]);
		// The saved targets' sources are looked up, and the note found changed (read), not every note.
		expect(looked.mock.calls.map((call) => call[0])).not.toContain("Hub.md");
		expect(store.savedRowNotes).toBe(3);
		fs.rmSync(join(root, "A/One.md"));
		await later.refresh();
		expect(store.savedRowNotes).toBe(2);
		later.dispose();
		store.dispose();
	});

	it("saves on dispose when notes changed since, for the next session", async () => {
		const { root, write } = vaultWithNotes();
		const file = join(tempDir("saved-index-cache"), "index.json");
		await warmedAndSaved(root, file);
		const later = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec, saved(root, file));
		await later.refresh();
		write("A/One.md", "---\ntags: [delta]\n---\nChanged.\n");
		await later.refresh();
		expect(later.tagsOf("A/One.md")?.map((tag) => tag.tag)).toEqual(["delta"]);
		later.dispose();
		const notes = notesOf(saved(root, file).load());
		expect(notes.find((note) => note.path === "A/One.md")?.tags).toEqual([{ tag: "delta", line: 1 }]);
	});
});
