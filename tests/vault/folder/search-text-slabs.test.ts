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
			const notes: Record<string, string> = { "A.md": "Alpha Ünïcode 😀 İstanbul\r\nline two\n", "C.md": "# C\n\nSmall NOTE.\n" };
			for (const [path, text] of Object.entries(notes)) writeFileSync(join(temp.path, path), text);
			store.refresh();
			for (const path of Object.keys(notes)) texts.get(path);
			// A big note written again and again: each old text becomes waste; buffers fill up and get compacted.
			for (let round = 0; round < 14; round++) {
				notes["B.md"] = `Round ${round} ${"Big Words ".repeat(70_000)}`;
				writeFileSync(join(temp.path, "B.md"), notes["B.md"]);
				store.refresh();
				for (const [path, text] of Object.entries(notes)) expect(texts.get(path)?.equals(searchTextOf(text))).toBe(true);
			}
		} finally {
			texts.dispose();
			store.dispose();
			temp.remove();
		}
	});
});
