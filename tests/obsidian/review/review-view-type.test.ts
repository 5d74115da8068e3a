import { DIFF_VIEW_TYPE } from "../../../src/obsidian/review/review-view-type";

describe("DIFF_VIEW_TYPE", () => {
	it("stays the type saved workspaces name the view's tabs by", () => {
		expect(DIFF_VIEW_TYPE).toBe("claude-code-diff");
	});
});
