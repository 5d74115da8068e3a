import { Notice, Setting, type ToggleComponent } from "obsidian";
import { denyRulesFor, type DenyRuleSources, type DenyRules } from "../../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../../ide/claude-permissions/disk-spellings";
import {
	SETTINGS_FILES,
	applyPermissionPlan,
	planPermissions,
	type PermissionPlan,
} from "../../ide/claude-permissions/permissions-file";
import type { BridgeSettings, SettingsFileChoice } from "../../settings";
import { describeError } from "../../shared/describe-error";
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

/** "Claude Code will not read or edit: Secret/, .obsidian/ — in .claude/settings.json." */
export function deniedSentence(folders: readonly string[], file: string): string {
	return `Claude Code will not read or edit: ${folders.map((folder) => `${folder}/`).join(", ")} — in ${file}.`;
}

/** Where the rules are, in the row's words (the preview names the file itself). */
const SETTINGS_FILE_WORDS: Record<SettingsFileChoice, string> = {
	shared: "the vault's shared Claude Code settings",
	local: "your personal Claude Code settings for this vault",
};

const OFF_DESC =
	"Claude Code's own Read, Grep and Edit open vault files directly, past the rules above. On: they are kept out of the private folders, the config folder and the trash by rules in a Claude Code settings file, written after you see the change. Notes private by tag are not covered.";

/**
 * The option that writes deny rules for Claude Code's built-in Read/Grep/Edit (with the tab's privacy rows), and
 * the file they go into (under Advanced, with a preview of its own). Nothing is written before the user has seen the exact change and confirmed it, and the
 * toggles show what is written, never a change that waits for confirmation; a confirmed write is remembered on this
 * device, which is what lets the automatic update (ClaudePermissionsSync) follow.
 */
export class ClaudePermissionsSection {
	private preview: HTMLElement | undefined;
	/** The preview of a change of settings file, under that row (Advanced). */
	private filePreview: HTMLElement | undefined;
	/** The "waiting for your preview" row, emptied once a previewed write is made. */
	private waiting: HTMLElement | undefined;
	private keep: { setting: Setting; toggle: ToggleComponent } | undefined;
	private personal: ToggleComponent | undefined;
	/** Set while a toggle is set from the settings: Obsidian's toggle may report its own setValue as a change. */
	private showing = false;
	/** Called once the preview is answered (written or cancelled), for a preview shown outside the tab. */
	private onAnswered: (() => void) | undefined;

	constructor(private readonly host: ClaudePermissionsHost) {}

	/** Under Privacy: the option, the rows waiting for a preview, and where the preview shows. */
	display(containerEl: HTMLElement): void {
		const { settings } = this.host;
		const keep = new Setting(containerEl).setName("Keep private folders out of Claude Code's file tools");
		keep.addToggle((toggle) => {
			this.keep = { setting: keep, toggle };
			toggle.onChange(async (value) => {
				if (this.showing) return;
				this.showWritten();
				await this.propose({ enabled: value, file: settings.claudeSettingsFile });
			});
		});
		this.showWritten();
		this.waiting = containerEl.createDiv();
		if (
			settings.keepPrivateFromClaudeTools &&
			this.host.previewedPermissions.load()?.settingsFile !== SETTINGS_FILES[settings.claudeSettingsFile]
		) {
			new Setting(this.waiting)
				.setName("Deny rules waiting for your preview")
				.setDesc(
					"The option is on, but the rules were not written from this device: they are not updated automatically until you see the change and write it.",
				)
				.addButton((button) =>
					button.setButtonText("Preview the change").onClick(async () => {
						await this.propose({ enabled: true, file: settings.claudeSettingsFile });
					}),
				);
		}
		this.preview = containerEl.createDiv({ cls: "claude-code-bridge-permissions-preview" });
	}

	/** Under Advanced: which Claude Code settings file holds the rules, with its own preview under it. */
	displayFileChoice(containerEl: HTMLElement): void {
		const { settings } = this.host;
		new Setting(containerEl)
			.setName("Use the personal settings file")
			.setDesc(
				`Off: ${SETTINGS_FILES.shared}, shared with everyone who opens the vault in Claude Code. On: ${SETTINGS_FILES.local}, only for you.`,
			)
			.addToggle((toggle) => {
				this.personal = toggle;
				toggle.onChange(async (value) => {
					if (this.showing) return;
					const file: SettingsFileChoice = value ? "local" : "shared";
					if (!settings.keepPrivateFromClaudeTools) {
						settings.claudeSettingsFile = file;
						await this.host.saveSettings();
						this.showWritten();
						return;
					}
					this.showWritten();
					await this.propose({ enabled: true, file }, this.filePreview);
				});
			});
		this.showWritten();
		this.filePreview = containerEl.createDiv({ cls: "claude-code-bridge-permissions-preview" });
	}

	/** The change that turning the option on makes, shown in `containerEl` alone (the panel's offer), to write or cancel as in the tab. */
	async proposeOnIn(containerEl: HTMLElement, onAnswered: () => void): Promise<void> {
		this.preview = containerEl.createDiv({ cls: "claude-code-bridge-permissions-preview" });
		this.onAnswered = onAnswered;
		await this.propose({ enabled: true, file: this.host.settings.claudeSettingsFile });
	}

	/** The toggles and the description as written: what the settings say, not a change that waits for its preview. */
	private showWritten(): void {
		const { settings } = this.host;
		this.showing = true;
		try {
			this.keep?.toggle.setValue(settings.keepPrivateFromClaudeTools);
			this.personal?.setValue(settings.claudeSettingsFile === "local");
		} finally {
			this.showing = false;
		}
		this.keep?.setting.setDesc(
			settings.keepPrivateFromClaudeTools
				? deniedSentence(
						denyRulesFor(this.host.denyRuleSources()).folders,
						SETTINGS_FILE_WORDS[settings.claudeSettingsFile],
					)
				: OFF_DESC,
		);
	}

	/** Shows, in a sentence and behind "Show file change" the exact patch, the change that reaching `target` makes, with buttons to make it or not. */
	async propose(target: Target, preview = this.preview): Promise<void> {
		const vaultPath = this.host.vaultPath;
		if (!preview) return;
		// One change waits at a time: a preview shown elsewhere in the tab is withdrawn.
		this.preview?.empty();
		this.filePreview?.empty();
		if (vaultPath === undefined) {
			preview.createDiv({
				cls: "claude-code-bridge-setting-warning",
				text: "The vault is not on the local file system.",
			});
			return;
		}
		let deny: DenyRules;
		let plan: PermissionPlan;
		try {
			deny = await denyRulesOnDisk(vaultPath, this.host.denyRuleSources());
			plan = await planPermissions(vaultPath, target.enabled ? deny.rules : [], SETTINGS_FILES[target.file]);
		} catch (error) {
			preview.createDiv({
				cls: "claude-code-bridge-setting-warning",
				text: `Nothing was written: ${describeError(error)}`,
			});
			return;
		}
		if (plan.changes.length === 0) {
			await this.commit(target, plan, preview);
			return;
		}
		for (const note of plan.notes) preview.createDiv({ cls: "claude-code-bridge-setting-warning", text: note });
		const file = SETTINGS_FILES[target.file];
		preview.createEl("p", {
			text: target.enabled
				? `Once written: ${deniedSentence(deny.folders, file)}`
				: "Once removed, Claude Code's file tools can open the private folders again.",
		});
		const change = preview.createEl("details");
		change.createEl("summary", { text: "Show file change" });
		for (const each of plan.changes)
			change.createEl("pre", { cls: "claude-code-bridge-permissions-diff", text: each.patch });
		if (target.enabled) {
			const list = preview.createEl("ul", { cls: "claude-code-bridge-permissions-uncovered" });
			for (const note of deny.uncovered) list.createEl("li", { text: note });
		}
		new Setting(preview)
			.addButton((button) =>
				button
					.setButtonText(target.enabled ? "Write the rules" : "Remove the rules")
					.setCta()
					.onClick(async () => {
						await this.commit(target, plan, preview);
					}),
			)
			.addButton((button) =>
				button.setButtonText("Cancel").onClick(() => {
					preview.empty();
					this.onAnswered?.();
				}),
			);
	}

	private async commit(target: Target, plan: PermissionPlan, preview: HTMLElement): Promise<void> {
		try {
			await applyPermissionPlan(plan);
		} catch (error) {
			preview.empty();
			preview.createDiv({
				cls: "claude-code-bridge-setting-warning",
				text: `Nothing more was written: ${describeError(error)}`,
			});
			return;
		}
		preview.empty();
		if (target.enabled) this.host.previewedPermissions.remember(plan.record);
		else this.host.previewedPermissions.forget();
		this.waiting?.empty();
		this.host.settings.keepPrivateFromClaudeTools = target.enabled;
		this.host.settings.claudeSettingsFile = target.file;
		await this.host.saveSettings();
		this.showWritten();
		const where = SETTINGS_FILES[target.file];
		new Notice(
			plan.changes.length === 0
				? `Claude Code's deny rules: nothing to change in ${where}.`
				: `${target.enabled ? `Deny rules written into ${where}` : "Deny rules removed"}. Restart running Claude Code sessions.`,
		);
		this.onAnswered?.();
	}
}
