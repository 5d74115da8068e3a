import type { CachedMetadata, Pos } from "obsidian";
import { DiagnosticsEngine } from "../../src/bridge/diagnostics/diagnostics-engine";
import { ObsidianNoteSource, type NoteFile } from "../../src/obsidian/diagnostics-source";
import { parseYaml } from "../../src/headless/yaml-parser";
import { Events, type EventRef } from "../__mocks__/obsidian";

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
	return { path, extension: path.slice(path.lastIndexOf(".") + 1) };
}

/** The vault and metadata cache as the source sees them, with Obsidian's events. */
class FakeVault extends FakeEvents {
	readonly files = new Map<string, NoteFile>();
	readonly texts = new Map<string, string>();
	reads = 0;
	getMarkdownFiles(): NoteFile[] {
		return [...this.files.values()].filter((entry) => entry.extension === "md");
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
		return [...this.vault.files.values()].find((entry) => [entry.path.toLowerCase(), entry.path.toLowerCase().replace(/\.md$/, "")].includes(wanted)) ?? null;
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
	add("Bad.md", { frontmatterPosition: pos(0, 0, 2, 3), sections: [{ type: "yaml", position: pos(0, 0, 2, 3) }] }, "---\nkey: [oops\n---\n");
	add("Properties.md", { frontmatter: { title: "x" }, frontmatterPosition: pos(0, 0, 2, 3) }, "---\ntitle: x\n---\n");
	vault.files.set("gone.txt", file("gone.txt"));
	const source = new ObsidianNoteSource({ vault, metadataCache, parseYaml });
	source.load();
	return { vault, metadataCache, source, engine: new DiagnosticsEngine(source) };
}

function brief(diagnostics: { code: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }[]) {
	return diagnostics.map(({ code, range }) => `${code} ${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`);
}

describe("ObsidianNoteSource", () => {
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
		expect(source.metadata("Bad.md")?.frontmatterProblem).toBeUndefined();
	});
});
