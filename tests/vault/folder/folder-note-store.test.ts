import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	comparePaths,
	FolderNoteStore,
	NoteMemo,
	RECENT_TEXT_BYTES,
} from "../../../src/vault/folder/folder-note-store";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

function folder(files: Record<string, string>): { root: string; write: (path: string, text: string) => void } {
	const temp = makeTempDir("folder-note-store");
	temps.push(temp);
	const write = (path: string, text: string): void => {
		mkdirSync(join(temp.path, path, ".."), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	return { root: temp.path, write };
}

describe("FolderNoteStore", () => {
	it("lists notes sorted by code unit, files by path, and skips dot-names and links", () => {
		const { root } = folder({
			"b.md": "b",
			"A/z.md": "z",
			"A/a.MD": "a",
			"pic.png": "",
			".config/app.json": "{}",
			"A/.draft.md": "d",
		});
		const outside = folder({ "secret.md": "s" });
		symlinkSync(join(outside.root, "secret.md"), join(root, "link.md"));
		const store = new FolderNoteStore({ root, watch: false });
		store.refresh();
		expect(store.notePaths()).toEqual(["A/a.MD", "A/z.md", "b.md"]);
		expect(store.files.has("pic.png")).toBe(true);
		expect(store.isNote("pic.png")).toBe(false);
		expect(store.isNote("link.md")).toBe(false);
		expect(store.text("A/z.md")).toBe("z");
		expect(store.text("pic.png")).toBeUndefined();
	});

	it("keeps the texts read last for the next reader, but not a large one: memory stays small after a scan", () => {
		const { root } = folder({ "small.md": "a short note", "large.md": "x".repeat(RECENT_TEXT_BYTES + 1) });
		const store = new FolderNoteStore({ root, watch: false });
		store.refresh();
		// Kept: the second reader gets the same text without reading the file.
		expect(store.read("small.md")).toBe(store.read("small.md"));
		// Not kept: each reader reads the file (a 1 MiB note held after a scan was most of the host's heap).
		const first = store.read("large.md");
		expect(first?.bytes).toBe(RECENT_TEXT_BYTES + 1);
		expect(store.read("large.md")).not.toBe(first);
		expect(store.read("large.md")).toEqual(first);
	});

	it("without watching, finds added, changed and removed notes on each refresh and tells the listener", () => {
		const { root, write } = folder({ "a.md": "one" });
		const changed: string[] = [];
		const store = new FolderNoteStore({ root, watch: false });
		store.onNoteChanged((path) => changed.push(path));
		store.refresh();
		expect(store.text("a.md")).toBe("one");
		const version = store.structureVersion;
		write("a.md", "one, longer");
		write("New/b.md", "two");
		rmSync(join(root, "a.md"));
		writeFileSync(join(root, "a.md"), "again, and longer still");
		store.refresh();
		expect(store.notePaths()).toEqual(["New/b.md", "a.md"]);
		expect(store.text("a.md")).toBe("again, and longer still");
		expect(store.structureVersion).not.toBe(version);
		rmSync(join(root, "New"), { recursive: true });
		store.refresh();
		expect(store.notePaths()).toEqual(["a.md"]);
		expect(changed).toEqual(["a.md", "New/b.md", "a.md", "New/b.md"]);
	});

	it("reads again at once the paths its own writes touched", () => {
		const { root, write } = folder({ "a.md": "old" });
		const store = new FolderNoteStore({ root, watch: true });
		try {
			store.refresh();
			expect(store.text("a.md")).toBe("old");
			write("a.md", "new");
			renameSync(join(root, "a.md"), join(root, "b.md"));
			store.touched("a.md", "b.md");
			expect(store.notePaths()).toEqual(["b.md"]);
			expect(store.text("b.md")).toBe("new");
		} finally {
			store.dispose();
		}
	});

	it("when watching, brings only changed paths up to date on refresh", async () => {
		const { root, write } = folder({ "a.md": "old" });
		const store = new FolderNoteStore({ root, watch: true });
		try {
			store.refresh();
			expect(store.text("a.md")).toBe("old");
			write("Sub/c.md", "new note");
			await waitUntil(
				() => {
					store.refresh();
					return store.isNote("Sub/c.md");
				},
				"the watcher to report the new folder",
				{ timeoutMs: 20_000 },
			);
			expect(store.text("Sub/c.md")).toBe("new note");
		} finally {
			store.dispose();
		}
	});

	it("keeps the real folders it walked (no real-path check per change in them) and forgets one the watcher reports replaced", async () => {
		const { root, write } = folder({ "Sub/a.md": "a" });
		const outside = folder({ "secret.md": "s" });
		const store = new FolderNoteStore({ root, watch: true });
		const realpaths = jest.spyOn(realpathSync, "native");
		try {
			store.refresh();
			realpaths.mockClear();
			write("Sub/b.md", "b");
			await waitUntil(
				() => {
					store.refresh();
					return store.isNote("Sub/b.md");
				},
				"the watcher to report Sub/b.md",
				{ timeoutMs: 20_000 },
			);
			expect(realpaths).not.toHaveBeenCalled();

			// Sub renamed, and a link to a folder outside put in its place.
			renameSync(join(root, "Sub"), join(root, "Moved"));
			symlinkSync(outside.root, join(root, "Sub"));
			await waitUntil(
				() => {
					store.refresh();
					return store.isNote("Moved/a.md") && !store.isNote("Sub/a.md");
				},
				"the watcher to report the replaced folder",
				{ timeoutMs: 20_000 },
			);
			expect(store.notePaths()).toEqual(["Moved/a.md", "Moved/b.md"]);
			// A note asked for through the link is judged on disk again, not by the folder once known as real.
			writeFileSync(join(outside.root, "late.md"), "late");
			store.check("Sub/late.md");
			store.check("Sub/secret.md");
			expect(store.isNote("Sub/late.md")).toBe(false);
			expect(store.isNote("Sub/secret.md")).toBe(false);
			expect(realpaths).toHaveBeenCalled();
		} finally {
			realpaths.mockRestore();
			store.dispose();
		}
	});
	it("watches a folder made in the place of one moved away: what is written in the new one is seen", async () => {
		const { root, write } = folder({ "Notes/a.md": "a" });
		const away = folder({});
		const store = new FolderNoteStore({ root, watch: true });
		try {
			store.refresh();
			renameSync(join(root, "Notes"), join(away.root, "Notes"));
			mkdirSync(join(root, "Notes"));
			await waitUntil(
				() => {
					store.refresh();
					return !store.isNote("Notes/a.md");
				},
				"the watcher to report Notes moved away",
				{ timeoutMs: 20_000 },
			);
			write("Notes/b.md", "b");
			await waitUntil(
				() => {
					store.refresh();
					return store.isNote("Notes/b.md");
				},
				"the watcher to report Notes/b.md in the new folder",
				{ timeoutMs: 20_000 },
			);
		} finally {
			store.dispose();
		}
	});

	it("a folder walked anew loses no change made under it before its new watcher was set: stamps are compared", () => {
		const { root, write } = folder({ "Notes/a.md": "old" });
		const store = new FolderNoteStore({ root, watch: true });
		const texts = new NoteMemo(store, (_path, read) => read.text);
		try {
			store.refresh();
			expect(texts.get("Notes/a.md")).toBe("old");
			write("Notes/a.md", "new text");
			// Before the old watcher's event is read: walking Notes again closes that watcher with the event in it.
			store.check("Notes");
			expect(texts.get("Notes/a.md")).toBe("new text");
		} finally {
			texts.dispose();
			store.dispose();
		}
	});

	it("glances at a note without taking its stamp: nothing known of it changes, and the next read takes it", () => {
		const large = `${"x".repeat(600 * 1024)}end`;
		const { root, write } = folder({ "a.md": "café [[b]]", "large.md": large, "empty.md": "" });
		const store = new FolderNoteStore({ root, watch: false });
		const changed: string[] = [];
		store.onNoteChanged((path) => changed.push(path));
		store.refresh();
		changed.length = 0;
		try {
			const bytes = (path: string): string | undefined =>
				store.glance(
					path,
					(read) => `text:${read.text}`,
					(lent) => `bytes:${lent.toString("utf8")}`,
				);
			expect(bytes("a.md")).toBe("bytes:café [[b]]");
			// Larger than the buffer one read fills: read on to its end.
			expect(bytes("large.md")).toBe(`bytes:${large}`);
			expect(bytes("empty.md")).toBe("bytes:");
			expect(bytes("missing.md")).toBeUndefined();
			expect([store.stampOf("a.md"), store.stampOf("large.md")]).toEqual([undefined, undefined]);
			write("a.md", "changed");
			expect(bytes("a.md")).toBe("bytes:changed");
			expect(changed).toEqual([]);
			// A text a reader left in the store is looked at as it is.
			expect(store.text("a.md")).toBe("changed");
			expect(store.stampOf("a.md")).toBeDefined();
			expect(bytes("a.md")).toBe("text:changed");
		} finally {
			store.dispose();
		}
	});

	it("has a change version that moves with any change it watches, and says which paths every watched folder covers", async () => {
		const { root } = folder({ "a.md": "a", "Sub/Deep/b.md": "b", ".hidden/c.md": "c" });
		const store = new FolderNoteStore({ root, watch: true });
		try {
			expect(store.changeVersion).toBeUndefined();
			expect(store.watchesWayTo("a.md")).toBe(false);
			store.refresh();
			expect([
				store.watchesWayTo("a.md"),
				store.watchesWayTo("Sub/Deep/b.md"),
				store.watchesWayTo("Sub/Deep/new.md"),
			]).toEqual([true, true, true]);
			// A hidden folder is not walked, so not watched; nor is a folder that is not there.
			expect([store.watchesWayTo(".hidden/c.md"), store.watchesWayTo("Missing/x.md")]).toEqual([false, false]);
			const before = store.changeVersion;
			writeFileSync(join(root, "Sub", "Deep", "b.md"), "b, again");
			await waitUntil(() => store.changeVersion !== before, "the watcher to report Sub/Deep/b.md", {
				timeoutMs: 20_000,
			});
		} finally {
			store.dispose();
		}
		expect(store.changeVersion).toBeUndefined();
		expect(store.watchesWayTo("a.md")).toBe(false);
	});

	it("tells when an entry of the vault's top changes, hidden ones included, and says nothing it cannot know", async () => {
		const { root } = folder({ "a.md": "a", "Sub/b.md": "b" });
		const store = new FolderNoteStore({ root, watch: true });
		const unwatched = new FolderNoteStore({ root, watch: false });
		try {
			// Nothing watches the top before the first listing, nor without a watcher: no version to trust.
			expect(store.topLevelVersion).toBeUndefined();
			store.refresh();
			unwatched.refresh();
			expect(unwatched.topLevelVersion).toBeUndefined();
			const listed = store.topLevelVersion;
			expect(listed).toBe(0);
			// A config folder appearing is what the privacy settings need to hear of (the store itself skips it).
			mkdirSync(join(root, ".new-config"));
			await waitUntil(() => store.topLevelVersion !== listed, "the watcher to report .new-config", {
				timeoutMs: 20_000,
			});
			store.refresh();
			expect(store.notePaths()).toEqual(["Sub/b.md", "a.md"]);
			// A change below the top is not a change of the top.
			const afterConfig = store.topLevelVersion;
			writeFileSync(join(root, "Sub", "c.md"), "c");
			await waitUntil(
				() => {
					store.refresh();
					return store.isNote("Sub/c.md");
				},
				"the watcher to report Sub/c.md",
				{ timeoutMs: 20_000 },
			);
			expect(store.topLevelVersion).toBe(afterConfig);
		} finally {
			store.dispose();
			unwatched.dispose();
		}
		expect(store.topLevelVersion).toBeUndefined();
	});
});

describe("comparePaths", () => {
	it("orders by code unit, capitals before small letters, whatever the locale", () => {
		expect(["b", "a", "B", "é", "A/x"].sort(comparePaths)).toEqual(["A/x", "B", "a", "b", "é"]);
		expect(comparePaths("x", "x")).toBe(0);
	});
});
