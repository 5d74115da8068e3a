import { join } from "node:path";
import { createSaveDocumentTool } from "../../../src/ide/tools/save-document";
import { callTool, FakeWorkspace, jsonOf, makeToolVault } from "./ide-tool-fixture";

const vault = makeToolVault({ "note.md": "# Note\n" });
afterAll(() => vault.remove());
const absolute = join(vault.root, "note.md");

describe("saveDocument", () => {
	it("saves an open note and says so", async () => {
		const workspace = new FakeWorkspace();
		workspace.dirty.set("note.md", true);
		const answer = jsonOf(
			await callTool(createSaveDocumentTool({ paths: vault.paths, workspace }), { filePath: "note.md" }),
		);
		expect(answer).toEqual({
			success: true,
			filePath: absolute,
			saved: true,
			message: "Document saved successfully",
		});
		expect(workspace.saved).toEqual(["note.md"]);
	});

	it("adds the headless host's note to the message", async () => {
		const workspace = new FakeWorkspace("headless: nothing shown");
		workspace.dirty.set("note.md", false);
		const answer = jsonOf(
			await callTool(createSaveDocumentTool({ paths: vault.paths, workspace }), { filePath: absolute }),
		);
		expect(answer).toMatchObject({
			success: true,
			message: "Document saved successfully (headless: nothing shown)",
		});
	});

	it("says a note that is not open is not open", async () => {
		const answer = jsonOf(
			await callTool(createSaveDocumentTool({ paths: vault.paths, workspace: new FakeWorkspace() }), {
				filePath: "note.md",
			}),
		);
		expect(answer).toEqual({ success: false, message: `Document not open: ${absolute}` });
	});

	it("answers a failed save in one line, without throwing", async () => {
		const workspace = new FakeWorkspace();
		workspace.saveFailure = new Error("disk full");
		const answer = jsonOf(
			await callTool(createSaveDocumentTool({ paths: vault.paths, workspace }), { filePath: "note.md" }),
		);
		expect(answer).toEqual({ success: false, message: `Could not save ${absolute}: disk full` });
	});

	it("answers a missing or wrongly typed filePath as an error result", async () => {
		const tool = createSaveDocumentTool({ paths: vault.paths, workspace: new FakeWorkspace() });
		expect((await callTool(tool, {})).content[0]?.text).toBe(
			'saveDocument: "filePath" is required and must be a string',
		);
		expect(await callTool(tool, { filePath: 3 })).toEqual({
			isError: true,
			content: [
				{ type: "text", text: 'saveDocument: "filePath" is required and must be a string, not a number' },
			],
		});
	});
});
