import { join } from "node:path";
import { createOpenFileTool } from "../../../src/ide/tools/open-file";
import { callTool, FakeWorkspace, makeToolVault } from "./ide-tool-fixture";

const NOTE = "# Note\n\nOld words here.\r\nLast line";
const vault = makeToolVault({ "note.md": NOTE });
afterAll(() => vault.remove());
const absolute = join(vault.root, "note.md");

function setup(headlessNote?: string) {
	const workspace = new FakeWorkspace(headlessNote);
	return { workspace, tool: createOpenFileTool({ paths: vault.paths, workspace }) };
}

describe("openFile", () => {
	it("opens the note in front and answers plain text", async () => {
		const { workspace, tool } = setup();
		expect(await callTool(tool, { filePath: "note.md" })).toEqual({
			content: [{ type: "text", text: `Opened file: ${absolute}` }],
		});
		expect(workspace.opened).toEqual([
			{
				target: { relative: "note.md", absolute },
				options: { selection: undefined, preview: false, makeFrontmost: true },
			},
		]);
	});

	it("selects from startText to the end of endText after it", async () => {
		const { workspace, tool } = setup();
		await callTool(tool, { filePath: "note.md", startText: "Old", endText: "here", preview: true });
		expect(workspace.opened[0]?.options).toEqual({
			selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 14 } },
			preview: true,
			makeFrontmost: true,
		});
	});

	it("extends the selection to the end of its line, before a CRLF", async () => {
		const { workspace, tool } = setup();
		await callTool(tool, { filePath: "note.md", startText: "words", selectToEndOfLine: true });
		expect(workspace.opened[0]?.options.selection).toEqual({
			start: { line: 2, character: 4 },
			end: { line: 2, character: 15 },
		});
	});

	it("selects whole lines from 1-based startLine to endLine", async () => {
		const { workspace, tool } = setup();
		await callTool(tool, { filePath: "note.md", startLine: 3, endLine: 4 });
		expect(workspace.opened[0]?.options.selection).toEqual({
			start: { line: 2, character: 0 },
			end: { line: 3, character: 9 },
		});
	});

	it("still opens the note when the text to select is missing, and says nothing is selected", async () => {
		const { workspace, tool } = setup();
		expect((await callTool(tool, { filePath: "note.md", startText: "absent" })).content[0]?.text).toBe(
			`Opened file: ${absolute} (the text to select was not found, so nothing is selected)`,
		);
		expect(workspace.opened[0]?.options.selection).toBeUndefined();
	});

	it("answers JSON with language and line count when opened in the background, with the host's note", async () => {
		const { tool } = setup("recorded only");
		const answer = await callTool(tool, { filePath: "note.md", makeFrontmost: false });
		expect(JSON.parse(answer.content[0]?.text ?? "")).toEqual({
			success: true,
			filePath: absolute,
			languageId: "markdown",
			lineCount: 4,
			note: "recorded only",
		});
	});

	it("refuses a missing note without opening anything", async () => {
		const { workspace, tool } = setup();
		expect(await callTool(tool, { filePath: "missing.md" })).toEqual({
			isError: true,
			content: [{ type: "text", text: "openFile: note not found: missing.md" }],
		});
		expect(workspace.opened).toEqual([]);
	});

	it("answers a note it cannot read with the reason", async () => {
		const workspace = new FakeWorkspace();
		const tool = createOpenFileTool({
			paths: vault.paths,
			workspace,
			readText: () => Promise.reject(new Error("EACCES: permission denied")),
		});
		expect(await callTool(tool, { filePath: "note.md" })).toEqual({
			isError: true,
			content: [{ type: "text", text: "openFile: could not read note.md: EACCES: permission denied" }],
		});
		expect(workspace.opened).toEqual([]);
	});

	it("answers wrongly typed arguments as error results", async () => {
		const { workspace, tool } = setup();
		expect((await callTool(tool, { filePath: "note.md", startLine: -1 })).content[0]?.text).toBe(
			'openFile: "startLine" must be a whole number of 0 or more, not -1',
		);
		expect((await callTool(tool, { filePath: "note.md", preview: "yes" })).content[0]?.text).toBe(
			'openFile: "preview" must be true or false, not a string',
		);
		expect((await callTool(tool, { filePath: "note.md", endText: 4 })).content[0]?.text).toBe(
			'openFile: "endText" must be a string, not a number',
		);
		expect((await callTool(tool, { filePath: "../x.md" })).isError).toBe(true);
		expect(workspace.opened).toEqual([]);
	});
});
