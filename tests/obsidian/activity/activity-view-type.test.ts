import { ACTIVITY_VIEW_TYPE } from "../../../src/obsidian/activity/activity-view-type";

describe("ACTIVITY_VIEW_TYPE", () => {
	it("stays the type saved workspaces name the view's tabs by", () => {
		expect(ACTIVITY_VIEW_TYPE).toBe("claude-code-bridge-activity");
	});
});
