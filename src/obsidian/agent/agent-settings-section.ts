import { CLAUDE_PATH_SETTING } from "../../agent/claude-check";
import { Notice, Setting } from "obsidian";
import type { AgentPanelSettings } from "../../settings";
import { describeError } from "../../shared/describe-error";

/** An "always allow" rule as the settings list shows it. */
export interface AlwaysAllowRule {
	id: string;
	/** One line a user can judge, e.g. `Bash: npm test`. */
	description: string;
}

/**
 * The "always allow" rules the user gave in the panel, listed and revoked here. A minimal port: the tool gate's
 * `PermissionRules` (src/agent) backs it once it lands.
 */
export interface AlwaysAllowRules {
	list(): Promise<readonly AlwaysAllowRule[]>;
	revoke(id: string): Promise<void>;
}

/** What the section needs from the plugin. */
export interface AgentSettingsHost {
	agentPanelSettings(): AgentPanelSettings;
	saveSettings(): Promise<void>;
	/** Absent while no rule store exists (then the list says so). */
	alwaysAllowRules?: AlwaysAllowRules;
}

/** The "Claude Code panel" settings: which `claude` runs, where exports go, and the "always allow" rules to revoke. */
export class AgentSettingsSection {
	private rulesEl: HTMLElement | undefined;

	constructor(private readonly host: AgentSettingsHost) {}

	display(containerEl: HTMLElement): void {
		const settings = this.host.agentPanelSettings();
		new Setting(containerEl).setName("Claude Code panel").setHeading();
		new Setting(containerEl)
			.setName(CLAUDE_PATH_SETTING)
			.setDesc("Full path of the Claude Code executable. Empty: the plugin finds it where your shell would.")
			.addText((text) =>
				text
					.setPlaceholder("Find it automatically")
					.setValue(settings.cliPath)
					.onChange(async (value) => {
						settings.cliPath = value.trim();
						await this.host.saveSettings();
					}),
			);
		new Setting(containerEl)
			.setName("Export folder")
			.setDesc("Exported sessions are written as notes in this folder.")
			.addText((text) =>
				text.setValue(settings.exportFolder).onChange(async (value) => {
					settings.exportFolder = value.trim() === "" ? "Claude sessions" : value.trim();
					await this.host.saveSettings();
				}),
			);
		new Setting(containerEl).setName("Always allowed").setDesc("Tools you allowed for good from the panel. Revoke one to be asked again.");
		this.rulesEl = containerEl.createDiv({ cls: "ccb-agent-rules" });
		void this.refreshRules();
	}

	/** Lists the rules again (after a revoke). */
	async refreshRules(): Promise<void> {
		const element = this.rulesEl;
		if (!element) return;
		const rules = this.host.alwaysAllowRules;
		let listed: readonly AlwaysAllowRule[] = [];
		try {
			listed = rules ? await rules.list() : [];
		} catch (error) {
			element.empty();
			element.createDiv({ cls: "ccb-agent-rules-empty", text: `The rules could not be read: ${describeError(error)}` });
			return;
		}
		element.empty();
		if (!rules || listed.length === 0) {
			element.createDiv({ cls: "ccb-agent-rules-empty", text: "No tool is always allowed." });
			return;
		}
		for (const rule of listed) {
			new Setting(element).setName(rule.description).addButton((button) =>
				button.setButtonText("Revoke").onClick(async () => {
					try {
						await rules.revoke(rule.id);
						new Notice(`Revoked: ${rule.description}`);
					} catch (error) {
						new Notice(`The rule could not be revoked: ${describeError(error)}`);
					}
					await this.refreshRules();
				}),
			);
		}
	}
}
