import { toolUseSummary } from "../../../src/agent/gate/tool-use-summary";

describe("toolUseSummary", () => {
	it("names the tool and what it acts on, on one short line", () => {
		expect(
			toolUseSummary({ toolName: "Bash", input: { command: "npm test\nnpm run lint", description: "tests" } }),
		).toBe("Bash: npm test ⏎ npm run lint");
		expect(toolUseSummary({ toolName: "WebSearch", input: { query: "obsidian api" } })).toBe(
			"WebSearch: obsidian api",
		);
		expect(toolUseSummary({ toolName: "mcp__github__list_issues", input: {} })).toBe("github › list_issues");
		expect(toolUseSummary({ toolName: "Bash", input: { command: "x".repeat(500) } })).toHaveLength(160);
	});
});
