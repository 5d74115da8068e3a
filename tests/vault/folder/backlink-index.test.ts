import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BacklinkIndex } from "../../../src/vault/folder/backlink-index";
import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { makeTempDir } from "../../helpers/temp-dir";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

/** A folder whose notes name their targets one per line (`-> path`), a store over it, and the index. */
function linkedFolder(files: Record<string, string>) {
	const temp = makeTempDir("backlink-index");
	temps.push(temp);
	const write = (path: string, text: string): void => {
		mkdirSync(join(temp.path, path, ".."), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	const store = new FolderNoteStore({ root: temp.path, watch: false });
	store.refresh();
	const asked: string[] = [];
	let unreadable = new Set<string>();
	const index = new BacklinkIndex(store, (source) => {
		asked.push(source);
		if (unreadable.has(source)) return undefined;
		const text = store.text(source);
		if (text === undefined) return undefined;
		return [
			...new Set(
				text
					.split("\n")
					.filter((line) => line.startsWith("-> "))
					.map((line) => line.slice(3)),
			),
		];
	});
	return {
		store,
		index,
		asked,
		write,
		remove: (path: string) => rmSync(join(temp.path, path)),
		setUnreadable: (paths: string[]) => (unreadable = new Set(paths)),
	};
}

describe("BacklinkIndex", () => {
	it("answers the notes linking to a note, each once, from one pass over the notes", () => {
		const vault = linkedFolder({
			"a.md": "-> hub.md\n-> b.md\n-> hub.md",
			"b.md": "-> hub.md",
			"c.md": "nothing",
			"hub.md": "-> hub.md",
		});
		expect([...vault.index.sourcesOf("hub.md")].sort()).toEqual(["a.md", "b.md", "hub.md"]);
		expect(vault.index.sourcesOf("b.md")).toEqual(["a.md"]);
		expect(vault.index.sourcesOf("c.md")).toEqual([]);
		expect(vault.asked.sort()).toEqual(["a.md", "b.md", "c.md", "hub.md"]);
		vault.asked.length = 0;
		expect(vault.index.sourcesOf("missing.md")).toEqual([]);
		expect(vault.asked).toEqual([]);
	});

	it("follows a changed note by asking for that note's targets alone", () => {
		const vault = linkedFolder({ "a.md": "-> hub.md", "b.md": "-> hub.md", "hub.md": "" });
		expect([...vault.index.sourcesOf("hub.md")].sort()).toEqual(["a.md", "b.md"]);
		vault.asked.length = 0;
		vault.write("a.md", "-> b.md\n(now links elsewhere)");
		vault.store.refresh();
		expect(vault.index.sourcesOf("hub.md")).toEqual(["b.md"]);
		expect(vault.index.sourcesOf("b.md")).toEqual(["a.md"]);
		expect(vault.asked).toEqual(["a.md"]);
	});

	it("builds again when files come or go (a link may lead elsewhere), and forgets a removed note", () => {
		const vault = linkedFolder({ "a.md": "-> hub.md", "b.md": "-> hub.md", "hub.md": "" });
		expect([...vault.index.sourcesOf("hub.md")].sort()).toEqual(["a.md", "b.md"]);
		vault.remove("b.md");
		vault.write("d.md", "-> hub.md");
		vault.store.refresh();
		vault.asked.length = 0;
		expect([...vault.index.sourcesOf("hub.md")].sort()).toEqual(["a.md", "d.md"]);
		expect(vault.asked.sort()).toEqual(["a.md", "d.md", "hub.md"]);
	});

	it("asks again, on every question, for a note whose targets could not be had", () => {
		const vault = linkedFolder({ "a.md": "-> hub.md", "b.md": "-> hub.md", "hub.md": "" });
		vault.setUnreadable(["b.md"]);
		expect(vault.index.sourcesOf("hub.md")).toEqual(["a.md"]);
		vault.asked.length = 0;
		expect(vault.index.sourcesOf("hub.md")).toEqual(["a.md"]);
		expect(vault.asked).toEqual(["b.md"]);
		vault.setUnreadable([]);
		expect([...vault.index.sourcesOf("hub.md")].sort()).toEqual(["a.md", "b.md"]);
	});
});
