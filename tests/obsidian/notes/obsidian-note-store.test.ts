import { ObsidianDiagnosticsNotes } from "../../../src/obsidian/notes/obsidian-diagnostics-notes";
import { isNotePath, ObsidianNoteStore, type NoteStoreListener } from "../../../src/obsidian/notes/obsidian-note-store";
import type { CachedMetadata, EventRef } from "obsidian";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import { noteTags } from "../../../src/vault/markdown/note-tags";
import { TAGS_NOT_KNOWN } from "../../../src/vault/privacy/privacy";
import type { WorkPace } from "../../../src/vault/notes/notes";
import { App, type MetadataCache } from "../../__mocks__/obsidian";
import { parseWithTags } from "../harness/metadata-parser";
import { createIndexedApp, vaultIndexPorts } from "../harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

/** The one store both Obsidian readers share: what one of them learns of a note, the other sees. */
describe("ObsidianNoteStore shared by the diagnostics and the vault tools", () => {
	let app: App;
	let store: ObsidianNoteStore;
	let index: ObsidianVaultIndex;
	let diagnostics: ObsidianDiagnosticsNotes;
	beforeEach(async () => {
		app = await createIndexedApp({
			"Props.md": "---\nrelated: '[[Target]]'\n---\nBody\n",
			"Target.md": "# Target\n",
		});
		const ports = vaultIndexPorts(app);
		store = new ObsidianNoteStore(ports.vault, ports.metadataCache, { yaml: obsidianYamlCodec });
		index = new ObsidianVaultIndex({ ...ports, store });
		diagnostics = new ObsidianDiagnosticsNotes({
			vault: ports.vault as unknown as ConstructorParameters<typeof ObsidianDiagnosticsNotes>[0]["vault"],
			metadataCache: ports.metadataCache,
			yaml: obsidianYamlCodec,
			store,
		});
		store.load();
		index.load();
		diagnostics.load();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => {
		diagnostics?.unload();
		index?.unload();
		store?.unload();
	});

	it("subscribes to Obsidian once for both readers", () => {
		expect(app.metadataCache.listenerCount("changed")).toBe(1);
	});

	it("reads a note's frontmatter once for both: the problem for the diagnostics, the detail for the tools", async () => {
		await index.refresh();
		const reading = store.indexedReading("Props.md");
		expect(reading?.problem).toBeNull();
		expect(reading?.detail()?.links.map((link) => link.linkpath)).toEqual(["Target"]);
		expect(index.facts("Props.md")?.links.map((link) => link.target)).toEqual(["Target.md"]);
		expect((await index.backlinks("Target.md")).map((backlink) => backlink.source)).toEqual(["Props.md"]);
	});

	it("serves a note read from its text by one reader to the other until Obsidian parses it", async () => {
		app.vault.writeExternally("Target.md", "# Changed on disk\n");
		await index.refresh();
		expect(store.unindexedRead("Target.md")?.text).toBe("# Changed on disk\n");
		expect(diagnostics.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
		await app.metadataCache.parsePending();
		expect(store.unindexedRead("Target.md")).toBeUndefined();
		expect(index.facts("Target.md")?.headings.map((heading) => heading.text)).toEqual(["Changed on disk"]);
	});
});

/** Lets the store's queued text reads finish. */
async function settle(): Promise<void> {
	for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe("ObsidianNoteStore.tagsOf, the one tag reader privacy relies on", () => {
	const NOTES: Record<string, string> = {
		"Notes/a.md": "# A\n",
		"Tagged/front.md": "---\ntags: [secret, work]\n---\nbody\n",
		"Tagged/inline.md": "text #Secret/health and #idea\n",
		"Tagged/emoji.md": "done #📝private\n",
		"Images/pixel.png": "PNG",
	};
	let app: App;
	let store: ObsidianNoteStore;

	beforeEach(async () => {
		app = new App("/vault", "Vault");
		for (const [path, text] of Object.entries(NOTES)) app.vault.contents.set(path, text);
		app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseWithTags);
		await app.metadataCache.parsePending();
		store = new ObsidianNoteStore(app.vault as never, app.metadataCache as never, { yaml: obsidianYamlCodec });
		store.load();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => store?.unload());

	it("answers noteTags of the text Obsidian indexed: a note reads the same listed as when it is written", async () => {
		for (const path of ["Tagged/front.md", "Tagged/inline.md", "Tagged/emoji.md", "Notes/a.md"]) store.tagsOf(path);
		await settle();
		for (const path of ["Tagged/front.md", "Tagged/inline.md", "Tagged/emoji.md", "Notes/a.md"])
			expect(store.tagsOf(path)).toEqual(noteTags(NOTES[path] ?? "", obsidianYamlCodec));
		expect(store.tagsOf("Tagged/emoji.md")).toEqual(["📝private"]);
	});

	it("has Obsidian's reading of the same version stand in until that text is read, which it asks for at once", async () => {
		expect(store.tagsOf("Tagged/front.md")).toEqual(["secret", "work"]);
		expect(store.tagsOf("Tagged/inline.md")).toEqual(["Secret/health", "idea"]);
		await settle();
		expect(store.indexedReading("Tagged/front.md")?.tags).toEqual(["secret", "work"]);
	});

	it("reads a changed note's tags from the text Obsidian parsed, with no read of its own", async () => {
		await app.vault.modify(app.vault.getFileByPath("Notes/a.md") as never, "now #secret\n");
		await app.metadataCache.parsePending();
		expect(store.tagsOf("Notes/a.md")).toEqual(["secret"]);
	});

	it("normalises paths before looking them up (Obsidian's lookups take normalised paths only)", async () => {
		store.tagsOf("Tagged/front.md");
		await settle();
		expect(store.tagsOf("/Tagged//front.md")).toEqual(["secret", "work"]);
	});

	it("answers TAGS_NOT_KNOWN for a note the cache has not parsed yet or Obsidian does not know, so privacy counts it as private", async () => {
		expect(store.tagsOf("Notes/missing.md")).toBe(TAGS_NOT_KNOWN);
		await app.vault.create("Notes/synced.md", "#secret\n");
		expect(store.tagsOf("Notes/synced.md")).toBe(TAGS_NOT_KNOWN);
		await app.metadataCache.parsePending();
		expect(store.tagsOf("Notes/synced.md")).toEqual(["secret"]);
	});

	it("has no tags for a file that is not a note, known or not", () => {
		expect(store.tagsOf("Images/pixel.png")).toEqual([]);
		expect(store.tagsOf("Images/pixel.png")).not.toBe(TAGS_NOT_KNOWN);
		expect(store.tagsOf("Images/missing.png")).not.toBe(TAGS_NOT_KNOWN);
	});
});

const CACHE: CachedMetadata = {};

/** Obsidian's `Events` as the vault and the metadata cache offer them, counting who listens. */
class Events {
	/** The vault's lookups the store makes on an event: this vault lists nothing. */
	getFileByPath(): null {
		return null;
	}
	getMarkdownFiles(): never[] {
		return [];
	}
	getFiles(): never[] {
		return [];
	}
	getFileCache(): null {
		return null;
	}

	private readonly handlers = new Map<string, Set<(...args: never[]) => unknown>>();

	on(name: string, callback: (...args: never[]) => unknown): EventRef {
		const set = this.handlers.get(name) ?? new Set();
		set.add(callback);
		this.handlers.set(name, set);
		return { detach: () => set.delete(callback) } as unknown as EventRef;
	}

	trigger(name: string, ...args: unknown[]): void {
		for (const handler of this.handlers.get(name) ?? []) (handler as (...args: unknown[]) => unknown)(...args);
	}

	listenerCount(name: string): number {
		return this.handlers.get(name)?.size ?? 0;
	}
}

function setup() {
	const vault = new Events();
	const metadataCache = new Events();
	const events = new ObsidianNoteStore(vault as never, metadataCache as never);
	events.load();
	const heard: string[] = [];
	const listener: NoteStoreListener = {
		noteChanged: (path) => heard.push(`noteChanged ${path}`),
		parsed: (path) => heard.push(`parsed ${path}`),
		listChanged: () => heard.push("listChanged"),
	};
	const stopListening = events.listen(listener);
	return { vault, metadataCache, events, heard, stopListening };
}

describe("ObsidianNoteStore, the one subscriber to note events", () => {
	it("holds a created or modified note as behind the cache until Obsidian's changed event for it", () => {
		const { vault, metadataCache, events } = setup();
		vault.trigger("create", { path: "New.md" });
		vault.trigger("modify", { path: "Old.md" });
		expect(events.isAwaitingIndex("New.md")).toBe(true);
		expect([...events.awaitingIndex()]).toEqual(["New.md", "Old.md"]);
		metadataCache.trigger("changed", { path: "New.md" }, "text", CACHE);
		expect(events.isAwaitingIndex("New.md")).toBe(false);
		expect([...events.awaitingIndex()]).toEqual(["Old.md"]);
	});

	it("does not wait for files Obsidian never parses: attachments and hidden notes", () => {
		const { vault, events } = setup();
		for (const path of ["image.png", ".hidden/a.md", "Folder/.draft.md"]) vault.trigger("create", { path });
		vault.trigger("modify", { path: "canvas.canvas" });
		expect(events.awaitingIndex().size).toBe(0);
	});

	it("moves the waiting state with a renamed note, and forgets a deleted one", () => {
		const { vault, events } = setup();
		vault.trigger("modify", { path: "A.md" });
		vault.trigger("rename", { path: "B.md" }, "A.md");
		expect(events.isAwaitingIndex("A.md")).toBe(false);
		expect(events.isAwaitingIndex("B.md")).toBe(true);
		vault.trigger("rename", { path: "D.md" }, "C.md");
		expect(events.isAwaitingIndex("D.md")).toBe(false);
		vault.trigger("delete", { path: "B.md" });
		expect(events.awaitingIndex().size).toBe(0);
	});

	it("marks a note a reader wrote itself, if it is a note", () => {
		const { events } = setup();
		events.markAwaitingIndex("Written.md");
		events.markAwaitingIndex("data.json");
		expect([...events.awaitingIndex()]).toEqual(["Written.md"]);
	});

	it("changes the structure version on create, delete and rename, not on modify or changed", () => {
		const { vault, metadataCache, events } = setup();
		const start = events.structureVersion;
		vault.trigger("modify", { path: "A.md" });
		metadataCache.trigger("changed", { path: "A.md" }, "text", CACHE);
		expect(events.structureVersion).toBe(start);
		vault.trigger("create", { path: "B.md" });
		vault.trigger("rename", { path: "C.md" }, "B.md");
		vault.trigger("delete", { path: "C.md" });
		expect(events.structureVersion).toBe(start + 3);
	});

	it("tells readers each change after its state was updated, until they stop listening", () => {
		const { vault, metadataCache, events, heard, stopListening } = setup();
		let awaitingWhenTold: boolean | undefined;
		events.listen({ listChanged: () => (awaitingWhenTold = events.isAwaitingIndex("A.md")) });
		vault.trigger("create", { path: "A.md" });
		expect(awaitingWhenTold).toBe(true);
		metadataCache.trigger("changed", { path: "A.md" }, "# A", CACHE);
		vault.trigger("modify", { path: "A.md" });
		vault.trigger("rename", { path: "B.md" }, "A.md");
		vault.trigger("delete", { path: "B.md" });
		expect(heard).toEqual([
			"listChanged",
			"noteChanged A.md",
			"parsed A.md",
			"noteChanged A.md",
			"noteChanged B.md",
			"listChanged",
			"noteChanged B.md",
			"listChanged",
		]);
		stopListening();
		vault.trigger("create", { path: "C.md" });
		expect(heard).toHaveLength(8);
	});

	it("subscribes to Obsidian once on load and lets go of every event on unload", () => {
		const { vault, metadataCache, events } = setup();
		expect(["create", "modify", "delete", "rename"].map((name) => vault.listenerCount(name))).toEqual([1, 1, 1, 1]);
		expect(metadataCache.listenerCount("changed")).toBe(1);
		events.unload();
		expect(["create", "modify", "delete", "rename"].map((name) => vault.listenerCount(name))).toEqual([0, 0, 0, 0]);
		expect(metadataCache.listenerCount("changed")).toBe(0);
		vault.trigger("create", { path: "After.md" });
		expect(events.isAwaitingIndex("After.md")).toBe(false);
	});
});

describe("isNotePath", () => {
	it("is a Markdown file outside dot-folders and not itself a dot-file", () => {
		expect(["a.md", "Folder/B.MD", "x.y/z.md"].map(isNotePath)).toEqual([true, true, true]);
		expect(["a.png", ".obs/a.md", "F/.a.md", "a.md.bak"].map(isNotePath)).toEqual([false, false, false, false]);
	});
});

describe("ObsidianNoteStore with a pace (the plugin's)", () => {
	/** A pace whose yields wait until the test lets them go. */
	function heldPace(): { pace: WorkPace; release: () => Promise<void>; yields: () => number } {
		let waiting: (() => void)[] = [];
		let count = 0;
		return {
			pace: {
				sliceMs: 8,
				now: () => 0,
				yieldToMain: () => {
					count++;
					return new Promise<void>((resolve) => waiting.push(resolve));
				},
			},
			release: async () => {
				const now = waiting;
				waiting = [];
				for (const resolve of now) resolve();
				for (let turn = 0; turn < 10; turn++) await Promise.resolve();
			},
			yields: () => count,
		};
	}

	it("reads a parsed note's text after the `changed` event, not in it, and at once when a reader asks first", async () => {
		const app = await createIndexedApp({});
		const ports = vaultIndexPorts(app);
		const held = heldPace();
		const store = new ObsidianNoteStore(ports.vault, ports.metadataCache, {
			yaml: obsidianYamlCodec,
			pace: held.pace,
		});
		store.load();
		try {
			app.vault.writeExternally("A.md", "---\ntags: [alpha]\n---\n#beta\n");
			app.vault.writeExternally("B.md", "---\nbroken: [\n---\n#gamma\n");
			await app.metadataCache.parsePending();
			expect(held.yields()).toBe(1);
			// Asked before the slice ran: read at once, the same answer.
			expect(store.tagsOf("A.md")).toEqual(noteTags("---\ntags: [alpha]\n---\n#beta\n", obsidianYamlCodec));
			await held.release();
			expect(store.indexedReading("B.md")?.problem).not.toBeNull();
			expect(store.tagsOf("B.md")).toEqual(["gamma"]);
		} finally {
			store.unload();
		}
	});
});
