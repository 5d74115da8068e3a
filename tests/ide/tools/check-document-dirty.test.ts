import { join } from "node:path";
import { createCheckDocumentDirtyTool } from "../../../src/ide/tools/check-document-dirty";
import { callTool, FakeWorkspace, jsonOf, makeToolVault } from "./ide-tool-fixture";

const vault = makeToolVault({ "note.md": "# Note\n" });
afterAll(() => vault.remove());

describe("checkDocumentDirty", () => {
	it("answers whether an open note has unsaved changes, naming it by its absolute path", async () => {
		const workspace = new FakeWorkspace();
		workspace.dirty.set("note.md", true);
		const tool = createCheckDocumentDirtyTool({ paths: vault.paths, workspace });
		expect(jsonOf(await callTool(tool, { filePath: "note.md" }))).toEqual({
			success: true,
			filePath: join(vault.root, "note.md"),
			isDirty: true,
			isUntitled: false,
		});
		workspace.dirty.set("note.md", false);
		expect(jsonOf(await callTool(tool, { filePath: join(vault.root, "note.md") }))).toMatchObject({
			success: true,
			isDirty: false,
		});
	});

	it("says a note that is not open is not open, without an error result", async () => {
		const tool = createCheckDocumentDirtyTool({ paths: vault.paths, workspace: new FakeWorkspace() });
		expect(jsonOf(await callTool(tool, { filePath: "note.md" }))).toEqual({
			success: false,
			message: `Document not open: ${join(vault.root, "note.md")}`,
		});
	});

	it("answers a missing filePath or a path outside the vault as an error result", async () => {
		const tool = createCheckDocumentDirtyTool({ paths: vault.paths, workspace: new FakeWorkspace() });
		expect(await callTool(tool, {})).toEqual({
			isError: true,
			content: [{ type: "text", text: 'checkDocumentDirty: "filePath" is required and must be a string' }],
		});
		const outside = await callTool(tool, { filePath: "../elsewhere.md" });
		expect(outside.isError).toBe(true);
		expect(outside.content[0]?.text).toBe("checkDocumentDirty: Path is outside the vault: ../elsewhere.md");
	});
});
