import type { ToolDefinition } from "../../../src/protocol/mcp-types";
import { createWorkspaceTools } from "../../../src/ide/tools/workspace-tools";
import { callTool, FakeWorkspace, jsonOf, makeToolVault } from "./ide-tool-fixture";

const vault = makeToolVault({ "note.md": "one\ntwo\n" });
afterAll(() => vault.remove());

describe("createWorkspaceTools", () => {
	it("builds the seven read-only VS Code tools, and no executeCode", () => {
		const tools = createWorkspaceTools({
			paths: vault.paths,
			workspace: new FakeWorkspace(),
			vaultName: "V",
			latestSelection: () => undefined,
		});
		expect(tools.map((tool) => tool.name)).toEqual([
			"openFile",
			"getCurrentSelection",
			"getLatestSelection",
			"getOpenEditors",
			"getWorkspaceFolders",
			"checkDocumentDirty",
			"saveDocument",
		]);
	});

	it("wires each tool to the options given: the vault name, and openFile's reader", async () => {
		const read: string[] = [];
		const tools = createWorkspaceTools({
			paths: vault.paths,
			workspace: new FakeWorkspace(),
			vaultName: "Named vault",
			latestSelection: () => undefined,
			readText: (absolutePath) => {
				read.push(absolutePath);
				return Promise.resolve("from the reader\n");
			},
		});
		const named = (name: string): ToolDefinition => {
			const found = tools.find((tool) => tool.name === name);
			if (!found) throw new Error(`no tool ${name}`);
			return found;
		};
		const folders = jsonOf(await callTool(named("getWorkspaceFolders"))) as { folders: { name: string }[] };
		expect(folders.folders[0]?.name).toBe("Named vault");
		const opened = await callTool(named("openFile"), { filePath: "elsewhere.md", makeFrontmost: false });
		expect(JSON.parse(opened.content[0]?.text ?? "")).toMatchObject({ success: true, lineCount: 1 });
		expect(read).toEqual([vault.paths.resolve("elsewhere.md").absolute]);
	});
});
