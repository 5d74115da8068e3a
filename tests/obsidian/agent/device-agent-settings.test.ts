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

	it("remembers where a rewind took a session until a message goes on, only ids of the CLI's record, the newest 50", () => {
		const app = new App("/vault", "Vault");
		const device = new DeviceAgentSettings(app);
		const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
		expect(device.rewindPoint(id(1))).toBeUndefined();
		device.setRewindPoint(id(1), id(101));
		device.setRewindPoint(id(2), id(102));
		device.setRewindPoint(id(1), id(111));
		expect(new DeviceAgentSettings(app).rewindPoint(id(1))).toBe(id(111));
		expect(device.rewindPoint(id(2))).toBe(id(102));
		device.setRewindPoint(id(1), undefined);
		expect(device.rewindPoint(id(1))).toBeUndefined();
		// Not an id of the CLI's record (a flag, a path): never kept, never read back.
		device.setRewindPoint(id(3), "--dangerously-skip-permissions");
		expect(device.rewindPoint(id(3))).toBeUndefined();
		app.saveLocalStorage("claude-code-bridge-rewind-points", [[id(4), "--help"], [id(5), id(105)], "x", [id(6)]]);
		expect(device.rewindPoint(id(4))).toBeUndefined();
		expect(device.rewindPoint(id(5))).toBe(id(105));
		for (let n = 10; n < 70; n++) device.setRewindPoint(id(n), id(n + 100));
		expect(device.rewindPoint(id(5))).toBeUndefined();
		expect(device.rewindPoint(id(19))).toBeUndefined();
		expect(device.rewindPoint(id(20))).toBe(id(120));
		expect(device.rewindPoint(id(69))).toBe(id(169));
		for (let n = 10; n < 70; n++) device.setRewindPoint(id(n), undefined);
		expect([...app.localStorage.keys()]).toEqual([]);
	});
});
