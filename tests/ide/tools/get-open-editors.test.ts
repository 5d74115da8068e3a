import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createGetOpenEditorsTool } from "../../../src/ide/tools/get-open-editors";
import { callTool, FakeWorkspace, jsonOf, makeToolVault } from "./ide-tool-fixture";

const vault = makeToolVault({ "Projects/Plan.md": "# Plan\n", "board.canvas": "{}" });
afterAll(() => vault.remove());

describe("getOpenEditors", () => {
	it("lists each open note as a VS Code tab: URI, path, label, language, active and dirty", async () => {
		const workspace = new FakeWorkspace();
		workspace.editors.push({ location: vault.paths.resolve("Projects/Plan.md"), isActive: true, lineCount: 1 });
		workspace.editors.push({ location: vault.paths.resolve("board.canvas"), isActive: false });
		workspace.dirty.set("Projects/Plan.md", true);
		const plan = join(vault.root, "Projects", "Plan.md");
		const board = join(vault.root, "board.canvas");
		expect(jsonOf(await callTool(createGetOpenEditorsTool({ workspace })))).toEqual({
			tabs: [
				{
					uri: pathToFileURL(plan).href,
					fileName: plan,
					isActive: true,
					label: "Plan.md",
					languageId: "markdown",
					isDirty: true,
					isUntitled: false,
					lineCount: 1,
				},
				{
					uri: pathToFileURL(board).href,
					fileName: board,
					isActive: false,
					label: "board.canvas",
					languageId: "json",
					isDirty: false,
					isUntitled: false,
				},
			],
		});
	});

	it("answers no tabs, with the headless host's note when it has one", async () => {
		expect(jsonOf(await callTool(createGetOpenEditorsTool({ workspace: new FakeWorkspace() })))).toEqual({
			tabs: [],
		});
		expect(
			jsonOf(await callTool(createGetOpenEditorsTool({ workspace: new FakeWorkspace("recorded only") }))),
		).toEqual({
			tabs: [],
			note: "recorded only",
		});
	});
});
