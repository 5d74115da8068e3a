import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findConfigFolders } from "../../../src/ide/claude-permissions/config-folders";
import { makeTempDir } from "../../helpers/temp-dir";

const temp = makeTempDir("config-folders");
afterAll(() => temp.remove());

describe("findConfigFolders", () => {
	it("finds every top-level dot folder holding app.json or plugins, whatever its name, sorted", async () => {
		const root = temp.path;
		mkdirSync(join(root, ".work-config", "plugins"), { recursive: true });
		mkdirSync(join(root, ".phone-config"));
		writeFileSync(join(root, ".phone-config", "app.json"), "{}");
		mkdirSync(join(root, ".git", "objects"), { recursive: true });
		mkdirSync(join(root, ".trash", "plugins"), { recursive: true });
		mkdirSync(join(root, "Visible", "plugins"), { recursive: true });
		writeFileSync(join(root, ".app.json-file"), "");
		expect(await findConfigFolders(root)).toEqual([".phone-config", ".work-config"]);
	});

	it("answers none for a folder that cannot be read", async () => {
		expect(await findConfigFolders(join(temp.path, "missing"))).toEqual([]);
	});
});
