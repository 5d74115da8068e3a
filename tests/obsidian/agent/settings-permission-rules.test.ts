import { SettingsPermissionRules } from "../../../src/obsidian/agent/settings-permission-rules";
import { DEFAULT_AGENT_PANEL_SETTINGS, migrateSettings, type AgentPanelSettings } from "../../../src/settings";

function store(): { rules: SettingsPermissionRules; settings: AgentPanelSettings; saves: number[] } {
	const settings: AgentPanelSettings = { ...DEFAULT_AGENT_PANEL_SETTINGS, alwaysAllow: [] };
	const saves: number[] = [];
	return { settings, saves, rules: new SettingsPermissionRules(() => settings, () => Promise.resolve(void saves.push(settings.alwaysAllow.length))) };
}

describe("SettingsPermissionRules", () => {
	it("keeps each rule once in the settings and saves them, listing each with the text the settings show", async () => {
		const { rules, settings, saves } = store();
		await rules.add({ tool: "Bash", commandPrefix: "npm test" });
		await rules.add({ tool: "Bash", commandPrefix: "npm test" });
		await rules.add({ tool: "WebFetch" });
		expect(settings.alwaysAllow).toEqual([{ tool: "Bash", commandPrefix: "npm test" }, { tool: "WebFetch" }]);
		expect(saves).toEqual([1, 2]);
		expect(await rules.list()).toEqual([
			{ tool: "Bash", commandPrefix: "npm test", id: "Bash(npm test:*)", description: "Bash(npm test:*)" },
			{ tool: "WebFetch", id: "WebFetch", description: "WebFetch" },
		]);
	});

	it("revokes by the rule (the gate) or by its text (the settings list)", async () => {
		const { rules, settings } = store();
		await rules.add({ tool: "Bash", commandPrefix: "npm test" });
		await rules.add({ tool: "WebFetch" });
		await rules.revoke("Bash(npm test:*)");
		expect(settings.alwaysAllow).toEqual([{ tool: "WebFetch" }]);
		await rules.revoke({ tool: "WebFetch" });
		expect(settings.alwaysAllow).toEqual([]);
	});

	it("reads back only well-formed rules from stored data", () => {
		const settings = migrateSettings({ agentPanel: { alwaysAllow: [{ tool: "Bash", commandPrefix: "ls" }, { tool: "" }, { tool: "Bash", commandPrefix: 3 }, "WebFetch", null, { tool: "WebSearch" }] } });
		expect(settings.agentPanel.alwaysAllow).toEqual([{ tool: "Bash", commandPrefix: "ls" }, { tool: "WebSearch" }]);
	});
});
