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

	it("answers every listed note's search text in list order, again without lookups until a note changes", () => {
		const temp = makeTempDir("slabs-aligned");
		const store = new FolderNoteStore({ root: temp.path, watch: false });
		const texts = new SearchTextSlabs(store);
		try {
			writeFileSync(join(temp.path, "A.md"), "Alpha\n");
			writeFileSync(join(temp.path, "B.md"), "Beta\n");
			store.refresh();
			const paths = ["B.md", "A.md"];
			const first = texts.aligned(paths);
			expect(first.map((text) => text?.toString())).toEqual(["beta\n", "alpha\n"]);
			expect(texts.aligned(paths)).toBe(first);
			// Another list with the same paths is another question.
			expect(texts.aligned([...paths])).not.toBe(first);

			const again = texts.aligned(paths);
			writeFileSync(join(temp.path, "A.md"), "Alpha, changed\n");
			store.refresh();
			const changed = texts.aligned(paths);
			expect(changed).not.toBe(again);
			expect(changed.map((text) => text?.toString())).toEqual(["beta\n", "alpha, changed\n"]);

			// A path that cannot be read is asked again next time (as `get` is), so that answer is not kept.
			const withMissing = ["A.md", "Missing.md"];
			const missing = texts.aligned(withMissing);
			expect(missing[1]).toBeUndefined();
			expect(texts.aligned(withMissing)).not.toBe(missing);
			writeFileSync(join(temp.path, "Missing.md"), "Found\n");
			store.refresh();
			expect(texts.aligned(withMissing)[1]?.toString()).toBe("found\n");
		} finally {
			texts.dispose();
			store.dispose();
			temp.remove();
		}
	});
});
