import { CLAUDE_PATH_SETTING } from "../../agent/claude-cli/claude-check";
import { Notice, Setting } from "obsidian";
import type { ProjectConfigState } from "../../agent/vault-config/project-config-trust";
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

/** The settings kept on this device only (never in data.json): the `claude` path. */
export interface DeviceClaudePath {
	cliPath(): string;
	setCliPath(path: string): void;
}

/** The user's trust in the vault's own Claude Code configuration on this device. */
export interface ClaudeConfigTrustRow {
	state(): Promise<ProjectConfigState>;
	revoke(): void;
}

/** What the section needs from the plugin. */
export interface AgentSettingsHost {
	agentPanelSettings(): AgentPanelSettings;
	saveSettings(): Promise<void>;
	claudePath: DeviceClaudePath;
	/** Absent when the vault is not on the local file system (then there is no row). */
	claudeConfigTrust?: ClaudeConfigTrustRow;
	/** Absent while no rule store exists (then the list says so). */
	alwaysAllowRules?: AlwaysAllowRules;
	/** Opens the panel (the ribbon's and the command's way); absent, the tab offers no button. */
	openPanel?(): void;
}

/**
 * The "Claude Code panel" rows, placed by the settings tab: a button that opens the panel (Connection), where
 * exports go, the vault's own Claude Code settings and the "always allow" rules to revoke (More settings), and which
 * `claude` runs (Advanced). The tab makes the headings.
 */
export class AgentSettingsSection {
	private rulesEl: HTMLElement | undefined;
	private trustEl: HTMLElement | undefined;

	constructor(private readonly host: AgentSettingsHost) {}

	/** Under Connection: what the panel is, and a button that opens it. */
	displayOpen(containerEl: HTMLElement): void {
		const open = this.host.openPanel?.bind(this.host);
		const row = new Setting(containerEl)
			.setName("Claude Code in a panel")
			.setDesc(
				"Or talk with Claude Code beside your notes, without a terminal. The panel runs your own Claude Code, signed in as you.",
			);
		if (open) row.addButton((button) => button.setButtonText("Open panel").onClick(() => open()));
	}

	/** Under More settings: the export folder, the vault's own Claude Code settings, the "always allow" rules. */
	displayOptions(containerEl: HTMLElement): void {
		const settings = this.host.agentPanelSettings();
		new Setting(containerEl)
			.setName("Export folder")
			.setDesc("Exported sessions are written as notes in this folder.")
			.addText((text) =>
				text.setValue(settings.exportFolder).onChange(async (value) => {
					settings.exportFolder = value.trim() === "" ? "Claude sessions" : value.trim();
					await this.host.saveSettings();
				}),
			);
		if (this.host.claudeConfigTrust) {
			this.trustEl = containerEl.createDiv({ cls: "ccb-agent-config-trust" });
			void this.refreshTrust();
		}
		new Setting(containerEl)
			.setName("Always allowed")
			.setDesc("Tools you allowed for good from the panel, on this device only. Revoke one to be asked again.");
		this.rulesEl = containerEl.createDiv({ cls: "ccb-agent-rules" });
		void this.refreshRules();
	}

	/** Under Advanced: which Claude Code runs, kept on this device only. */
	displayAdvanced(containerEl: HTMLElement): void {
		new Setting(containerEl)
			.setName(CLAUDE_PATH_SETTING)
			.setDesc(
				"Full path of the Claude Code executable. Empty: the plugin finds it where your shell would. Kept on this device only, never in the plugin's synced settings (a path found there is ignored), and never a program inside this vault.",
			)
			.addText((text) =>
				text
					.setPlaceholder("Find it automatically")
					.setValue(this.host.claudePath.cliPath())
					.onChange((value) => this.host.claudePath.setCliPath(value)),
			);
	}

	/** Says whether the vault has Claude Code settings of its own and whether they are trusted here; offers to stop trusting them. */
	async refreshTrust(): Promise<void> {
		const element = this.trustEl;
		const trust = this.host.claudeConfigTrust;
		if (!element || !trust) return;
		let state: ProjectConfigState | undefined;
		let problem = "";
		try {
			state = await trust.state();
		} catch (error) {
			problem = describeError(error);
		}
		element.empty();
		const row = new Setting(element).setName("This vault's Claude Code settings");
		if (state === undefined) {
			row.setDesc(`They could not be read: ${problem}`);
			return;
		}
		switch (state.kind) {
			case "none":
				row.setDesc("This vault has no Claude Code settings of its own.");
				return;
			case "untrusted":
				row.setDesc(
					"Not used: the panel's sessions start without them. Review them from the Claude Code panel to trust them on this device.",
				);
				return;
			case "trusted":
				row.setDesc(
					"Trusted on this device: the panel's sessions use them (its programs, tool servers and instructions).",
				).addButton((button) =>
					button.setButtonText("Stop trusting").onClick(async () => {
						trust.revoke();
						new Notice("This vault's Claude Code settings are no longer used by new sessions.");
						await this.refreshTrust();
					}),
				);
		}
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
			element.createDiv({
				cls: "ccb-agent-rules-empty",
				text: `The rules could not be read: ${describeError(error)}`,
			});
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
