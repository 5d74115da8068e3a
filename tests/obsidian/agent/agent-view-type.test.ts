import { AGENT_VIEW_TYPE } from "../../../src/obsidian/agent/agent-view-type";

describe("AGENT_VIEW_TYPE", () => {
	it("stays the type saved workspaces name the view's tabs by", () => {
		expect(AGENT_VIEW_TYPE).toBe("claude-code-agent");
	});
});
