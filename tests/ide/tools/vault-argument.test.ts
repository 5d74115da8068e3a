import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FILE_PATH_ONLY_SCHEMA, requiredVaultPath } from "../../../src/ide/tools/vault-argument";
import { ToolArgumentError } from "../../../src/protocol/tool-arguments";
import { makeToolVault } from "./ide-tool-fixture";

const vault = makeToolVault({ "Folder/note.md": "x" });
afterAll(() => vault.remove());

describe("requiredVaultPath", () => {
	it("resolves a relative path, an absolute path and a file:// URI to the same place in the vault", () => {
		const absolute = join(vault.root, "Folder", "note.md");
		for (const filePath of ["Folder/note.md", absolute, pathToFileURL(absolute).href]) {
			expect(requiredVaultPath(vault.paths, { filePath }, "filePath", "openFile")).toEqual({
				relative: "Folder/note.md",
				absolute,
			});
		}
	});

	it("turns a path outside the vault into a ToolArgumentError naming the tool", () => {
		const attempt = (): unknown =>
			requiredVaultPath(vault.paths, { filePath: "/etc/passwd" }, "filePath", "openFile");
		expect(attempt).toThrow(ToolArgumentError);
		expect(attempt).toThrow("openFile: Path is outside the vault: /etc/passwd");
	});

	it("turns a missing argument into a ToolArgumentError", () => {
		expect(() => requiredVaultPath(vault.paths, {}, "filePath", "saveDocument")).toThrow(
			new ToolArgumentError('saveDocument: "filePath" is required and must be a string'),
		);
	});
});

describe("FILE_PATH_ONLY_SCHEMA", () => {
	it("requires filePath and allows nothing else", () => {
		expect(FILE_PATH_ONLY_SCHEMA).toMatchObject({
			type: "object",
			required: ["filePath"],
			additionalProperties: false,
		});
		expect(Object.keys(FILE_PATH_ONLY_SCHEMA.properties as object)).toEqual(["filePath"]);
	});
});
