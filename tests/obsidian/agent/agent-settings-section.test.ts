import type { ProjectConfigState } from "../../../src/agent/vault-config/project-config-trust";
import {
	AgentSettingsSection,
	type AlwaysAllowRule,
	type AlwaysAllowRules,
	type ClaudeConfigTrustRow,
} from "../../../src/obsidian/agent/agent-settings-section";
import { DeviceAgentSettings } from "../../../src/obsidian/agent/device-agent-settings";
import { DEFAULT_AGENT_PANEL_SETTINGS, migrateSettings } from "../../../src/settings";
import { App, FakeElement, Setting, notices } from "../../__mocks__/obsidian";
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

function section(rules?: AlwaysAllowRules, claudeConfigTrust?: ClaudeConfigTrustRow) {
	const settings = { ...DEFAULT_AGENT_PANEL_SETTINGS };
	let saves = 0;
	let opened = 0;
	const container = new FakeElement();
	const app = new App("/vault", "Vault");
	const device = new DeviceAgentSettings(app);
	Setting.created = [];
	const rows = new AgentSettingsSection({
		agentPanelSettings: () => settings,
		saveSettings: () => Promise.resolve(void saves++),
		claudePath: device,
		openPanel: () => void opened++,
		...(rules ? { alwaysAllowRules: rules } : {}),
		...(claudeConfigTrust ? { claudeConfigTrust } : {}),
	});
	const element = container as unknown as HTMLElement;
	rows.displayOpen(element);
	rows.displayOptions(element);
	rows.displayAdvanced(element);
	const row = (name: string): Setting => {
		const found = Setting.created.find((setting) => setting.name === name);
		if (!found) throw new Error(`no row ${name}`);
		return found;
	};
	return { settings, saves: () => saves, opened: () => opened, container, row, app, device };
}

const CONFIG = {
	items: [{ kind: "runs" as const, text: 'Runs "./start.sh" when a session starts.', file: ".claude/settings.json" }],
	fingerprint: "f".repeat(64),
};

describe("AgentSettingsSection", () => {
	it("opens the panel from its row, and leaves the headings to the tab", async () => {
		const { row, opened } = section();
		expect(Setting.created.filter((setting) => setting.isHeading)).toEqual([]);
		const open = row("Claude Code in a panel");
		expect(open.desc).toContain("runs your own Claude Code");
		expect(open.buttons.map((button) => button.text)).toEqual(["Open panel"]);
		await open.buttons[0]?.click();
		expect(opened()).toBe(1);
	});

	it("sets the CLI path on this device only (never data.json) and the export folder", async () => {
		const { settings, saves, row, device, app } = section();
		expect(row("Claude Code executable").desc).toContain("Kept on this device only");
		await row("Claude Code executable").texts[0]?.change("  /opt/claude/bin/claude ");
		expect(device.cliPath()).toBe("/opt/claude/bin/claude");
		expect(saves()).toBe(0);
		expect(JSON.stringify(settings)).not.toContain("/opt/claude");
		await row("Claude Code executable").texts[0]?.change("  ");
		expect([...app.localStorage.keys()]).toEqual([]);
		await row("Export folder").texts[0]?.change("  ");
		expect(settings.exportFolder).toBe("Claude sessions");
		await row("Export folder").texts[0]?.change("Logs");
		expect(settings.exportFolder).toBe("Logs");
		expect(saves()).toBe(2);
	});

	it("says whether the vault's own Claude Code settings are trusted here, and stops trusting them on request", async () => {
		let state: ProjectConfigState = { kind: "trusted", config: CONFIG };
		let revoked = 0;
		const { row } = section(undefined, {
			state: () => Promise.resolve(state),
			revoke: () => {
				revoked++;
				state = { kind: "untrusted", config: CONFIG, changed: false };
			},
		});
		const trustRow = await pollUntil(
			() =>
				Setting.created.find(
					(setting) => setting.name === "This vault's Claude Code settings" && setting.desc !== "",
				),
			"the trust row",
		);
		expect(trustRow.desc).toContain("Trusted on this device");
		await trustRow.buttons.find((button) => button.text === "Stop trusting")?.click();
		expect(revoked).toBe(1);
		expect(notices).toContain("This vault's Claude Code settings are no longer used by new sessions.");
		const after = await pollUntil(
			() =>
				Setting.created
					.filter((setting) => setting.name === "This vault's Claude Code settings")
					.at(-1)
					?.desc.startsWith("Not used") || undefined,
			"the untrusted row",
		);
		expect(after).toBe(true);
		expect(row("Export folder")).toBeDefined();
	});

	it("says when the vault has no Claude Code settings of its own, with nothing to revoke", async () => {
		section(undefined, { state: () => Promise.resolve({ kind: "none" }), revoke: () => undefined });
		const trustRow = await pollUntil(
			() =>
				Setting.created.find(
					(setting) => setting.name === "This vault's Claude Code settings" && setting.desc !== "",
				),
			"the trust row",
		);
		expect(trustRow.desc).toBe("This vault has no Claude Code settings of its own.");
		expect(trustRow.buttons).toEqual([]);
	});

	it("lists the always-allow rules, each with Revoke, and lists them again after one is revoked", async () => {
		const rules = new MemoryRules([
			{ id: "1", description: "Bash: npm test" },
			{ id: "2", description: "WebFetch: docs.example.org" },
		]);
		const { container } = section(rules);
		const ruleRows = (): Setting[] =>
			Setting.created.filter((setting) => setting.buttons.some((button) => button.text === "Revoke"));
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
		const broken = section({
			list: () => Promise.reject(new Error("disk full")),
			revoke: () => Promise.resolve(),
		}).container;
		const message = await pollUntil(() => broken.findAll("ccb-agent-rules-empty")[0], "the error");
		expect(message.text).toBe("The rules could not be read: disk full");
	});
});

describe("the panel's stored settings", () => {
	it("keep known keys of the right kind, trimmed, and fall back to the defaults otherwise", () => {
		expect(
			migrateSettings({
				agentPanel: { model: "opus", permissionMode: "plan", exportFolder: " Chats ", apiKey: "sk-secret" },
			}).agentPanel,
		).toEqual({ model: "opus", permissionMode: "plan", exportFolder: "Chats", denyRulesOffered: false });
		const fallback = migrateSettings({
			agentPanel: { cliPath: 3, permissionMode: "bypassPermissions", exportFolder: "  " },
		}).agentPanel;
		expect(fallback).toEqual(DEFAULT_AGENT_PANEL_SETTINGS);
		expect(fallback).not.toBe(DEFAULT_AGENT_PANEL_SETTINGS);
		expect(migrateSettings(undefined).agentPanel).toEqual(DEFAULT_AGENT_PANEL_SETTINGS);
	});

	it("never take the CLI path or always-allow rules from data.json (a synced data.json could plant them)", () => {
		const planted = migrateSettings({
			agentPanel: { cliPath: "/vault/tools/claude", alwaysAllow: [{ tool: "Bash", commandPrefix: "bash" }] },
		});
		expect(planted.agentPanel).toEqual(DEFAULT_AGENT_PANEL_SETTINGS);
		expect(JSON.stringify(planted)).not.toMatch(/cliPath|alwaysAllow|\/vault\/tools/);
	});

	it("remember that the deny rules were offered, and default to not yet", () => {
		expect(migrateSettings({ agentPanel: { denyRulesOffered: true } }).agentPanel.denyRulesOffered).toBe(true);
		expect(migrateSettings({ agentPanel: { denyRulesOffered: "yes" } }).agentPanel.denyRulesOffered).toBe(false);
		expect(migrateSettings({}).agentPanel.denyRulesOffered).toBe(false);
	});
});
