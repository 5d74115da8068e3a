import { AgentSettingsSection, type AlwaysAllowRule, type AlwaysAllowRules } from "../../../src/obsidian/agent/agent-settings-section";
import { DEFAULT_AGENT_PANEL_SETTINGS, migrateSettings } from "../../../src/settings";
import { FakeElement, Setting, notices } from "../../__mocks__/obsidian";
import { pollUntil } from "../../helpers/wait-until";

class MemoryRules implements AlwaysAllowRules {
	constructor(public rules: AlwaysAllowRule[]) {}
	list(): Promise<readonly AlwaysAllowRule[]> {
		return Promise.resolve([...this.rules]);
	}
	revoke(id: string): Promise<void> {
		this.rules = this.rules.filter((rule) => rule.id !== id);
		return Promise.resolve();
	}
}

function section(rules?: AlwaysAllowRules) {
	const settings = { ...DEFAULT_AGENT_PANEL_SETTINGS };
	let saves = 0;
	const container = new FakeElement();
	Setting.created = [];
	new AgentSettingsSection({ agentPanelSettings: () => settings, saveSettings: () => Promise.resolve(void saves++), ...(rules ? { alwaysAllowRules: rules } : {}) }).display(container as unknown as HTMLElement);
	const row = (name: string): Setting => {
		const found = Setting.created.find((setting) => setting.name === name);
		if (!found) throw new Error(`no row ${name}`);
		return found;
	};
	return { settings, saves: () => saves, container, row };
}

describe("AgentSettingsSection", () => {
	it("sets the CLI path (empty: find it) and the export folder, under its own heading", async () => {
		const { settings, saves, row } = section();
		expect(row("Claude Code panel").isHeading).toBe(true);
		await row("Claude Code executable").texts[0]?.change("  /opt/claude/bin/claude ");
		await row("Export folder").texts[0]?.change("  ");
		expect(settings).toMatchObject({ cliPath: "/opt/claude/bin/claude", exportFolder: "Claude sessions" });
		await row("Export folder").texts[0]?.change("Logs");
		expect(settings.exportFolder).toBe("Logs");
		expect(saves()).toBe(3);
	});

	it("lists the always-allow rules, each with Revoke, and lists them again after one is revoked", async () => {
		const rules = new MemoryRules([
			{ id: "1", description: "Bash: npm test" },
			{ id: "2", description: "WebFetch: docs.example.org" },
		]);
		const { container } = section(rules);
		const ruleRows = (): Setting[] => Setting.created.filter((setting) => setting.buttons.some((button) => button.text === "Revoke"));
		await pollUntil(() => (ruleRows().length === 2 ? true : undefined), "the rules");
		expect(ruleRows().map((setting) => setting.name)).toEqual(["Bash: npm test", "WebFetch: docs.example.org"]);
		await ruleRows()[0]?.buttons[0]?.click();
		expect(rules.rules.map((rule) => rule.id)).toEqual(["2"]);
		expect(notices).toContain("Revoked: Bash: npm test");
		const listed = container.findAll("ccb-agent-rules")[0];
		expect(listed?.findAll("setting-item-name").map((name) => name.text)).toEqual(["WebFetch: docs.example.org"]);
	});

	it("says when no tool is always allowed, or when the rules cannot be read", async () => {
		const empty = section().container;
		await pollUntil(() => empty.findAll("ccb-agent-rules-empty")[0], "the empty list");
		expect(empty.findAll("ccb-agent-rules-empty")[0]?.text).toBe("No tool is always allowed.");
		const broken = section({ list: () => Promise.reject(new Error("disk full")), revoke: () => Promise.resolve() }).container;
		const message = await pollUntil(() => broken.findAll("ccb-agent-rules-empty")[0], "the error");
		expect(message.text).toBe("The rules could not be read: disk full");
	});
});

describe("the panel's stored settings", () => {
	it("keep known keys of the right kind, trimmed, and fall back to the defaults otherwise", () => {
		expect(migrateSettings({ agentPanel: { cliPath: " /usr/local/bin/claude ", model: "opus", permissionMode: "plan", exportFolder: " Chats ", apiKey: "sk-secret" } }).agentPanel).toEqual({ cliPath: "/usr/local/bin/claude", model: "opus", permissionMode: "plan", exportFolder: "Chats", alwaysAllow: [], denyRulesOffered: false });
		const fallback = migrateSettings({ agentPanel: { cliPath: 3, permissionMode: "bypassPermissions", exportFolder: "  " } }).agentPanel;
		expect(fallback).toEqual(DEFAULT_AGENT_PANEL_SETTINGS);
		expect(fallback).not.toBe(DEFAULT_AGENT_PANEL_SETTINGS);
		expect(migrateSettings(undefined).agentPanel).toEqual(DEFAULT_AGENT_PANEL_SETTINGS);
	});

	it("remember that the deny rules were offered, and default to not yet", () => {
		expect(migrateSettings({ agentPanel: { denyRulesOffered: true } }).agentPanel.denyRulesOffered).toBe(true);
		expect(migrateSettings({ agentPanel: { denyRulesOffered: "yes" } }).agentPanel.denyRulesOffered).toBe(false);
		expect(migrateSettings({}).agentPanel.denyRulesOffered).toBe(false);
	});
});
