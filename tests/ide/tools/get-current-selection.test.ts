import { createGetCurrentSelectionTool } from "../../../src/ide/tools/get-current-selection";
import { selectionSnapshot } from "../../../src/ide/workspace/selection";
import { callTool, FakeWorkspace, jsonOf } from "./ide-tool-fixture";

describe("getCurrentSelection", () => {
	it("answers the active note's selection in the selection_changed shape, with success", async () => {
		const workspace = new FakeWorkspace();
		workspace.selection = selectionSnapshot(
			"/vault/note.md",
			"Old",
			{ line: 2, character: 0 },
			{ line: 2, character: 3 },
		);
		expect(jsonOf(await callTool(createGetCurrentSelectionTool({ workspace })))).toEqual({
			success: true,
			text: "Old",
			filePath: "/vault/note.md",
			fileUrl: "file:///vault/note.md",
			selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 3 }, isEmpty: false },
		});
	});

	it("says there is no active editor, with the headless host's note when it has one", async () => {
		expect(jsonOf(await callTool(createGetCurrentSelectionTool({ workspace: new FakeWorkspace() })))).toEqual({
			success: false,
			message: "No active editor found",
		});
		expect(
			jsonOf(await callTool(createGetCurrentSelectionTool({ workspace: new FakeWorkspace("no editor here") }))),
		).toEqual({
			success: false,
			message: "No active editor found (no editor here)",
		});
	});
});
