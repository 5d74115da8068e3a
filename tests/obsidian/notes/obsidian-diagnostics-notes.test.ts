import type { CachedMetadata, Pos } from "obsidian";
import { DiagnosticsEngine } from "../../../src/ide/diagnostics/diagnostics-engine";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { createGetDiagnosticsTool } from "../../../src/ide/tools/get-diagnostics";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { ObsidianDiagnosticsNotes, type NoteFile } from "../../../src/obsidian/notes/obsidian-diagnostics-notes";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import * as obsidian from "../../__mocks__/obsidian";
import { Events, type EventRef } from "../../__mocks__/obsidian";
import { createMetadataHarness } from "../harness/metadata-vault";
import { ManualScheduler, settle } from "../harness/metadata-scheduler";

/** Obsidian's events, typed loosely enough to stand in for the vault's and the metadata cache's overloads. */
class FakeEvents extends Events {
	override on(name: string, callback: (...args: never[]) => unknown): EventRef {
		return super.on(name, callback as (...args: unknown[]) => unknown);
	}
}

function pos(line: number, col: number, endLine: number, endCol: number): Pos {
	return { start: { line, col, offset: 0 }, end: { line: endLine, col: endCol, offset: 0 } };
}

function file(path: string): NoteFile {
	return { path, extension: path.slice(path.lastIndexOf(".") + 1), stat: { mtime: 1, size: 1 } };
}

/** The vault and metadata cache as the source sees them, with Obsidian's events. */
class FakeVault extends FakeEvents {
	readonly files = new Map<string, NoteFile>();
	readonly texts = new Map<string, string>();
	reads = 0;
	/** The disk agrees with the vault here: every note is as Obsidian indexed it. */
	readonly adapter = {
		stat: (path: string) => Promise.resolve(this.files.get(path)?.stat ?? null),
		read: (path: string) => Promise.resolve(this.texts.get(path) ?? ""),
	};
	getMarkdownFiles(): NoteFile[] {
		return [...this.files.values()].filter((entry) => entry.extension === "md");
	}
	getFiles(): NoteFile[] {
		return [...this.files.values()];
	}
	getFileByPath(path: string): NoteFile | null {
		return this.files.get(path) ?? null;
	}
	cachedRead(entry: NoteFile): Promise<string> {
		this.reads++;
		return Promise.resolve(this.texts.get(entry.path) ?? "");
	}
}

class FakeMetadataCache extends FakeEvents {
	readonly caches = new Map<string, CachedMetadata>();
	constructor(private readonly vault: FakeVault) {
		super();
	}
	getFileCache(entry: NoteFile): CachedMetadata | null {
		return this.caches.get(entry.path) ?? null;
	}
	getFirstLinkpathDest(linkpath: string): NoteFile | null {
		const wanted = linkpath.toLowerCase();
		return (
			[...this.vault.files.values()].find((entry) =>
				[entry.path.toLowerCase(), entry.path.toLowerCase().replace(/\.md$/, "")].includes(wanted),
			) ?? null
		);
	}
}

function setUp() {
	const vault = new FakeVault();
	const metadataCache = new FakeMetadataCache(vault);
	const add = (path: string, cache: CachedMetadata, text = ""): void => {
		vault.files.set(path, file(path));
		metadataCache.caches.set(path, cache);
		vault.texts.set(path, text);
	};
	add("Target.md", { headings: [{ heading: "Part One", level: 1, position: pos(0, 0, 0, 10) }], blocks: {} });
	add("Home.md", {
		links: [
			{ link: "Missing", original: "[[Missing]]", position: pos(2, 3, 2, 14) },
			{ link: "Target#Part one", original: "[[Target#Part one]]", position: pos(3, 0, 3, 19) },
			{ link: "Target#Nope", original: "[[Target#Nope|x]]", position: pos(3, 20, 3, 37) },
			{ link: "https://example.com", original: "[x](https://example.com)", position: pos(4, 0, 4, 24) },
			{ link: "Missing", original: "[[Missing]]", position: pos(6, 0, 6, 11) },
		],
		embeds: [{ link: "gone.png", original: "![[gone.png]]", position: pos(5, 0, 5, 13) }],
		sections: [
			{ type: "paragraph", id: "dup", position: pos(7, 0, 7, 12) },
			{ type: "list", position: pos(8, 0, 9, 14) },
			{ type: "code", position: pos(6, 0, 6, 11) },
		],
		listItems: [
			{ id: "DUP", parent: -8, position: pos(9, 0, 9, 14) },
			{ id: "dup", parent: -8, position: pos(7, 0, 7, 12) },
		],
	});
	add(
		"Bad.md",
		{ frontmatterPosition: pos(0, 0, 2, 3), sections: [{ type: "yaml", position: pos(0, 0, 2, 3) }] },
		"---\nkey: [oops\n---\n",
	);
	add("Properties.md", { frontmatter: { title: "x" }, frontmatterPosition: pos(0, 0, 2, 3) }, "---\ntitle: x\n---\n");
	vault.files.set("gone.txt", file("gone.txt"));
	const source = new ObsidianDiagnosticsNotes({ vault, metadataCache, yaml: obsidianYamlCodec });
	source.load();
	return { vault, metadataCache, source, engine: new DiagnosticsEngine(source) };
}

function brief(
	diagnostics: {
		code: string;
		range: { start: { line: number; character: number }; end: { line: number; character: number } };
	}[],
) {
	return diagnostics.map(
		({ code, range }) =>
			`${code} ${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`,
	);
}

describe("ObsidianDiagnosticsNotes", () => {
	it("maps the metadata cache to diagnostics: links, embeds, headings, duplicate ids from sections and list items", async () => {
		const { engine } = setUp();
		expect(brief(await engine.forNote("Home.md"))).toEqual([
			"unresolved-link 2:3-2:14",
			"missing-heading 3:20-3:37",
			"unresolved-embed 5:0-5:13",
			"duplicate-block-id 9:10-9:14",
		]);
	});

	it("reads the text only of notes whose frontmatter Obsidian could not parse, and reports it", async () => {
		const { engine, vault } = setUp();
		const all = await engine.forVault();
		expect(all.map((note) => note.path)).toEqual(["Bad.md", "Home.md"]);
		expect(brief(all[0]?.diagnostics ?? [])).toEqual(["invalid-frontmatter 1:0-1:10"]);
		expect(vault.reads).toBe(1);
	});

	it("takes the text of a changed note from the changed event", async () => {
		const { engine, metadataCache, vault } = setUp();
		await engine.forVault();
		const cache: CachedMetadata = { frontmatter: { a: 1 }, frontmatterPosition: pos(0, 0, 2, 3) };
		metadataCache.caches.set("Properties.md", cache);
		metadataCache.trigger("changed", vault.files.get("Properties.md"), "---\na: 1\na: 2\n---\n", cache);
		const properties = (await engine.forVault()).find((note) => note.path === "Properties.md");
		expect(brief(properties?.diagnostics ?? [])).toEqual(["invalid-frontmatter 2:0-2:4"]);
	});

	it("forgets deleted and renamed notes and re-resolves links", async () => {
		const { engine, vault, metadataCache, source } = setUp();
		await engine.forVault();
		vault.files.set("Missing.md", file("Missing.md"));
		metadataCache.caches.set("Missing.md", {});
		vault.trigger("create", vault.files.get("Missing.md"));
		expect(brief(await engine.forNote("Home.md"))).not.toContain("unresolved-link 2:3-2:14");
		vault.files.delete("Bad.md");
		vault.trigger("delete", file("Bad.md"));
		expect((await engine.forVault()).map((note) => note.path)).toEqual(["Home.md"]);
		const before = source.structureVersion;
		vault.trigger("rename", file("Moved.md"), "Missing.md");
		expect(source.structureVersion).toBeGreaterThan(before);
	});

	it("stops listening when unloaded", () => {
		const { source, metadataCache, vault } = setUp();
		source.unload();
		const cache: CachedMetadata = {};
		metadataCache.trigger("changed", vault.files.get("Bad.md"), "---\nfine: yes\n---\n", cache);
		expect(source.facts("Bad.md")?.frontmatterProblem).toBeUndefined();
	});
});

/** A vault on a fake disk, Obsidian's lagging metadata cache over it, and the source with a hand-driven clock. */
async function lagging(
	notes: Record<string, string>,
	options: { tick?: number; sliceMs?: number; unindexed?: string[] } = {},
) {
	const { vault, disk, metadataCache } = createMetadataHarness(notes);
	await metadataCache.parsePending(Object.keys(notes).filter((path) => !options.unindexed?.includes(path)));
	const scheduler = new ManualScheduler(options.tick ?? 0);
	const source = new ObsidianDiagnosticsNotes({
		vault,
		metadataCache,
		yaml: obsidianYamlCodec,
		scheduler,
		indexWaitMs: 200,
		sliceMs: options.sliceMs ?? 10,
	});
	source.load();
	return { vault, disk, metadataCache, scheduler, source, engine: new DiagnosticsEngine(source) };
}

/** Starts a call and reports whether it has finished, so a test can assert what happens before and after a wait. */
function track<T>(promise: Promise<T>): { done: () => boolean; result: Promise<T> } {
	let finished = false;
	void promise.then(() => (finished = true));
	return { done: () => finished, result: promise };
}

const codes = (diagnostics: { code: string }[]): string[] => diagnostics.map((diagnostic) => diagnostic.code);

describe("ObsidianDiagnosticsNotes against a metadata cache that lags the disk (defect 6)", () => {
	it("reports a link the CLI's write just broke while Obsidian still holds the old note, from the disk text", async () => {
		const { vault, disk, scheduler, source, engine } = await lagging({ "A.md": "See [[B]].\n", "B.md": "# B\n" });
		expect(await engine.forNote("A.md")).toEqual([]);
		vault.writeExternally("A.md", "See [[Gone]].\n");
		const call = track(engine.forNote("A.md"));
		await settle();
		expect(call.done()).toBe(false);
		scheduler.advance(199);
		await settle();
		expect(call.done()).toBe(false);
		scheduler.advance(1);
		expect(codes(await call.result)).toEqual(["unresolved-link"]);
		expect(disk.reads).toBe(1);
		expect(source.indexingNotice("A.md")).toMatch(/checked from its text on disk/);
	});

	it("waits for Obsidian's changed event once the watcher caught up, and answers from Obsidian's cache", async () => {
		const { vault, disk, metadataCache, scheduler, source, engine } = await lagging({
			"A.md": "See [[B]].\n",
			"B.md": "# B\n",
		});
		await engine.forNote("A.md");
		vault.writeExternally("A.md", "See [[B#Nope]].\n");
		vault.watcherCatchesUp("A.md");
		const call = track(engine.forNote("A.md"));
		await settle();
		expect(scheduler.pendingTimers).toBe(1);
		await metadataCache.parsePending();
		expect(codes(await call.result)).toEqual(["missing-heading"]);
		expect(scheduler.pendingTimers).toBe(0);
		expect(disk.reads).toBe(0);
		expect(source.indexingNotice("A.md")).toBeUndefined();
	});

	it("checks a note Obsidian has not indexed yet from the disk instead of answering 'no problems'", async () => {
		const { vault, scheduler, source, engine } = await lagging({ "B.md": "# B\n" });
		vault.add("New.md", "Links to [[Nowhere]] and [[B#Missing]].\n");
		const call = track(engine.forNote("New.md"));
		await settle();
		scheduler.advance(200);
		expect(codes(await call.result)).toEqual(["unresolved-link", "missing-heading"]);
		expect(source.indexingNotice("New.md")).toMatch(/not finished indexing this note/);
	});

	it("checks a note the CLI created that the vault has not seen yet", async () => {
		const { vault, scheduler, engine } = await lagging({ "B.md": "# B\n" });
		vault.writeExternally("Created.md", "[[Nowhere]]\n");
		const call = track(engine.forNote("Created.md"));
		await settle();
		scheduler.advance(200);
		expect(codes(await call.result)).toEqual(["unresolved-link"]);
	});

	it("re-checks the notes the CLI asked about on the whole-vault call that follows its write", async () => {
		const { vault, scheduler, engine } = await lagging({ "A.md": "See [[B]].\n", "B.md": "# B\n" });
		expect(await engine.forNote("A.md")).toEqual([]);
		expect(await engine.forVault()).toEqual([]);
		vault.writeExternally("A.md", "See [[Gone]].\n");
		const call = track(engine.forVault());
		await settle();
		scheduler.advance(200);
		const all = await call.result;
		expect(all.map((note) => [note.path, codes(note.diagnostics)])).toEqual([["A.md", ["unresolved-link"]]]);
	});

	it("says in a whole-vault answer which notes are not indexed yet", async () => {
		// Obsidian's first indexing is still running when the source starts: Later.md has no cache entry yet.
		const { source, engine } = await lagging(
			{ "B.md": "# B\n", "Later.md": "[[Nowhere]]\n" },
			{ unindexed: ["Later.md"] },
		);
		expect(await engine.forVault()).toEqual([]);
		expect(source.indexingNotice()).toMatch(
			/not finished indexing the vault: 1 note not indexed yet was not checked/,
		);
	});

	it("uses Obsidian's answer once it has indexed the note, and stops reading the disk", async () => {
		const { vault, disk, metadataCache, scheduler, source, engine } = await lagging({
			"A.md": "[[B]]\n",
			"B.md": "# B\n",
		});
		vault.writeExternally("A.md", "[[Gone]]\n");
		const first = track(engine.forNote("A.md"));
		await settle();
		scheduler.advance(200);
		await first.result;
		vault.watcherCatchesUp("A.md");
		await metadataCache.parsePending();
		expect(codes(await engine.forNote("A.md"))).toEqual(["unresolved-link"]);
		expect(disk.reads).toBe(1);
		expect(source.indexingNotice("A.md")).toBeUndefined();
	});
});

describe("ObsidianDiagnosticsNotes and Obsidian's own rules (defect 12)", () => {
	it("matches headings and block ids with Obsidian's resolveSubpath", async () => {
		const { engine } = await lagging({ "A.md": "[[B#Part one]] [[B#^id]]\n", "B.md": "# Part One\n\nText ^id\n" });
		const spy = jest.spyOn(obsidian, "resolveSubpath");
		try {
			spy.mockReturnValueOnce(null);
			expect(codes(await engine.forNote("A.md"))).toEqual(["missing-heading"]);
			expect(spy.mock.calls.map((call) => call[1])).toEqual(["#Part one", "#^id"]);
		} finally {
			spy.mockRestore();
		}
	});

	it("builds every note's metadata at layout ready in slices, yielding between them", async () => {
		const notes: Record<string, string> = {};
		for (let index = 0; index < 300; index++)
			notes[`Area/Note ${index}.md`] = `# Note ${index}\n\n[[Note ${index + 1}]]\n`;
		const { scheduler, source } = await lagging(notes, { tick: 1, sliceMs: 10 });
		await source.refresh();
		scheduler.endOfWork();
		expect(scheduler.yields).toBeGreaterThanOrEqual(20);
		expect(scheduler.longestSliceMs).toBeLessThanOrEqual(11);
	});

	it("looks notes up by their normalised path", async () => {
		const { engine } = await lagging({ "Folder/A.md": "[[Gone]]\n" });
		expect(codes(await engine.forNote("Folder//A.md"))).toEqual(["unresolved-link"]);
	});
});

describe("getDiagnostics over the Obsidian source", () => {
	it("adds a text block after the JSON saying the note was checked from the disk; the JSON stays the first block", async () => {
		const { vault, scheduler, engine } = await lagging({ "B.md": "# B\n" });
		const tool = createGetDiagnosticsTool({ diagnostics: engine, paths: new VaultPaths("/vault") });
		vault.writeExternally("New.md", "[[Nowhere]]\n");
		const context = { sessionId: 1, signal: new AbortController().signal };
		const call = track(tool.call({ uri: "file:///vault/New.md" }, context));
		await settle();
		scheduler.advance(200);
		const result = await call.result;
		const texts = result.content.map((block) => (block.type === "text" ? block.text : ""));
		expect(JSON.parse(texts[0] ?? "")).toEqual([expect.objectContaining({ uri: "file:///vault/New.md" })]);
		expect(texts.slice(1)).toEqual([expect.stringMatching(/checked from its text on disk/)]);
		expect((await tool.call({ uri: "file:///vault/B.md" }, context)).content).toHaveLength(1);
	});
});

describe("the first whole-vault call over the Obsidian source", () => {
	it("runs the rules over every note in slices too, yielding between them", async () => {
		const notes: Record<string, string> = {};
		for (let index = 0; index < 300; index++)
			notes[`Area/Note ${index}.md`] = `# Note ${index}\n\n[[Note ${index + 1}]] [[Note ${index}#Nope]]\n`;
		const { scheduler, source, engine } = await lagging(notes, { tick: 1, sliceMs: 10 });
		await source.refresh();
		scheduler.endOfWork();
		const yieldsBefore = scheduler.yields;
		scheduler.startOfWork();
		const all = await engine.forVault();
		scheduler.endOfWork();
		expect(all).toHaveLength(300);
		expect(scheduler.yields - yieldsBefore).toBeGreaterThanOrEqual(20);
		expect(scheduler.longestSliceMs).toBeLessThanOrEqual(11);
	});
});

describe("the Obsidian source behind the privacy boundary (as assembleBridge wraps it)", () => {
	it("keeps Obsidian's subpath matcher, the pace and the indexing notice, and says nothing about private notes", async () => {
		const { vault, scheduler, source } = await lagging({
			"A.md": "[[B#Part]]\n",
			"B.md": "# Part\n",
			"Private/Diary.md": "# Diary\n",
		});
		const privacy = new VaultPrivacy({
			paths: new VaultPaths("/vault"),
			rules: () => ({ folders: ["Private"], tags: [] }),
			tagsOf: () => [],
		});
		const wrapped = privacy.notes(source);
		expect(wrapped.pace?.sliceMs).toBe(10);
		const engine = new DiagnosticsEngine(wrapped);
		const spy = jest.spyOn(obsidian, "resolveSubpath");
		try {
			expect(await engine.forNote("A.md")).toEqual([]);
			expect(spy).toHaveBeenCalledTimes(1);
		} finally {
			spy.mockRestore();
		}
		vault.writeExternally("Private/Diary.md", "[[Nowhere]]\n");
		vault.writeExternally("New.md", "[[Nowhere]]\n");
		const call = track(Promise.all([engine.forNote("Private/Diary.md"), engine.forNote("New.md")]));
		await settle();
		scheduler.advance(200);
		const [diary, fresh] = await call.result;
		expect([codes(diary), codes(fresh)]).toEqual([[], ["unresolved-link"]]);
		expect(engine.indexingNotice("Private/Diary.md")).toBeUndefined();
		expect(engine.indexingNotice("New.md")).toMatch(/checked from its text on disk/);
	});
});

describe("when the disk cannot be asked", () => {
	it("answers from Obsidian's cache rather than calling the note gone", async () => {
		const { disk, engine } = await lagging({ "A.md": "[[Gone]]\n" });
		disk.stat = () => Promise.reject(new Error("EACCES: permission denied"));
		expect(codes(await engine.forNote("A.md"))).toEqual(["unresolved-link"]);
	});
});
