import { createGetLatestSelectionTool } from "../../../src/ide/tools/get-latest-selection";
import { selectionSnapshot, type SelectionSnapshot } from "../../../src/ide/workspace/selection";
import { callTool, jsonOf } from "./ide-tool-fixture";

describe("getLatestSelection", () => {
	it("answers the tracker's latest selection, read at call time", async () => {
		let latest: SelectionSnapshot | undefined;
		const tool = createGetLatestSelectionTool({ latestSelection: () => latest });
		expect(jsonOf(await callTool(tool))).toEqual({ success: false, message: "No selection available" });
		latest = selectionSnapshot("/vault/a.md", "words", { line: 0, character: 5 }, { line: 0, character: 0 });
		expect(jsonOf(await callTool(tool))).toEqual({
			success: true,
			text: "words",
			filePath: "/vault/a.md",
			fileUrl: "file:///vault/a.md",
			selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 }, isEmpty: false },
		});
	});
});
