import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { makeVault, type VaultFixture } from "../vault-fixture";

/** Every note's link targets in document order (undefined = unresolved), as a fresh index of the folder sees them. */
async function linkTargets(root: string): Promise<Map<string, (string | undefined)[]>> {
	const index = new FolderVaultIndex({ root, watch: false });
	try {
		await index.refresh();
		const result = new Map<string, (string | undefined)[]>();
		for (const path of index.notePaths())
			result.set(
				path,
				(index.facts(path)?.links ?? []).map((link) => link.target),
			);
		return result;
	} finally {
		index.dispose();
	}
}

const LINKING = [
	"[[Target Note]] and [[Target Note|shown]] and [[Target Note#Part]] and [[Target Note#^blk|b]]",
	"![[Target Note]] and [[Folder/Target Note]] and [[Target Note.md]]",
	"| table | [[Target Note\\|alias]] |",
	"[md](Folder/Target%20Note.md) and [angle](<Folder/Target Note.md>) and [rel](../Folder/Target%20Note.md#Part)",
	"`[[Target Note]]` stays",
	"```",
	"[[Target Note]] in a fence stays",
	"```",
	"[[New Name]] leads to the other note with that name",
].join("\n");

describe("move_note", () => {
	let vault: VaultFixture;
	beforeEach(() => {
		vault = makeVault({
			"Folder/Target Note.md":
				"# Target\n\n## Part\n\nText ^blk\n\nOwn links: [[Sibling]] and [s](Sibling.md) and [[#Part]]\n",
			"Folder/Sibling.md": "# Sibling in Folder\n\n[here](./Target%20Note.md)\n",
			"Archive/Sibling.md": "# Sibling in Archive\n",
			"Elsewhere/New Name.md": "# The other New Name\n",
			"Other/Linker.md": `${LINKING}\n`,
			"Root.md": "[[Target Note]] from the root\n",
			"Props.md": '---\nrelated: "[[Target Note]]"\nlist:\n  - "[[Target Note|t]]"\n---\nBody\n',
		});
	});
	afterEach(() => vault?.dispose());

	it("rewrites every link form so that every link leads where it led before, never inside code", async () => {
		const before = await linkTargets(vault.root);
		const answer = await vault.call("move_note", { path: "Target Note", to: "Archive/New Name" });
		expect(answer.isError).toBe(false);
		expect(answer.text).toMatch(
			/^Moved Folder\/Target Note\.md to Archive\/New Name\.md; updated 18 links in 5 notes\./,
		);
		const after = await linkTargets(vault.root);
		const renamed = (path: string | undefined): string | undefined =>
			path === "Folder/Target Note.md" ? "Archive/New Name.md" : path;
		expect(after.get("Archive/New Name.md")).toEqual(before.get("Folder/Target Note.md")?.map(renamed));
		for (const [path, targets] of before) {
			if (path === "Folder/Target Note.md") continue;
			expect({ path, targets: after.get(path) }).toEqual({ path, targets: targets.map(renamed) });
		}
		const linker = vault.read("Other/Linker.md");
		expect(linker).toContain("`[[Target Note]]` stays");
		expect(linker).toContain("[[Target Note]] in a fence stays");
		// The shortest spelling that leads to the note: its name, now the shortest path with that name.
		expect(linker).toContain("[[New Name|shown]]");
		expect(linker).toContain("[[New Name#^blk|b]]");
		expect(linker).toContain("[[New Name\\|alias]]");
		expect(linker).toContain("[angle](<Archive/New Name.md>)");
		expect(linker).toContain("[md](Archive/New%20Name.md)");
		expect(linker).toContain("[[Elsewhere/New Name]] leads to the other note");
		expect(vault.read("Archive/New Name.md")).toContain("[[Folder/Sibling]]");
		expect(vault.read("Props.md")).toBe('---\nrelated: "[[New Name]]"\nlist:\n  - "[[New Name|t]]"\n---\nBody\n');
		// 12 links in Linker (the two in code are not links), 1 in Root, 1 in Folder/Sibling, 2 of the note's own.
		expect(answer.text.split("\n").slice(1).sort()).toEqual([
			"Archive/New Name.md: 2",
			"Folder/Sibling.md: 1",
			"Other/Linker.md: 12",
			"Props.md: 2",
			"Root.md: 1",
		]);
	});

	it("refuses a folder as the destination instead of guessing a name", async () => {
		expect((await vault.call("move_note", { path: "Root", to: "Archive/" })).text).toMatch(
			/must name a note, not a folder: Archive\/ \(give the full path, e\.g\. "Archive\/Name\.md"\)/,
		);
		expect((await vault.call("move_note", { path: "Root", to: "Archive" })).text).toMatch(/names a folder/);
		expect(vault.read("Root.md")).toBe("[[Target Note]] from the root\n");
	});

	it("refuses a destination that exists and a note that does not, changing nothing", async () => {
		expect((await vault.call("move_note", { path: "Root", to: "Folder/Sibling.md" })).text).toMatch(
			/already exists/,
		);
		expect((await vault.call("move_note", { path: "Nope", to: "X" })).text).toMatch(/No note "Nope"/);
		expect(vault.read("Root.md")).toBe("[[Target Note]] from the root\n");
	});

	it("keeps backlinks working through the links tool after a move", async () => {
		await vault.call("move_note", { path: "Root", to: "Deep/Down/Root moved" });
		const links = await vault.call("links", { path: "Archive/Sibling.md", direction: "in" });
		expect(links.text).toMatch(/^Archive\/Sibling\.md: 0 backlinks/);
		const target = await vault.call("links", { path: "Target Note", direction: "in" });
		expect(target.text).toMatch(/in Deep\/Down\/Root moved\.md:1: \[\[Target Note\]\] from the root/);
	});
});
