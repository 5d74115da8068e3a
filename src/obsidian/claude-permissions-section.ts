import { Notice, Setting, type ToggleComponent } from "obsidian";
import type { DenyRuleSources, DenyRules } from "../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../ide/claude-permissions/disk-spellings";
import { SETTINGS_FILES, applyPermissionPlan, planPermissions, type PermissionPlan } from "../ide/claude-permissions/permissions-file";
import type { BridgeSettings, SettingsFileChoice } from "../settings";
import { describeError } from "../shared/describe-error";
import type { PreviewedPermissions } from "./previewed-permissions";

/** What the section needs from the plugin. */
export interface ClaudePermissionsHost {
	settings: BridgeSettings;
	readonly vaultPath: string | undefined;
	saveSettings(): Promise<void>;
	/** The private folders and tags in force (Excluded files included when that option is on) and the config folder. */
	denyRuleSources(): DenyRuleSources;
	/** What was written after a preview on this device: the automatic update acts on nothing else. */
	readonly previewedPermissions: PreviewedPermissions;
}

interface Target {
	enabled: boolean;
	file: SettingsFileChoice;
}

/**
 * "Claude Code's file tools": the option that writes deny rules for Claude Code's built-in Read/Grep/Edit, and the
 * file they go into. Nothing is written before the user has seen the exact change and confirmed it; a confirmed
 * write is remembered on this device, which is what lets the automatic update (ClaudePermissionsSync) follow.
 */
export class ClaudePermissionsSection {
	private preview: HTMLElement | undefined;
	/** The "waiting for your preview" row, emptied once a previewed write is made. */
	private waiting: HTMLElement | undefined;
	/** Set while a control is put back: Obsidian's toggle may report its own setValue as a change. */
	private reverting = false;

	constructor(private readonly host: ClaudePermissionsHost) {}

	display(containerEl: HTMLElement): void {
		const { settings } = this.host;
		new Setting(containerEl).setName("Claude Code's file tools").setHeading();
		new Setting(containerEl)
			.setName("Keep private folders out of Claude Code's file tools")
			.setDesc(
				"The rules above cover what the bridge sends and serves; Claude Code's own file tools open vault files directly. On: deny rules for the private folders, the config folder and the trash go into a Claude Code settings file, after you see the exact change. Notes private by tag are not covered.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.keepPrivateFromClaudeTools).onChange(async (value) => {
					if (this.reverting) return;
					await this.propose({ enabled: value, file: settings.claudeSettingsFile }, () => this.putBack(toggle, !value));
				}),
			);
		new Setting(containerEl)
			.setName("Use the personal settings file")
			.setDesc(`Off: ${SETTINGS_FILES.shared}, shared with everyone who opens the vault in Claude Code. On: ${SETTINGS_FILES.local}, only for you.`)
			.addToggle((toggle) =>
				toggle.setValue(settings.claudeSettingsFile === "local").onChange(async (value) => {
					if (this.reverting) return;
					const file: SettingsFileChoice = value ? "local" : "shared";
					if (!settings.keepPrivateFromClaudeTools) {
						settings.claudeSettingsFile = file;
						await this.host.saveSettings();
						return;
					}
					await this.propose({ enabled: true, file }, () => this.putBack(toggle, !value));
				}),
			);
		this.waiting = containerEl.createDiv();
		if (settings.keepPrivateFromClaudeTools && this.host.previewedPermissions.load()?.settingsFile !== SETTINGS_FILES[settings.claudeSettingsFile]) {
			new Setting(this.waiting)
				.setName("Deny rules waiting for your preview")
				.setDesc("The option is on, but the rules were not written from this device: they are not updated automatically until you see the change and write it.")
				.addButton((button) =>
					button.setButtonText("Preview the change").onClick(async () => {
						await this.propose({ enabled: true, file: settings.claudeSettingsFile }, () => undefined);
					}),
				);
		}
		this.preview = containerEl.createDiv({ cls: "claude-code-bridge-permissions-preview" });
	}

	/** Shows the change that reaching `target` makes, with buttons to make it or not; `revert` puts the control back. */
	async propose(target: Target, revert: () => void): Promise<void> {
		const preview = this.preview;
		const vaultPath = this.host.vaultPath;
		if (!preview) return;
		preview.empty();
		if (vaultPath === undefined) {
			preview.createDiv({ cls: "claude-code-bridge-setting-warning", text: "The vault is not on the local file system." });
			revert();
			return;
		}
		let deny: DenyRules;
		let plan: PermissionPlan;
		try {
			deny = await denyRulesOnDisk(vaultPath, this.host.denyRuleSources());
			plan = await planPermissions(vaultPath, target.enabled ? deny.rules : [], SETTINGS_FILES[target.file]);
		} catch (error) {
			preview.createDiv({ cls: "claude-code-bridge-setting-warning", text: `Nothing was written: ${describeError(error)}` });
			revert();
			return;
		}
		if (plan.changes.length === 0) {
			await this.commit(target, plan, revert);
			return;
		}
		for (const note of plan.notes) preview.createDiv({ cls: "claude-code-bridge-setting-warning", text: note });
		preview.createEl("p", { text: `${target.enabled ? "Writing the rules" : "Removing the rules"} makes this change:` });
		for (const change of plan.changes) preview.createEl("pre", { cls: "claude-code-bridge-permissions-diff", text: change.patch });
		if (target.enabled) {
			preview.createEl("p", { text: "Not covered:" });
			const list = preview.createEl("ul");
			for (const note of deny.uncovered) list.createEl("li", { text: note });
		}
		new Setting(preview)
			.addButton((button) =>
				button
					.setButtonText(target.enabled ? "Write the rules" : "Remove the rules")
					.setCta()
					.onClick(async () => {
						await this.commit(target, plan, revert);
					}),
			)
			.addButton((button) =>
				button.setButtonText("Cancel").onClick(() => {
					preview.empty();
					revert();
				}),
			);
	}

	private putBack(toggle: ToggleComponent, value: boolean): void {
		this.reverting = true;
		try {
			toggle.setValue(value);
		} finally {
			this.reverting = false;
		}
	}

	private async commit(target: Target, plan: PermissionPlan, revert: () => void): Promise<void> {
		const preview = this.preview;
		try {
			await applyPermissionPlan(plan);
		} catch (error) {
			preview?.empty();
			preview?.createDiv({ cls: "claude-code-bridge-setting-warning", text: `Nothing more was written: ${describeError(error)}` });
			revert();
			return;
		}
		preview?.empty();
		if (target.enabled) this.host.previewedPermissions.remember(plan.record);
		else this.host.previewedPermissions.forget();
		this.waiting?.empty();
		this.host.settings.keepPrivateFromClaudeTools = target.enabled;
		this.host.settings.claudeSettingsFile = target.file;
		await this.host.saveSettings();
		const where = SETTINGS_FILES[target.file];
		new Notice(
			plan.changes.length === 0
				? `Claude Code's deny rules: nothing to change in ${where}.`
				: `${target.enabled ? `Deny rules written into ${where}` : "Deny rules removed"}. Restart running Claude Code sessions.`,
		);
	}
}
