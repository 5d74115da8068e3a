import { cliArguments } from "../../src/agent/cli-arguments";

describe("cliArguments", () => {
	it("runs print mode over stream-json with permission prompts on the control channel", () => {
		expect(cliArguments({ permissionMode: "default" }, [])).toEqual([
			"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--include-partial-messages",
			"--permission-prompt-tool", "stdio", "--permission-mode", "default",
		]);
	});

	it("adds the model, the session to resume and one sdk MCP entry per in-process server", () => {
		const args = cliArguments({ permissionMode: "plan", model: "sonnet", resume: "abc-123" }, ["obsidian", "extra"]);
		expect(args.slice(10)).toEqual([
			"plan", "--model", "sonnet", "--resume", "abc-123",
			"--mcp-config", '{"mcpServers":{"obsidian":{"type":"sdk","name":"obsidian"},"extra":{"type":"sdk","name":"extra"}}}',
		]);
	});
});
