import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";

const temp = makeTempDir("tags-reader");
afterAll(() => temp.remove());

const NOTES: Record<string, string> = {
	"a.md": "#open and #shared\n",
	"b.md": "---\ntags: [shared]\n---\nNo body tag.\n",
	"Private/diary.md": "#secret\n",
	".hidden/c.md": "#hidden\n",
};
for (const [path, text] of Object.entries(NOTES)) {
	mkdirSync(join(temp.path, path, ".."), { recursive: true });
	writeFileSync(join(temp.path, path), text);
}

const names = (tags: readonly { tag: string }[] | undefined): string[] | undefined => tags?.map((tag) => tag.tag);

describe("VisibleVault.tagsReader", () => {
	it("reads the tags of the visible notes' own list without deciding each note again, and checks any other list", async () => {
		const index = new FolderVaultIndex({ root: temp.path, watch: false });
		let privateToo = "";
		let decisions = 0;
		const vault = new VisibleVault({
			index,
			paths: new VaultPaths(temp.path),
			isPrivate: (path) => {
				decisions++;
				return path.startsWith("Private/") || path === privateToo;
			},
			// Rules on paths alone (as PrivacyFilter's): a note asked alone is decided alone.
			decisionsKey: () => `rules ${privateToo}`,
		});
		try {
			await vault.refresh();
			const paths = vault.notePaths();
			expect(paths).toEqual(["a.md", "b.md"]);
			const before = decisions;
			const read = vault.tagsReader(paths);
			expect(paths.map((path) => names(read(path)))).toEqual([["open", "shared"], ["shared"]]);
			expect(decisions).toBe(before);

			const other = vault.tagsReader(["a.md", "Private/diary.md", ".hidden/c.md"]);
			expect(names(other("a.md"))).toEqual(["open", "shared"]);
			expect(other("Private/diary.md")).toBeUndefined();
			expect(other(".hidden/c.md")).toBeUndefined();

			// The list decided again (b.md private now): a reader made for the old list checks each path.
			privateToo = "b.md";
			await vault.refresh();
			expect(read("b.md")).toBeUndefined();
			expect(names(read("a.md"))).toEqual(["open", "shared"]);
		} finally {
			index.dispose();
		}
	});
});
