import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderFiles } from "../../../src/vault/folder/folder-files";
import { FolderNoteStore } from "../../../src/vault/folder/folder-note-store";
import { makeTempDir } from "../../helpers/temp-dir";

describe("FolderFiles: the IDE's files from the folder's one store", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let store: FolderNoteStore;
	beforeEach(() => {
		temp = makeTempDir("folder-files");
		mkdirSync(join(temp.path, "Sub"));
		mkdirSync(join(temp.path, ".config-dir"));
		writeFileSync(join(temp.path, "Sub/a.md"), "alpha");
		writeFileSync(join(temp.path, "pic.png"), Buffer.from([1, 2, 3]));
		writeFileSync(join(temp.path, ".config-dir/app.json"), "{}");
		symlinkSync(join(temp.path, "Sub/a.md"), join(temp.path, "link.md"));
		store = new FolderNoteStore({ root: temp.path, watch: false });
	});
	afterEach(() => {
		store?.dispose();
		temp?.remove();
	});

	it("lists every file with its size, hidden names and symbolic links left out, refreshing the store first", () => {
		const files = new FolderFiles(store);
		expect(files.list().sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
			{ path: "Sub/a.md", size: 5 },
			{ path: "pic.png", size: 3 },
		]);
		writeFileSync(join(temp.path, "new.md"), "n");
		expect(files.list().map((entry) => entry.path)).toContain("new.md");
	});

	it("stats files only, and reads bytes and text from disk as they are now", async () => {
		const files = new FolderFiles(store);
		expect(await files.stat("pic.png")).toEqual({ size: 3 });
		expect(await files.stat("Sub")).toBeUndefined();
		expect(await files.stat("missing.md")).toBeUndefined();
		expect([...(await files.readBytes("pic.png"))]).toEqual([1, 2, 3]);
		writeFileSync(join(temp.path, "Sub/a.md"), "changed");
		expect(files.readText("Sub/a.md")).toBe("changed");
	});
});
