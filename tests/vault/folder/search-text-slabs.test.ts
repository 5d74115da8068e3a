import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { SearchTextSlabs } from "../../../src/vault/folder/search-text-slabs";
import { searchTextOf } from "../../../src/vault/notes/search-text";
import { makeTempDir } from "../../helpers/temp-dir";

describe("SearchTextSlabs", () => {
	it("keeps every note's current search text while notes change and their old texts are moved out of mostly wasted buffers", () => {
		const temp = makeTempDir("slabs");
		const store = new FolderNoteStore({ root: temp.path, watch: false });
		const texts = new SearchTextSlabs(store);
		try {
			const notes: Record<string, string> = {
				"A.md": "Alpha Ünïcode 😀 İstanbul\r\nline two\n",
				"C.md": "# C\n\nSmall NOTE.\n",
				// Plain ASCII is lower-cased from its bytes, without decoding it: the same search text.
				"D.md": "Plain ASCII\r\nWith a CR\rAnd UPPER case [[Links]] #Tags\n",
			};
			for (const [path, text] of Object.entries(notes)) writeFileSync(join(temp.path, path), text);
			store.refresh();
			for (const path of Object.keys(notes)) texts.get(path);
			// A big note written again and again: each old text becomes waste; buffers fill up and get compacted.
			for (let round = 0; round < 14; round++) {
				notes["B.md"] = `Round ${round} ${"Big Words ".repeat(70_000)}`;
				writeFileSync(join(temp.path, "B.md"), notes["B.md"]);
				store.refresh();
				for (const [path, text] of Object.entries(notes))
					expect(texts.get(path)?.equals(searchTextOf(text))).toBe(true);
			}
		} finally {
			texts.dispose();
			store.dispose();
			temp.remove();
		}
	});

	/** What `forEach` gives for each position, as text (a lent buffer is copied out during the call). */
	function walk(texts: SearchTextSlabs, paths: readonly string[]): { texts: string[]; buffers: Buffer[] } {
		const found: string[] = [];
		const buffers: Buffer[] = [];
		texts.forEach(paths, (position, text) => {
			found[position] = text.toString();
			buffers[position] = text;
		});
		return { texts: found, buffers };
	}

	it("goes over every listed note's search text in list order, lending the ones not kept without keeping them", () => {
		const temp = makeTempDir("slabs-for-each");
		const store = new FolderNoteStore({ root: temp.path, watch: false });
		const texts = new SearchTextSlabs(store);
		try {
			writeFileSync(join(temp.path, "A.md"), "Alpha\r\nTwo\n");
			writeFileSync(join(temp.path, "B.md"), "Beta Ünïcode İ\n");
			writeFileSync(join(temp.path, "C.md"), "Gamma\n");
			store.refresh();
			texts.get("C.md");
			const paths = ["B.md", "A.md", "C.md", "Missing.md"];
			const lent = walk(texts, paths);
			expect(lent.texts).toEqual([searchTextOf("Beta Ünïcode İ\n").toString(), "alpha\n\ntwo\n", "gamma\n"]);
			// Lent texts share one buffer, used again for the next note; a kept text is its own.
			expect(lent.buffers[0]?.buffer).toBe(lent.buffers[1]?.buffer);
			expect(lent.buffers[2]).toBe(texts.get("C.md"));
			// Lending kept nothing: `get` makes the text to keep.
			expect(texts.get("A.md")).not.toBe(lent.buffers[1]);
			expect(texts.get("A.md")?.toString()).toBe("alpha\n\ntwo\n");
		} finally {
			texts.dispose();
			store.dispose();
			temp.remove();
		}
	});

	it("goes over the same kept texts again without lookups until a note changes", () => {
		const temp = makeTempDir("slabs-aligned");
		const store = new FolderNoteStore({ root: temp.path, watch: false });
		const texts = new SearchTextSlabs(store);
		try {
			writeFileSync(join(temp.path, "A.md"), "Alpha\n");
			writeFileSync(join(temp.path, "B.md"), "Beta\n");
			store.refresh();
			const paths = ["B.md", "A.md"];
			for (const path of paths) texts.get(path);
			expect(walk(texts, paths).texts).toEqual(["beta\n", "alpha\n"]);
			// The second time over the same array answers from the array kept: a path's text is not looked up.
			const shelf = (texts as unknown as { shelf: { get(path: string): Buffer | undefined } }).shelf;
			const lookup = jest.spyOn(shelf, "get");
			expect(walk(texts, paths).texts).toEqual(["beta\n", "alpha\n"]);
			expect(lookup).not.toHaveBeenCalled();
			// Another list with the same paths is another question.
			walk(texts, [...paths]);
			expect(lookup).toHaveBeenCalled();

			writeFileSync(join(temp.path, "A.md"), "Alpha, changed\n");
			store.refresh();
			expect(walk(texts, paths).texts).toEqual(["beta\n", "alpha, changed\n"]);

			// A path that cannot be read is asked again next time.
			const withMissing = ["A.md", "Missing.md"];
			expect(walk(texts, withMissing).texts).toEqual(["alpha, changed\n"]);
			writeFileSync(join(temp.path, "Missing.md"), "Found\n");
			store.refresh();
			expect(walk(texts, withMissing).texts).toEqual(["alpha, changed\n", "found\n"]);
		} finally {
			texts.dispose();
			store.dispose();
			temp.remove();
		}
	});
});
