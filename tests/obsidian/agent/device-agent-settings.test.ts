import { DeviceAgentSettings } from "../../../src/obsidian/agent/device-agent-settings";
import { App } from "../../__mocks__/obsidian";

describe("DeviceAgentSettings (Obsidian's local storage for this vault, never data.json)", () => {
	it("keeps the Claude Code path, trimmed; an empty one is removed", () => {
		const app = new App("/vault", "Vault");
		const device = new DeviceAgentSettings(app);
		expect(device.cliPath()).toBe("");
		device.setCliPath("  /opt/claude/bin/claude ");
		expect(device.cliPath()).toBe("/opt/claude/bin/claude");
		expect(new DeviceAgentSettings(app).cliPath()).toBe("/opt/claude/bin/claude");
		device.setCliPath(" ");
		expect([...app.localStorage.keys()]).toEqual([]);
	});

	it("reads back only well-formed always-allow rules, whatever the storage holds", () => {
		const app = new App("/vault", "Vault");
		app.saveLocalStorage("claude-code-bridge-always-allow", [
			{ tool: "Bash", commandPrefix: "ls" },
			{ tool: "" },
			{ tool: "Bash", commandPrefix: 3 },
			"WebFetch",
			null,
			{ tool: "WebSearch", extra: "x" },
		]);
		expect(new DeviceAgentSettings(app).alwaysAllow()).toEqual([
			{ tool: "Bash", commandPrefix: "ls" },
			{ tool: "WebSearch" },
		]);
		app.saveLocalStorage("claude-code-bridge-always-allow", "Bash");
		expect(new DeviceAgentSettings(app).alwaysAllow()).toEqual([]);
		app.saveLocalStorage("claude-code-bridge-claude-path", 42);
		expect(new DeviceAgentSettings(app).cliPath()).toBe("");
	});
});
