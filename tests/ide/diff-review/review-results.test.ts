import { decisionResult } from "../../../src/ide/diff-review/review-results";

describe("decisionResult", () => {
	it("answers an accepted review as FILE_SAVED and the final text", () => {
		expect(decisionResult({ kind: "accept", finalText: "# Final\n" }, "tab")).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "# Final\n" },
			],
		});
	});

	it("answers a rejected review as DIFF_REJECTED and the tab name, never TAB_CLOSED", () => {
		const result = decisionResult({ kind: "reject" }, "✻ [Claude Code] note.md ⧉");
		expect(result).toEqual({
			content: [
				{ type: "text", text: "DIFF_REJECTED" },
				{ type: "text", text: "✻ [Claude Code] note.md ⧉" },
			],
		});
		expect(result.isError).toBeUndefined();
	});
});
