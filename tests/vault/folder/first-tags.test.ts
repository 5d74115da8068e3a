import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { makeNoteFolder } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

const NOTES: Record<string, string> = {
	"a.md": "---\ntitle: A\ncreated: 2024-01-02\n---\n# A\n\nFiled under #heavy and #status/someday.\n",
	"b.md": "---\ntags: [project, Heavy]\n---\nBody #inline\n```\n#code\n```\n",
	"c.md": "No tags, a [[a#Heading]] link.\n",
	"d.md": "%% #hidden %%\n#shown\n",
	"Sub/e.md": "---\r\ntags: x\r\n---\r\n#crlf\r\n",
};

function folder(notes: Record<string, string>) {
	const made = makeNoteFolder("first-tags", notes);
	temps.push(made);
	return made;
}

const tagNames = (index: FolderVaultIndex, path: string): string[] | undefined =>
	index.tagsOf(path)?.map((tag) => `${tag.tag}:${tag.line}`);

describe("a vault's first tags (notes unread)", () => {
	it("watching, glances at each note: the tags read with stamps, but no stamp taken and nothing else kept", async () => {
		const { root } = folder(NOTES);
		const store = new FolderNoteStore({ root, watch: true });
		const first = new FolderVaultIndex(store);
		const warmed = new FolderVaultIndex({ root, watch: false });
		try {
			await first.refresh();
			await warmed.refresh();
			for (const path of first.notePaths()) {
				expect(tagNames(first, path)).toEqual(tagNames(warmed, path));
				expect(store.stampOf(path)).toBeUndefined();
			}
			expect(tagNames(first, "b.md")).toEqual(["project:1", "Heavy:1", "inline:3"]);
			expect(first.glancedNotes).toBe(5);
			// The warm-up's reading (with stamps) takes over from the glance.
			first.warmNote("a.md");
			expect(store.stampOf("a.md")).toBeDefined();
			expect(first.glancedNotes).toBe(4);
			expect(tagNames(first, "a.md")).toEqual(tagNames(warmed, "a.md"));
		} finally {
			first.dispose();
			warmed.dispose();
			store.dispose();
		}
	});

	it("watching, gives a note's new tags once the watcher reports it changed after the glance", async () => {
		const { root, write } = folder(NOTES);
		const index = new FolderVaultIndex({ root, watch: true });
		try {
			await index.refresh();
			expect(tagNames(index, "c.md")).toEqual([]);
			write("c.md", "Now #tagged, a longer text than before.\n");
			await waitUntil(
				async () => {
					await index.refresh();
					return tagNames(index, "c.md")?.join() === "tagged:0";
				},
				"the tag written into c.md to be found",
				{ timeoutMs: 20_000 },
			);
		} finally {
			index.dispose();
		}
	});

	it("without a watcher, reads each note with its stamp (only a stamp tells it changed)", async () => {
		const { root, write } = folder(NOTES);
		const store = new FolderNoteStore({ root, watch: false });
		const index = new FolderVaultIndex(store);
		try {
			await index.refresh();
			expect(tagNames(index, "c.md")).toEqual([]);
			expect(store.stampOf("c.md")).toBeDefined();
			expect(index.glancedNotes).toBe(0);
			write("c.md", "Now #tagged, a longer text than before.\n");
			await index.refresh();
			expect(tagNames(index, "c.md")).toEqual(["tagged:0"]);
		} finally {
			index.dispose();
			store.dispose();
		}
	});
});
