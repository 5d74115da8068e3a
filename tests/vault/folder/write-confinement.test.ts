import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { makeTempDir } from "../../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";

/**
 * The folder adapter checks confinement when it writes, not only when a tool located the note: a folder of the
 * vault replaced by a symbolic link between the tool's check and the write (a review can take minutes) makes
 * the write fail, and nothing lands outside the vault.
 */
describe("FolderVaultIndex writes only into real folders of the vault, checked at write time", () => {
	let temp: { path: string; remove: () => void };
	let root: string;
	let outside: string;
	let index: FolderVaultIndex;

	const write = (path: string, text: string): void => {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	};
	/** Replaces the vault folder `folder` with a symbolic link to `target` (the folder itself is kept, moved away). */
	const swapForLink = (folder: string, target: string): void => {
		renameSync(join(root, folder), join(temp.path, `moved-${folder.replace(/\//g, "-")}`));
		symlinkSync(target, join(root, folder));
	};
	const listing = (folder: string): string[] => readdirSync(folder).sort();

	beforeEach(async () => {
		temp = makeTempDir("write-confinement");
		root = join(temp.path, "vault");
		outside = join(temp.path, "outside");
		mkdirSync(root);
		mkdirSync(outside);
		write("Drop/Keep.md", "# Keep\n");
		write("Notes/A.md", "# A\n");
		write("Notes/B.md", "See [[A]].\n");
		index = new FolderVaultIndex({ root, watch: false });
		await index.refresh();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => {
		index?.dispose();
		temp?.remove();
	});

	it("createNote refuses a folder that became a symbolic link leading out of the vault", async () => {
		swapForLink("Drop", outside);
		await expect(index.createNote("Drop/evil.md", "payload")).rejects.toThrow(
			/Drop is a symbolic link.*nothing was written/,
		);
		expect(listing(outside)).toEqual([]);
	});

	it("createNote refuses a link anywhere on the way, and creates missing folders one by one", async () => {
		mkdirSync(join(root, "Deep"));
		swapForLink("Deep", outside);
		await expect(index.createNote("Deep/New/Er/evil.md", "payload")).rejects.toThrow(/Deep is a symbolic link/);
		expect(listing(outside)).toEqual([]);
		await index.createNote("Fresh/One/Two/note.md", "# N\n");
		expect(readFileSync(join(root, "Fresh/One/Two/note.md"), "utf8")).toBe("# N\n");
	});

	it("writeText refuses a folder swapped for a link to a byte-identical copy outside, which stays unchanged", async () => {
		writeFileSync(join(outside, "A.md"), "# A\n");
		swapForLink("Notes", outside);
		await expect(index.writeText("Notes/A.md", "# A\nchanged\n", "# A\n")).rejects.toThrow(
			/Notes is a symbolic link.*nothing was written/,
		);
		expect(listing(outside)).toEqual(["A.md"]);
		expect(readFileSync(join(outside, "A.md"), "utf8")).toBe("# A\n");
	});

	it("writeText refuses a note that became a symbolic link to a file outside", async () => {
		writeFileSync(join(outside, "target.md"), "# A\n");
		renameSync(join(root, "Notes/A.md"), join(temp.path, "A-moved.md"));
		symlinkSync(join(outside, "target.md"), join(root, "Notes/A.md"));
		await expect(index.writeText("Notes/A.md", "# A\nchanged\n", "# A\n")).rejects.toThrow(
			/Notes\/A\.md is a symbolic link/,
		);
		expect(readFileSync(join(outside, "target.md"), "utf8")).toBe("# A\n");
		expect(listing(outside)).toEqual(["target.md"]);
	});

	it("renameNote refuses a destination folder swapped for a link out, and leaves the note where it was", async () => {
		swapForLink("Drop", outside);
		await expect(index.renameNote("Notes/A.md", "Drop/A.md")).rejects.toThrow(
			/Drop is a symbolic link.*nothing was written/,
		);
		expect(listing(outside)).toEqual([]);
		expect(readFileSync(join(root, "Notes/A.md"), "utf8")).toBe("# A\n");
		expect(readFileSync(join(root, "Notes/B.md"), "utf8")).toBe("See [[A]].\n");
	});

	it("renameNote refuses a source note whose folder became a link", async () => {
		writeFileSync(join(outside, "A.md"), "# A\n");
		swapForLink("Notes", outside);
		await expect(index.renameNote("Notes/A.md", "Drop/A.md")).rejects.toThrow(/Notes is a symbolic link/);
		expect(listing(outside)).toEqual(["A.md"]);
		expect(listing(join(root, "Drop"))).toEqual(["Keep.md"]);
	});

	it("leaves no temporary file behind, in the vault or outside, after a refused write", async () => {
		swapForLink("Drop", outside);
		await expect(index.createNote("Drop/evil.md", "payload")).rejects.toThrow();
		await expect(index.writeText("Notes/A.md", "# A\nchanged\n", "# A\n")).resolves.toBeUndefined();
		expect(listing(join(root, "Notes"))).toEqual(["A.md", "B.md"]);
		expect(listing(outside)).toEqual([]);
	});
});
