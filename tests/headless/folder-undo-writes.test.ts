import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/journal/content-hash";
import { folderUndoWrites, TRASH_FOLDER } from "../../src/headless/folder-undo-writes";
import { makeTempDir } from "../helpers/temp-dir";

describe("folderUndoWrites", () => {
	let temp: ReturnType<typeof makeTempDir> | undefined;
	afterEach(() => temp?.remove());

	it("writes exact bytes only over the expected ones", async () => {
		temp = makeTempDir("undo-writes");
		writeFileSync(join(temp.path, "n.md"), "now");
		const writes = folderUndoWrites(temp.path);
		const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0xe9]);
		await expect(writes.writeBytes("n.md", bytes, contentHash(Buffer.from("other")))).rejects.toThrow(
			/changed since it was read/,
		);
		expect(readFileSync(join(temp.path, "n.md"), "utf8")).toBe("now");
		await writes.writeBytes("n.md", bytes, contentHash(Buffer.from("now")));
		expect(readFileSync(join(temp.path, "n.md")).equals(bytes)).toBe(true);
	});

	it("moves a note to .trash under a free name, never over one there", async () => {
		temp = makeTempDir("undo-trash");
		mkdirSync(join(temp.path, "A"));
		mkdirSync(join(temp.path, "B"));
		writeFileSync(join(temp.path, "A", "n.md"), "first");
		writeFileSync(join(temp.path, "B", "n.md"), "second");
		const writes = folderUndoWrites(temp.path);
		await writes.trash("A/n.md");
		await writes.trash("B/n.md");
		expect(readdirSync(join(temp.path, TRASH_FOLDER)).sort()).toEqual(["n 2.md", "n.md"]);
		expect(readFileSync(join(temp.path, TRASH_FOLDER, "n.md"), "utf8")).toBe("first");
		expect(readdirSync(join(temp.path, "A"))).toEqual([]);
	});

	it("refuses a note reached through a linked folder", async () => {
		temp = makeTempDir("undo-trash-link");
		const outside = join(temp.path, "outside");
		const vault = join(temp.path, "vault");
		mkdirSync(outside);
		mkdirSync(vault);
		writeFileSync(join(outside, "n.md"), "outside");
		symlinkSync(outside, join(vault, "L"));
		await expect(folderUndoWrites(vault).trash("L/n.md")).rejects.toThrow(/symbolic link/);
		expect(readFileSync(join(outside, "n.md"), "utf8")).toBe("outside");
	});

	it("refuses to trash a path out of the vault, as a planted record names it, and moves nothing", async () => {
		temp = makeTempDir("undo-trash-outside");
		const vault = join(temp.path, "vault");
		mkdirSync(vault);
		mkdirSync(join(temp.path, "outside"));
		writeFileSync(join(temp.path, "outside", "victim.md"), "mine");
		await expect(folderUndoWrites(vault).trash("../outside/victim.md")).rejects.toThrow(
			"Refused: ../outside/victim.md is not a path inside the vault; nothing was moved to the trash",
		);
		expect(readFileSync(join(temp.path, "outside", "victim.md"), "utf8")).toBe("mine");
		expect(readdirSync(vault)).toEqual([]);
	});
});
