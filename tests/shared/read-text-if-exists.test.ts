import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTextIfExists } from "../../src/shared/read-text-if-exists";
import { makeTempDir } from "../helpers/temp-dir";

const temp = makeTempDir("read-text");
writeFileSync(join(temp.path, "note.md"), "héllo\n");
mkdirSync(join(temp.path, "folder"));
afterAll(() => temp.remove());

describe("readTextIfExists", () => {
	it("reads a file's UTF-8 text", async () => {
		expect(await readTextIfExists(join(temp.path, "note.md"))).toBe("héllo\n");
	});

	it("answers undefined for a missing file, also under a path whose parent is a file", async () => {
		expect(await readTextIfExists(join(temp.path, "missing.md"))).toBeUndefined();
		expect(await readTextIfExists(join(temp.path, "note.md", "child.md"))).toBeUndefined();
	});

	it("throws any other failure, such as reading a folder", async () => {
		await expect(readTextIfExists(join(temp.path, "folder"))).rejects.toMatchObject({ code: "EISDIR" });
	});
});
