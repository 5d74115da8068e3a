import type { CachedMetadata, EventRef } from "obsidian";
import {
	isNotePath,
	ObsidianNoteEvents,
	type NoteEventListener,
} from "../../../src/obsidian/notes/obsidian-note-events";

const CACHE: CachedMetadata = {};

/** Obsidian's `Events` as the vault and the metadata cache offer them, counting who listens. */
class Events {
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
	const events = new ObsidianNoteEvents(vault, metadataCache);
	events.load();
	const heard: string[] = [];
	const listener: NoteEventListener = {
		changed: (file, data) => heard.push(`changed ${file.path} ${data}`),
		created: (path) => heard.push(`created ${path}`),
		modified: (path) => heard.push(`modified ${path}`),
		deleted: (path) => heard.push(`deleted ${path}`),
		renamed: (path, oldPath) => heard.push(`renamed ${oldPath} → ${path}`),
	};
	const stopListening = events.listen(listener);
	return { vault, metadataCache, events, heard, stopListening };
}

describe("ObsidianNoteEvents", () => {
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

	it("tells listeners each event after its state was updated, until they stop listening", () => {
		const { vault, metadataCache, events, heard, stopListening } = setup();
		let awaitingWhenTold: boolean | undefined;
		events.listen({ created: (path) => (awaitingWhenTold = events.isAwaitingIndex(path)) });
		vault.trigger("create", { path: "A.md" });
		expect(awaitingWhenTold).toBe(true);
		metadataCache.trigger("changed", { path: "A.md" }, "# A", CACHE);
		vault.trigger("modify", { path: "A.md" });
		vault.trigger("rename", { path: "B.md" }, "A.md");
		vault.trigger("delete", { path: "B.md" });
		expect(heard).toEqual([
			"created A.md",
			"changed A.md # A",
			"modified A.md",
			"renamed A.md → B.md",
			"deleted B.md",
		]);
		stopListening();
		vault.trigger("create", { path: "C.md" });
		expect(heard).toHaveLength(5);
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
