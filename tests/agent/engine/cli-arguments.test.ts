import type { AgentSessionOptions } from "../../../src/agent/agent-session";
import { cliArguments } from "../../../src/agent/engine/cli-arguments";
import { UNTRUSTED_GUARD } from "../../../src/agent/engine/session-guard";

const TRUSTED = { projectConfigTrusted: true };

describe("cliArguments", () => {
	it("runs print mode over stream-json with permission prompts on the control channel", () => {
		expect(cliArguments({ permissionMode: "default" }, [], TRUSTED)).toEqual([
			"-p",
			"--input-format",
			"stream-json",
			"--output-format",
			"stream-json",
			"--verbose",
			"--include-partial-messages",
			"--permission-prompt-tool",
			"stdio",
			"--permission-mode",
			"default",
		]);
	});

	it("adds the model, the session to resume and one sdk MCP entry per in-process server", () => {
		const args = cliArguments(
			{ permissionMode: "plan", model: "sonnet", resume: "abc-123" },
			["obsidian", "extra"],
			TRUSTED,
		);
		expect(args.slice(10)).toEqual([
			"plan",
			"--model",
			"sonnet",
			"--resume",
			"abc-123",
			"--mcp-config",
			'{"mcpServers":{"obsidian":{"type":"sdk","name":"obsidian"},"extra":{"type":"sdk","name":"extra"}}}',
		]);
	});

	it("goes on from an earlier message, or forks, only when resuming", () => {
		const args = (options: Omit<AgentSessionOptions, "permissionMode">): string[] =>
			cliArguments({ permissionMode: "default", ...options }, [], TRUSTED).slice(11);
		expect(args({ resume: "abc", resumeAt: "m-1" })).toEqual(["--resume", "abc", "--resume-session-at", "m-1"]);
		expect(args({ resume: "abc", fork: true })).toEqual(["--resume", "abc", "--fork-session"]);
		expect(args({ resume: "abc", fork: true, resumeAt: "m-1" })).toEqual([
			"--resume",
			"abc",
			"--fork-session",
			"--resume-session-at",
			"m-1",
		]);
		expect(args({ resumeAt: "m-1", fork: true })).toEqual([]);
	});

	it("loads only the user's own settings and the panel's MCP servers until the vault's configuration is trusted", () => {
		const args = cliArguments({ permissionMode: "default" }, ["obsidian"], UNTRUSTED_GUARD);
		expect(args.slice(11, 14)).toEqual(["--setting-sources", "user", "--strict-mcp-config"]);
		expect(args.at(-2)).toBe("--mcp-config");
		expect(cliArguments({ permissionMode: "default" }, [], TRUSTED)).not.toContain("--setting-sources");
		expect(cliArguments({ permissionMode: "default" }, [], TRUSTED)).not.toContain("--strict-mcp-config");
	});

	it("hands the sandbox and the deny rules to the CLI with --settings, and no command may leave the sandbox", () => {
		const args = cliArguments({ permissionMode: "acceptEdits" }, [], {
			projectConfigTrusted: false,
			sandbox: { denyRead: ["/v/Secret", "/v/.config-folder"], denyWrite: ["/v/Secret", "/v/.config-folder"] },
			denyRules: ["Read(//v/Secret/**)"],
		});
		const settings = JSON.parse(args[args.indexOf("--settings") + 1] ?? "null") as unknown;
		expect(settings).toEqual({
			sandbox: {
				enabled: true,
				allowUnsandboxedCommands: false,
				filesystem: {
					denyRead: ["/v/Secret", "/v/.config-folder"],
					denyWrite: ["/v/Secret", "/v/.config-folder"],
				},
			},
			permissions: { deny: ["Read(//v/Secret/**)"] },
		});
		expect(cliArguments({ permissionMode: "default" }, [], UNTRUSTED_GUARD)).not.toContain("--settings");
	});

	it("a text-only session (an inline edit) gets no tool and no MCP server, even with the vault trusted and in-process servers offered, its own system prompt, and is not saved", () => {
		const textOnly = { systemPrompt: "Rewrite the passage." };
		for (const guard of [UNTRUSTED_GUARD, TRUSTED]) {
			const args = cliArguments({ permissionMode: "default", textOnly }, ["obsidian"], guard);
			expect(args.filter((arg) => arg === "--strict-mcp-config")).toHaveLength(1);
			expect(args).not.toContain("--mcp-config");
			expect(args[args.indexOf("--tools") + 1]).toBe("");
			expect(args[args.indexOf("--system-prompt") + 1]).toBe("Rewrite the passage.");
			expect(args).toContain("--no-session-persistence");
		}
		expect(cliArguments({ permissionMode: "default" }, [], TRUSTED)).not.toContain("--tools");
	});
});
