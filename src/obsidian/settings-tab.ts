import { Notice, PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import type { BridgeStatus } from "../ide/bridge-host";
import type { DoctorInputs } from "../ide/doctor/doctor";
import type { DoctorLevel, DoctorLine } from "../ide/doctor/doctor-line";
import { launchCommand } from "../ide/launch-command";
import { describeUnmatchedFolderRules, foldersOfFiles, unmatchedFolderRules } from "../vault/privacy/private-folder-rules";
import { VaultPaths } from "../vault/vault-paths";
import { MAX_SELECTION_DEBOUNCE_MS, isPort, parseList, type BridgeSettings } from "../settings";
import { describeError } from "../shared/describe-error";
import { ClaudePermissionsSection, type ClaudePermissionsHost } from "./claude-permissions-section";
import { displayVaultToolsSection, type VaultToolsSettingsHost } from "./settings/vault-tools-section";

/**
 * Obsidian gives plugins no say in how a hotkey is matched, so AltGr (which Windows reports as Ctrl+Alt) triggers
 * the default Ctrl+Alt+K; the README's "The default hotkey and AltGr" section says the same.
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
	/** The "Vault tools for Claude" section's host; left out, the section is not shown. */
	readonly vaultTools?: VaultToolsSettingsHost;
}

/** The bridge's settings: server, status and token, connecting, context and privacy, edits, advanced. */
export class BridgeSettingTab extends PluginSettingTab {
	private statusContainer: HTMLElement | undefined;
	private vaultToolsSection: { refresh(): void } | undefined;
	/** Under the private folders: the rules that match no folder (they protect nothing). */
	private folderRuleWarning: HTMLElement | undefined;

	constructor(app: App, plugin: Plugin, private readonly host: SettingsHost) {
		super(app, plugin);
	}

	display(): void {
		const { containerEl } = this;
		containerEl.empty();
		const { settings } = this.host;

		new Setting(containerEl).setName("Server").setHeading();
		new Setting(containerEl)
			.setName("Run the bridge")
			.setDesc("Listen on 127.0.0.1 so that Claude Code can connect with /ide.")
			.addToggle((toggle) =>
				toggle.setValue(settings.enabled).onChange(async (value) => {
					settings.enabled = value;
					await this.host.saveSettings();
					await this.host.applyServerSettings();
					this.refreshStatus();
				}),
			);
		new Setting(containerEl)
			.setName("Fixed port")
			.setDesc("Leave empty for a random free port (recommended: two vaults never collide).")
			.addText((text) =>
				text
					.setPlaceholder("Random")
					.setValue(settings.fixedPort === null ? "" : String(settings.fixedPort))
					.onChange(async (value) => {
						const trimmed = value.trim();
						const port = Number(trimmed);
						if (trimmed !== "" && !isPort(port)) return;
						settings.fixedPort = trimmed === "" ? null : port;
						await this.host.saveSettings();
					}),
			)
			.addButton((button) =>
				button.setButtonText("Restart").onClick(async () => {
					await this.host.applyServerSettings();
					this.refreshStatus();
				}),
			);

		new Setting(containerEl).setName("Status").setHeading();
		this.statusContainer = containerEl.createDiv({ cls: "claude-code-bridge-settings-status" });
		this.refreshStatus();

		new Setting(containerEl).setName("Connecting").setHeading();
		const vaultPath = this.host.vaultPath;
		new Setting(containerEl)
			.setName("Launch command")
			.setDesc(vaultPath ? launchCommand(vaultPath) : "The vault is not on the local file system.")
			.addButton((button) =>
				button
					.setButtonText("Copy launch command")
					.setDisabled(!vaultPath)
					.onClick(async () => {
						if (!vaultPath) return;
						await navigator.clipboard.writeText(launchCommand(vaultPath));
						new Notice("Launch command copied.");
					}),
			);
		const checklist = containerEl.createEl("ul", { cls: "claude-code-bridge-checklist" });
		for (const item of TROUBLESHOOTING) checklist.createEl("li", { text: item });

		new Setting(containerEl).setName("Check connection").setHeading();
		const check = new Setting(containerEl)
			.setName("Why /ide does not list this vault")
			.setDesc("Checks the lock file, the port and token, the vault's path, other editors and connected clients, and says what to do about each problem.");
		const results = containerEl.createDiv({ cls: "claude-code-bridge-doctor" });
		check.addButton((button) =>
			button.setButtonText("Check connection").onClick(async () => {
				button.setDisabled(true);
				results.empty();
				results.createDiv({ cls: "claude-code-bridge-doctor-running", text: "Checking…" });
				try {
					// Loaded on the click: the doctor's connection probe pulls in ws, which plugin load should not evaluate.
					const { runDoctor } = await import("../ide/doctor/doctor");
					showDoctorLines(results, await runDoctor(this.host.doctorInputs()));
				} finally {
					button.setDisabled(false);
				}
			}),
		);

		new Setting(containerEl).setName("Context").setHeading();
		new Setting(containerEl).setName("Tag hotkey").setDesc(TAG_HOTKEY_NOTE);
		new Setting(containerEl)
			.setName("Selection delay")
			.setDesc(`Milliseconds of quiet before a selection is sent to Claude Code (0–${MAX_SELECTION_DEBOUNCE_MS}); a finished mouse or Shift selection is sent at once.`)
			.addText((text) =>
				text.setValue(String(settings.selectionDebounceMs)).onChange(async (value) => {
					const delay = Number(value.trim());
					if (!Number.isInteger(delay) || delay < 0 || delay > MAX_SELECTION_DEBOUNCE_MS) return;
					settings.selectionDebounceMs = delay;
					await this.host.saveSettings();
					this.host.applyLiveSettings();
				}),
			);
		new Setting(containerEl)
			.setName("Private folders")
			.setDesc("One folder per line. Their notes are never sent as context, tagged, or readable through the bridge.")
			.addTextArea((area) =>
				area.setValue(settings.privateFolders.join("\n")).onChange(async (value) => {
					settings.privateFolders = parseList(value);
					this.showUnmatchedFolderRules();
					await this.host.saveSettings();
					this.privacyChanged();
				}),
			);
		this.folderRuleWarning = containerEl.createDiv({ cls: "claude-code-bridge-setting-warning" });
		this.showUnmatchedFolderRules();
		new Setting(containerEl)
			.setName("Private tags")
			.setDesc("One tag per line, for example #private. Notes with these tags (or nested ones) stay private the same way.")
			.addTextArea((area) =>
				area.setValue(settings.privateTags.join("\n")).onChange(async (value) => {
					settings.privateTags = parseList(value);
					await this.host.saveSettings();
					this.privacyChanged();
				}),
			);
		new Setting(containerEl)
			.setName("Treat Obsidian's excluded files as private")
			.setDesc(
				"The folders and files in Obsidian's excluded files list (files and links settings) stay private the same way. Entries written as regular expressions (/…/) are not applied: they are not paths.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.excludedFilesArePrivate).onChange(async (value) => {
					settings.excludedFilesArePrivate = value;
					await this.host.saveSettings();
					this.privacyChanged();
				}),
			);

		const host = this.host;
		const denyRuleSources = host.denyRuleSources?.bind(host);
		const previewedPermissions = host.previewedPermissions;
		if (denyRuleSources && previewedPermissions) {
			const permissionsHost: ClaudePermissionsHost = {
				get settings() {
					return host.settings;
				},
				get vaultPath() {
					return host.vaultPath;
				},
				saveSettings: () => host.saveSettings(),
				denyRuleSources,
				previewedPermissions,
			};
			new ClaudePermissionsSection(permissionsHost).display(containerEl);
		}

		new Setting(containerEl).setName("Edits").setHeading();
		new Setting(containerEl)
			.setName("Review Claude's edits in Obsidian")
			.setDesc("Show proposed edits in a review view with accept and reject. Off: Claude Code shows its diff in the terminal.")
			.addToggle((toggle) =>
				toggle.setValue(settings.reviewEditsInObsidian).onChange(async (value) => {
					settings.reviewEditsInObsidian = value;
					await this.host.saveSettings();
					this.host.applyLiveSettings();
				}),
			);

		if (this.host.vaultTools) this.vaultToolsSection = displayVaultToolsSection(containerEl, this.host.vaultTools);

		new Setting(containerEl).setName("Advanced").setHeading();
		new Setting(containerEl)
			.setName("Debug logging")
			.setDesc("Log connections and protocol errors to the developer console. The token is never logged.")
			.addToggle((toggle) =>
				toggle.setValue(settings.debugLogging).onChange(async (value) => {
					settings.debugLogging = value;
					await this.host.saveSettings();
				}),
			);
	}

	/** Redraws the status section, if the tab is open. */
	refreshStatus(): void {
		this.vaultToolsSection?.refresh();
		const container = this.statusContainer;
		if (!container) return;
		container.empty();
		const status = this.host.bridgeStatus();
		new Setting(container).setName("State").setDesc(describeState(status));
		if (status.lockFilePath) new Setting(container).setName("Lock file").setDesc(status.lockFilePath);
		const clients = status.clients.map((client) => {
			const who = client.pid ? `pid ${client.pid}` : `connection ${client.id}`;
			return `${client.clientName ?? "client"} (${who}) since ${client.connectedAt.toLocaleTimeString()}`;
		});
		new Setting(container).setName("Connected clients").setDesc(clients.length > 0 ? clients.join("; ") : "None");
		new Setting(container)
			.setName("Token")
			.setDesc(
				status.tokenFingerprint
					? `Fingerprint ${status.tokenFingerprint}. Rotating closes every open session; Claude Code reconnects when you run /ide again.`
					: "A new token is made each time the server starts.",
			)
			.addButton((button) =>
				button
					.setButtonText("Rotate token")
					.setDisabled(status.state !== "listening")
					.onClick(async () => {
						try {
							await this.host.rotateToken();
							new Notice("Token rotated. Run /ide in Claude Code to reconnect.");
						} catch (error) {
							new Notice(`Could not rotate the token: ${describeError(error)}`);
						}
						this.refreshStatus();
					}),
			);
	}

	private privacyChanged(): void {
		if (this.host.privacyChanged) this.host.privacyChanged();
		else this.host.applyLiveSettings();
	}

	private showUnmatchedFolderRules(): void {
		const folders = foldersOfFiles(this.app.vault.getFiles().map((file) => file.path));
		const identity = this.host.vaultPath === undefined ? undefined : new VaultPaths(this.host.vaultPath).identity;
		this.folderRuleWarning?.setText(describeUnmatchedFolderRules(unmatchedFolderRules(this.host.settings.privateFolders, folders, identity)) ?? "");
	}

	override hide(): void {
		this.statusContainer = undefined;
		super.hide();
	}
}

const LEVEL_LABELS: Record<DoctorLevel, string> = { ok: "OK", warn: "Warning", fail: "Problem" };

/** One row per finding: its level, what was found, and the fix below it (muted, as setting descriptions are). */
function showDoctorLines(container: HTMLElement, lines: readonly DoctorLine[]): void {
	container.empty();
	for (const line of lines) {
		const row = container.createDiv({ cls: ["claude-code-bridge-doctor-line", `is-${line.level}`] });
		row.createSpan({ cls: "claude-code-bridge-doctor-level", text: LEVEL_LABELS[line.level] });
		row.createSpan({ cls: "claude-code-bridge-doctor-what", text: line.what });
		if (line.fix) row.createDiv({ cls: ["claude-code-bridge-doctor-fix", "setting-item-description"], text: line.fix });
	}
}

export function describeState(status: BridgeStatus): string {
	switch (status.state) {
		case "listening":
			return `Listening on 127.0.0.1:${status.port ?? "?"}${status.warning ? ` (${status.warning})` : ""}`;
		case "starting":
			return "Starting";
		case "failed":
			return `Could not start: ${status.error ?? "unknown error"}`;
		case "stopped":
			return "Off";
	}
}

const TROUBLESHOOTING = [
	"/ide lists the vault only when Claude Code runs in the vault folder or a subfolder; elsewhere set CLAUDE_CODE_SSE_PORT to the port above.",
	"The lock file above must exist and be readable by you (ls -l ~/.claude/ide).",
	"With http_proxy, https_proxy or all_proxy set, add localhost,127.0.0.1,::1 to no_proxy, or the local connection goes to the proxy.",
	"After rotating the token or restarting the bridge, run /ide again in Claude Code.",
];
