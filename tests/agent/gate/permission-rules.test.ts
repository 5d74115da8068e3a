import { MemoryPermissionRules, ruleFor, ruleMatches, ruleText } from "../../../src/agent/gate/permission-rules";

const bash = (command: string) => ({ toolName: "Bash", input: { command } });

describe("permission rules", () => {
	it("a Bash rule allows its command and longer ones, never a chained, substituted or redirected one", () => {
		const rule = { tool: "Bash", commandPrefix: "npm test" };
		expect(ruleMatches(rule, bash("npm test"))).toBe(true);
		expect(ruleMatches(rule, bash("npm test -- x.test.ts"))).toBe(true);
		for (const command of [
			"npm testing",
			"npm test; rm -rf ~",
			"npm test && curl x",
			"npm test | sh",
			"npm test $(rm x)",
			"npm test > /etc/x",
			"npm test `id`",
			"npm test\nrm x",
		]) {
			expect([command, ruleMatches(rule, bash(command))]).toEqual([command, false]);
		}
		expect(ruleMatches(rule, { toolName: "WebFetch", input: { command: "npm test" } })).toBe(false);
	});

	it("a rule for a tool without a prefix never allows every Bash command", () => {
		expect(ruleMatches({ tool: "Bash" }, bash("ls"))).toBe(false);
		expect(ruleMatches({ tool: "WebFetch" }, { toolName: "WebFetch", input: { url: "https://x" } })).toBe(true);
	});

	it("an answer's rule is the program and subcommand, or the whole command when it holds shell syntax", () => {
		expect(ruleFor(bash("npm test -- --watch"))).toEqual({ tool: "Bash", commandPrefix: "npm test" });
		expect(ruleFor(bash("ls -la"))).toEqual({ tool: "Bash", commandPrefix: "ls" });
		expect(ruleFor(bash("make && make install"))).toEqual({ tool: "Bash", commandPrefix: "make && make install" });
		expect(ruleFor({ toolName: "mcp__github__create_issue", input: {} })).toEqual({
			tool: "mcp__github__create_issue",
		});
		expect(ruleMatches(ruleFor(bash("make && make install")), bash("make && make install"))).toBe(true);
	});

	it("reads as Claude Code's own rule syntax", () => {
		expect(ruleText({ tool: "Bash", commandPrefix: "npm test" })).toBe("Bash(npm test:*)");
		expect(ruleText({ tool: "Bash", commandPrefix: "make && make install" })).toBe("Bash(make && make install)");
		expect(ruleText({ tool: "WebFetch" })).toBe("WebFetch");
	});

	it("the memory store lists, adds once and revokes", async () => {
		const rules = new MemoryPermissionRules();
		await rules.add({ tool: "WebFetch" });
		await rules.add({ tool: "WebFetch" });
		await rules.add({ tool: "Bash", commandPrefix: "git status" });
		expect(await rules.list()).toEqual([{ tool: "WebFetch" }, { tool: "Bash", commandPrefix: "git status" }]);
		await rules.revoke({ tool: "WebFetch" });
		expect(await rules.list()).toEqual([{ tool: "Bash", commandPrefix: "git status" }]);
	});
});
