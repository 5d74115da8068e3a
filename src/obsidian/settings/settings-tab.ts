import { Notice, PluginSettingTab, Setting, type App, type ButtonComponent, type Plugin } from "obsidian";
import type { BridgeStatus } from "../../ide/bridge-host";
import type { DoctorInputs } from "../../ide/doctor/doctor";
import { launchCommand } from "../../ide/launch-command";
import {
	describeUnmatchedFolderRules,
	foldersOfFiles,
	unmatchedFolderRules,
} from "../../vault/privacy/private-folder-rules";
import { VaultPaths } from "../../vault/vault-paths";
import { MAX_SELECTION_DEBOUNCE_MS, isPort, parseList, type BridgeSettings } from "../../settings";
import { describeError } from "../../shared/describe-error";
import { ClaudePermissionsSection, type ClaudePermissionsHost } from "./claude-permissions-section";
import { showCheckResults } from "./check-results";
import { commandBlock, copyText } from "./command-block";
import { describeConnection, describeConnectionDetails } from "./connection-status";
import { VaultToolsSettingsSection, type VaultToolsSettingsHost } from "./vault-tools-section";
import { AgentSettingsSection, type AgentSettingsHost } from "../agent/agent-settings-section";

/**
 * Obsidian gives plugins no say in how a hotkey is matched, so AltGr (which Windows reports as Ctrl+Alt) triggers
 * the default Ctrl+Alt+K; docs/using.md's "The default hotkey and AltGr" section says the same.
 */
export const TAG_HOTKEY_NOTE =
	'"Tag for Claude Code" uses Ctrl+Alt+K (Cmd+Option+K on macOS) by default. On Windows, AltGr counts as Ctrl+Alt: if AltGr+K types a letter on your keyboard, set another hotkey in Settings → Hotkeys (search for "Tag for Claude Code").';

/** What the settings tab needs from the plugin. */
export interface SettingsHost {
	settings: BridgeSettings;
	readonly vaultPath: string | undefined;
	saveSettings(): Promise<void>;
	/** Private folders, tags or the Excluded files option changed: applies them and re-writes Claude Code's deny rules when that option is on (default: applyLiveSettings). */
	privacyChanged?(): void;
	/** For the "Claude Code's file tools" section, which is shown when the host gives both. */
	denyRuleSources?: ClaudePermissionsHost["denyRuleSources"];
	readonly previewedPermissions?: ClaudePermissionsHost["previewedPermissions"];
	bridgeStatus(): BridgeStatus;
	/** Starts, stops or restarts the bridge to match the settings. */
	applyServerSettings(): Promise<void>;
	/** Applies settings that need no restart (debounce, privacy, review). */
	applyLiveSettings(): void;
	rotateToken(): Promise<BridgeStatus>;
	/** What "Check connection" examines: the vault, the bridge's status, this process. */
	doctorInputs(): DoctorInputs;
	/** The host of the "Claude's vault tools" rows; left out, they are not shown. */
	readonly vaultTools?: VaultToolsSettingsHost;
	/** The host of the "Claude Code panel" rows; left out, they are not shown. */
	readonly agentPanel?: AgentSettingsHost;
}

/**
 * The bridge's settings, in the order a writer needs them. Open: Connection (may Claude Code connect and is it, how
 * to start it in this vault, Check connection, the panel), Privacy (what Claude may see), Claude's vault tools (the
 * connect button). Folded: More settings (reviews, the tag hotkey, excluded files, the panel's folders and rules,
 * the vault tools' switch and prompts), and Advanced (ports, pids, tokens, settings files, program paths, debug
 * logging). Every change clears the results of Check connection, which may no longer hold.
 */
export class BridgeSettingTab extends PluginSettingTab {
	private statusEl: HTMLElement | undefined;
	/** Under Advanced: the status with the address and the clients' pids. */
	private detailsEl: HTMLElement | undefined;
	private ideToken: { setting: Setting; button: ButtonComponent | undefined } | undefined;
	private checkResults: HTMLElement | undefined;
	private vaultToolsSection: VaultToolsSettingsSection | undefined;
	/** Under the private folders: the rules that match no folder (they protect nothing). */
	private folderRuleWarning: HTMLElement | undefined;

	/** `into`: the element to draw in, when another tab is the one Obsidian lists (lazy-settings-tab.ts). */
	constructor(
		app: App,
		plugin: Plugin,
		private readonly host: SettingsHost,
		into?: HTMLElement,
	) {
		super(app, plugin);
		if (into) this.containerEl = into;
	}

	/** A setting changed: what Check connection found may no longer hold. */
	private changed(): void {
		this.checkResults?.empty();
	}

	private async save(): Promise<void> {
		this.changed();
		await this.host.saveSettings();
	}

	display(): void {
		const { containerEl } = this;
		containerEl.empty();
		const vaultTools = this.host.vaultTools
			? new VaultToolsSettingsSection(this.host.vaultTools, () => this.changed())
			: undefined;
		this.vaultToolsSection = vaultTools;
		const agent = this.host.agentPanel ? new AgentSettingsSection(this.host.agentPanel) : undefined;
		const permissions = this.claudePermissions();

		new Setting(containerEl).setName("Connection").setHeading();
		this.displayConnection(containerEl);
		agent?.displayOpen(containerEl);

		new Setting(containerEl).setName("Privacy").setHeading();
		this.displayPrivacy(containerEl);
		permissions?.display(containerEl);

		if (vaultTools) {
			new Setting(containerEl).setName("Claude's vault tools").setHeading();
			vaultTools.displayConnect(containerEl);
		}

		const more = fold(
			containerEl,
			"More settings",
			"Reviews, the tag hotkey, excluded files, the panel and the vault tools.",
		);
		new Setting(more).setName("Reviews").setHeading();
		this.displayReviews(more);
		vaultTools?.displayReview(more);
		new Setting(more).setName("Context and privacy").setHeading();
		this.displayContextOptions(more);
		if (agent) {
			new Setting(more).setName("Claude Code panel").setHeading();
			agent.displayOptions(more);
		}
		if (vaultTools) {
			new Setting(more).setName("Claude's vault tools").setHeading();
			vaultTools.displayOptions(more);
		}

		const advanced = fold(
			containerEl,
			"Advanced",
			"Connection details, settings files, the Claude Code program, debug logging.",
		);
		new Setting(advanced).setName("Connection").setHeading();
		this.displayAdvanced(advanced);
		if (permissions) {
			new Setting(advanced).setName("Claude Code's file tools").setHeading();
			permissions.displayFileChoice(advanced);
		}
		if (agent) {
			new Setting(advanced).setName("Claude Code panel").setHeading();
			agent.displayAdvanced(advanced);
		}
		if (vaultTools) {
			new Setting(advanced).setName("Claude's vault tools").setHeading();
			vaultTools.displayAdvanced(advanced);
		}
		this.refreshStatus();
	}

	/** Whether Claude Code may connect and is connected; how to start it in this vault; Check connection. */
	private displayConnection(containerEl: HTMLElement): void {
		const { settings } = this.host;
		const allow = new Setting(containerEl)
			.setName("Let Claude Code connect")
			.setDesc("Claude Code connects to this vault with /ide, from this computer only.")
			.addToggle((toggle) =>
				toggle.setValue(settings.enabled).onChange(async (value) => {
					settings.enabled = value;
					await this.save();
					await this.host.applyServerSettings();
					this.refreshStatus();
				}),
			);
		this.statusEl = allow.descEl.createDiv({ cls: "claude-code-bridge-settings-status" });
		const start = new Setting(containerEl).setName("Start Claude Code in a terminal");
		const vaultPath = this.host.vaultPath;
		if (vaultPath === undefined)
			start.setDesc("The vault is not on the local file system: Claude Code cannot start in it.");
		else {
			const command = launchCommand(vaultPath);
			start
				.setDesc(
					"Paste the launch command into a terminal: Claude Code starts in this vault, connected. Already running there? Type /ide. Not listed? Check connection says why.",
				)
				.addButton((button) =>
					button
						.setButtonText("Copy launch command")
						.setCta()
						.onClick(() => copyText(command, "Launch command copied.")),
				);
			const shown = start.descEl.createEl("details", { cls: "ccb-other-ways" });
			shown.createEl("summary", { text: "Show the launch command" });
			commandBlock(shown, command, "Launch command copied.");
		}
		start.addButton((button) =>
			button.setButtonText("Check connection").onClick(async () => {
				const results = this.checkResults;
				if (!results) return;
				button.setDisabled(true);
				results.empty();
				results.createDiv({ cls: "claude-code-bridge-doctor-running", text: "Checking…" });
				try {
					// Loaded on the click: the doctor's connection probe pulls in ws, which plugin load should not evaluate.
					const { runDoctor } = await import("../../ide/doctor/doctor");
					showCheckResults(results, await runDoctor(this.host.doctorInputs()));
				} finally {
					button.setDisabled(false);
				}
			}),
		);
		this.checkResults = containerEl.createDiv({ cls: "claude-code-bridge-doctor" });
	}

	/** The private folders and tags. */
	private displayPrivacy(containerEl: HTMLElement): void {
		const { settings } = this.host;
		new Setting(containerEl)
			.setName("Private folders")
			.setDesc("One folder per line. Their notes are never sent to Claude, tagged, or readable through Obsidian.")
			.addTextArea((area) =>
				area.setValue(settings.privateFolders.join("\n")).onChange(async (value) => {
					settings.privateFolders = parseList(value);
					this.showUnmatchedFolderRules();
					await this.save();
					this.privacyChanged();
				}),
			);
		this.folderRuleWarning = containerEl.createDiv({ cls: "claude-code-bridge-setting-warning" });
		this.showUnmatchedFolderRules();
		new Setting(containerEl)
			.setName("Private tags")
			.setDesc(
				"One tag per line, for example #private. Notes with these tags (or nested ones) stay private the same way.",
			)
			.addTextArea((area) =>
				area.setValue(settings.privateTags.join("\n")).onChange(async (value) => {
					settings.privateTags = parseList(value);
					await this.save();
					this.privacyChanged();
				}),
			);
	}

	private displayReviews(containerEl: HTMLElement): void {
		const { settings } = this.host;
		new Setting(containerEl)
			.setName("Review Claude's edits in Obsidian")
			.setDesc(
				"Show proposed edits in a review view with accept and reject. Off: Claude Code shows its diff in the terminal.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.reviewEditsInObsidian).onChange(async (value) => {
					settings.reviewEditsInObsidian = value;
					await this.save();
					this.host.applyLiveSettings();
				}),
			);
	}

	/** The tag hotkey's note, and Obsidian's excluded files as private. */
	private displayContextOptions(containerEl: HTMLElement): void {
		const { settings } = this.host;
		new Setting(containerEl).setName("Tag hotkey").setDesc(TAG_HOTKEY_NOTE);
		new Setting(containerEl)
			.setName("Treat Obsidian's excluded files as private")
			.setDesc(
				"The folders and files in Obsidian's excluded files list (files and links settings) stay private the same way. Entries written as regular expressions (/…/) are not applied: they are not paths.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.excludedFilesArePrivate).onChange(async (value) => {
					settings.excludedFilesArePrivate = value;
					await this.save();
					this.privacyChanged();
				}),
			);
	}

	/** Under Advanced: the status with its address and pids, the port, the IDE token, the selection delay, logging. */
	private displayAdvanced(containerEl: HTMLElement): void {
		const { settings } = this.host;
		const details = new Setting(containerEl).setName("Status");
		this.detailsEl = details.descEl.createDiv({ cls: "claude-code-bridge-settings-details" });
		new Setting(containerEl)
			.setName("Fixed port")
			.setDesc(
				"The port /ide connects to. Leave empty for a random free port (recommended: two vaults never collide).",
			)
			.addText((text) =>
				text
					.setPlaceholder("Random")
					.setValue(settings.fixedPort === null ? "" : String(settings.fixedPort))
					.onChange(async (value) => {
						const trimmed = value.trim();
						const port = Number(trimmed);
						if (trimmed !== "" && !isPort(port)) return;
						settings.fixedPort = trimmed === "" ? null : port;
						await this.save();
					}),
			)
			.addButton((button) =>
				button.setButtonText("Restart").onClick(async () => {
					this.changed();
					await this.host.applyServerSettings();
					this.refreshStatus();
				}),
			);
		const ideToken: { setting: Setting; button: ButtonComponent | undefined } = {
			setting: new Setting(containerEl).setName("IDE connection token"),
			button: undefined,
		};
		ideToken.setting.addButton((button) =>
			(ideToken.button = button).setButtonText("Rotate IDE connection token").onClick(async () => {
				this.changed();
				try {
					await this.host.rotateToken();
					new Notice("IDE connection token rotated. Run /ide in Claude Code to reconnect.");
				} catch (error) {
					new Notice(`Could not rotate the IDE connection token: ${describeError(error)}`);
				}
				this.refreshStatus();
			}),
		);
		this.ideToken = ideToken;
		new Setting(containerEl)
			.setName("Selection delay")
			.setDesc(
				`Milliseconds of quiet before a selection is sent to Claude Code (0–${MAX_SELECTION_DEBOUNCE_MS}); a finished mouse or Shift selection is sent at once.`,
			)
			.addText((text) =>
				text.setValue(String(settings.selectionDebounceMs)).onChange(async (value) => {
					const delay = Number(value.trim());
					if (!Number.isInteger(delay) || delay < 0 || delay > MAX_SELECTION_DEBOUNCE_MS) return;
					settings.selectionDebounceMs = delay;
					await this.save();
					this.host.applyLiveSettings();
				}),
			);
		new Setting(containerEl)
			.setName("Debug logging")
			.setDesc("Log connections and protocol errors to the developer console. Tokens are never logged.")
			.addToggle((toggle) =>
				toggle.setValue(settings.debugLogging).onChange(async (value) => {
					settings.debugLogging = value;
					await this.save();
				}),
			);
	}

	/** The "Claude Code's file tools" rows, when the host gives what they need. */
	private claudePermissions(): ClaudePermissionsSection | undefined {
		const host = this.host;
		const denyRuleSources = host.denyRuleSources?.bind(host);
		const previewedPermissions = host.previewedPermissions;
		if (!denyRuleSources || !previewedPermissions) return undefined;
		const permissionsHost: ClaudePermissionsHost = {
			get settings() {
				return host.settings;
			},
			get vaultPath() {
				return host.vaultPath;
			},
			saveSettings: () => this.save(),
			denyRuleSources,
			previewedPermissions,
		};
		return new ClaudePermissionsSection(permissionsHost);
	}

	/** Redraws the status (bridge and vault tools) and the IDE connection token's row, if the tab is open. */
	refreshStatus(): void {
		this.vaultToolsSection?.refresh();
		const status = this.host.bridgeStatus();
		this.statusEl?.setText(describeConnection(status));
		this.detailsEl?.setText(describeConnectionDetails(status));
		const token = this.ideToken;
		if (!token) return;
		const lockFile = status.lockFilePath
			? ` It is in the lock file ${status.lockFilePath}, which only you can read.`
			: "";
		token.setting.setDesc(
			status.tokenFingerprint
				? `New at every start, and never shown here: its fingerprint is ${status.tokenFingerprint}.${lockFile} Rotating closes every open session; run /ide again to reconnect.`
				: "A new token is made each time the bridge starts.",
		);
		token.button?.setDisabled(status.state !== "listening");
	}

	private privacyChanged(): void {
		if (this.host.privacyChanged) this.host.privacyChanged();
		else this.host.applyLiveSettings();
	}

	private showUnmatchedFolderRules(): void {
		const folders = foldersOfFiles(this.app.vault.getFiles().map((file) => file.path));
		const identity = this.host.vaultPath === undefined ? undefined : new VaultPaths(this.host.vaultPath).identity;
		this.folderRuleWarning?.setText(
			describeUnmatchedFolderRules(unmatchedFolderRules(this.host.settings.privateFolders, folders, identity)) ??
				"",
		);
	}

	override hide(): void {
		this.statusEl = undefined;
		this.detailsEl = undefined;
		this.ideToken = undefined;
		this.checkResults = undefined;
		this.vaultToolsSection = undefined;
		super.hide();
	}
}

/** A fold, closed at first, whose summary is a heading row. */
function fold(containerEl: HTMLElement, name: string, desc: string): HTMLElement {
	const details = containerEl.createEl("details", { cls: "claude-code-bridge-settings-fold" });
	new Setting(details.createEl("summary")).setName(name).setDesc(desc).setHeading();
	return details;
}
