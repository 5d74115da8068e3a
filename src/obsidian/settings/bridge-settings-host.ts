import { FileSystemAdapter, Notice, debounce, type App, type EventRef } from "obsidian";
import { describeError } from "../../shared/describe-error";
import type { Bridge } from "../../assembly/bridge-assembly";
import type { BridgeStatus } from "../../ide/bridge-host";
import type { DenyRuleSources } from "../../ide/claude-permissions/deny-rules";
import type { DoctorInputs } from "../../ide/doctor/doctor";
import { ideNameFor } from "../../ide/server-info";
import { migrateSettings, type BridgeSettings } from "../../settings";
import type { PrivacyRules } from "../../vault/privacy/privacy";
import type { AgentEngineContext } from "../agent/agent-engine-runtime";
import type { AgentSettingsHost } from "../agent/agent-settings-section";
import type { AgentPanelHost } from "../agent/agent-view";
import type { ClaudeConfigHost } from "../agent/claude-config-notice";
import { ClaudeConfigTrustStore } from "../agent/claude-config-trust-store";
import { DenyRulesOffer } from "../agent/deny-rules-offer";
import { DeviceAgentSettings } from "../agent/device-agent-settings";
import { DevicePermissionRules } from "../agent/device-permission-rules";
import { openAgentPanel } from "../agent/register-agent-view";
import type { VaultToolsComponent } from "../vault-tools/vault-tools-component";
import { ClaudePermissionsSection } from "./claude-permissions-section";
import { ClaudePermissionsSync } from "./claude-permissions-sync";
import { onVaultConfigChanged, readExcludedFiles } from "./excluded-files";
import { PreviewedPermissions } from "./previewed-permissions";
import type { SettingsHost } from "./settings-tab";
import type { VaultToolsSettingsHost, VaultToolsStatus } from "./vault-tools-section";

const STOPPED: BridgeStatus = { state: "stopped", clients: [] };

/** What the plugin's lifecycle lends the settings: the parts that run now, and a restart. */
export interface RunningBridge {
	/** The bridge while it runs. */
	bridge(): Bridge | undefined;
	/** Claude's vault tools while the bridge runs with them. */
	vaultTools(): Pick<VaultToolsComponent, "httpStatus" | "rotateToken"> | undefined;
	/** Stops the bridge and starts it again as the settings say. */
	restart(): Promise<void>;
}

/** How long the settings wait for the user to pause before data.json is written. */
export const SETTINGS_WRITE_PAUSE_MS = 300;

/** A data.json write asked for and not done yet: every caller waits for the same write. */
interface PendingWrite {
	written: Promise<void>;
	settle(error: unknown): void;
}

/** Where data.json is read and written (the plugin's `loadData` and `saveData`). */
export interface PluginData {
	loadData(): Promise<unknown>;
	saveData(data: unknown): Promise<void>;
}

/**
 * The plugin's settings and all that follows from them: the host of the settings tab and its sections, the privacy
 * rules (the settings plus Obsidian's Excluded files), Claude Code's deny rules kept in step, the doctor's inputs,
 * and what the agent panel reads (its settings, the deny rules offer, the settings kept on this device only).
 */
export class BridgeSettingsHost implements SettingsHost {
	/** Claude Code's deny rules the user wrote after a preview on this device (Obsidian's local storage). */
	readonly previewedPermissions: PreviewedPermissions;
	/** The panel's settings that can run a program or skip a question: on this device only, never in data.json. */
	private readonly device: DeviceAgentSettings;
	/** The panel's "always allow" rules, kept on this device. */
	private readonly agentRules: DevicePermissionRules;
	private readonly permissionsSync = new ClaudePermissionsSync(this, (message) => new Notice(message));
	/** Typing in the private folders box changes them per key: re-write Claude Code's rules once typing pauses. */
	private readonly syncPermissionsSoon = debounce(() => void this.permissionsSync.sync(), 1500, true);
	private readonly writeSettingsSoon = debounce(() => void this.writeSettings(), SETTINGS_WRITE_PAUSE_MS, true);
	private waitingWrite: PendingWrite | undefined;

	/** Reads data.json (migrated to the current shape). */
	static async load(app: App, data: PluginData, running: RunningBridge): Promise<BridgeSettingsHost> {
		return new BridgeSettingsHost(app, data, running, migrateSettings(await data.loadData()));
	}

	private constructor(
		private readonly app: App,
		private readonly data: PluginData,
		private readonly running: RunningBridge,
		public settings: BridgeSettings,
	) {
		this.previewedPermissions = new PreviewedPermissions(app);
		this.device = new DeviceAgentSettings(app);
		this.agentRules = new DevicePermissionRules(this.device);
	}

	get vaultPath(): string | undefined {
		const adapter = this.app.vault.adapter;
		return adapter instanceof FileSystemAdapter ? adapter.getBasePath() : undefined;
	}

	/**
	 * Writes data.json once the user pauses (typing in a field is not a write per key); resolves when written.
	 * Unload writes whatever is still waiting (`flushSettings`).
	 */
	saveSettings(): Promise<void> {
		if (!this.waitingWrite) {
			let settle: PendingWrite["settle"] = () => undefined;
			const written = new Promise<void>((resolve, reject) => {
				settle = (error) =>
					error === undefined
						? resolve()
						: reject(error instanceof Error ? error : new Error(describeError(error)));
			});
			this.waitingWrite = { written, settle };
		}
		this.writeSettingsSoon();
		return this.waitingWrite.written;
	}

	/** Writes the settings now if a write is waiting (the plugin unloads). */
	async flushSettings(): Promise<void> {
		this.writeSettingsSoon.cancel();
		await this.writeSettings();
	}

	private async writeSettings(): Promise<void> {
		const waiting = this.waitingWrite;
		this.waitingWrite = undefined;
		if (!waiting) return;
		try {
			await this.data.saveData(this.settings);
			waiting.settle(undefined);
		} catch (error) {
			waiting.settle(error ?? new Error("the settings could not be written"));
		}
	}

	bridgeStatus(): BridgeStatus {
		return this.running.bridge()?.host.status() ?? STOPPED;
	}

	async applyServerSettings(): Promise<void> {
		await this.running.restart();
	}

	applyLiveSettings(): void {
		this.running.bridge()?.notifier.setDebounceMs(this.settings.selectionDebounceMs);
		this.running.bridge()?.diffTools.setEnabled(this.settings.reviewEditsInObsidian);
	}

	doctorInputs(): DoctorInputs {
		return {
			vaultPath: this.vaultPath,
			status: this.bridgeStatus(),
			pid: process.pid,
			ideName: ideNameFor(this.app.vault.getName()),
			permissionRules: this.permissionsSync.doctorInputs(),
		};
	}

	/** The one place the privacy rules are built: the settings, plus Obsidian's Excluded files when that option is on. */
	privacyRules(): PrivacyRules {
		const excluded = this.settings.excludedFilesArePrivate ? readExcludedFiles(this.app.vault).paths : [];
		return { folders: [...this.settings.privateFolders, ...excluded], tags: this.settings.privateTags };
	}

	denyRuleSources(): DenyRuleSources {
		return { ...this.privacyRules(), configDirs: [this.app.vault.configDir] };
	}

	privacyChanged(): void {
		this.applyLiveSettings();
		this.syncPermissionsSoon();
	}

	/** Obsidian's Excluded files changed: the privacy rules change with them when that option is on. Returns what to register. */
	followExcludedFiles(): EventRef {
		return onVaultConfigChanged(
			this.app.vault,
			() => this.settings.excludedFilesArePrivate && this.privacyChanged(),
		);
	}

	/** Re-writes Claude Code's deny rules when the private folders changed since they were written. */
	syncPermissions(): Promise<void> {
		return this.permissionsSync.sync();
	}

	async rotateToken(): Promise<BridgeStatus> {
		const bridge = this.running.bridge();
		if (!bridge) throw new Error("The bridge is not running");
		return bridge.host.rotateToken();
	}

	/** What the settings tab's vault tools rows read and change. */
	get vaultTools(): VaultToolsSettingsHost {
		return {
			vaultPath: this.vaultPath,
			vaultToolsSettings: () => this.settings.vaultTools,
			saveSettings: () => this.saveSettings(),
			applyServerSettings: () => this.applyServerSettings(),
			vaultToolsStatus: () => this.vaultToolsStatus(),
			claudeRunner: () => {
				const vaultPath = this.vaultPath;
				if (vaultPath === undefined) return undefined;
				// Loaded on the first `claude mcp` command: it brings in child_process, which plugin load should not.
				return async (args) => {
					const { claudeMcpRunner } = await import("./claude-mcp-runner");
					return claudeMcpRunner(vaultPath, () => this.device.cliPath())(args);
				};
			},
			rotateMcpToken: () => {
				const vaultTools = this.running.vaultTools();
				if (!vaultTools) throw new Error("the vault tools are not running");
				vaultTools.rotateToken();
			},
		};
	}

	vaultToolsStatus(): VaultToolsStatus {
		const part = this.running.vaultTools();
		const http = part?.httpStatus();
		return { running: part !== undefined, relays: this.bridgeStatus().relays ?? 0, ...(http ? { http } : {}) };
	}

	/** What the settings tab's "Claude Code panel" rows read and change. */
	get agentPanel(): AgentSettingsHost {
		const config = this.claudeConfig();
		const store = this.claudeConfigTrust();
		return {
			agentPanelSettings: () => this.settings.agentPanel,
			saveSettings: () => this.saveSettings(),
			alwaysAllowRules: this.agentRules,
			claudePath: this.device,
			openPanel: () => void openAgentPanel(this.app),
			...(config &&
				store && { claudeConfigTrust: { state: () => config.state(), revoke: () => store.revoke() } }),
		};
	}

	/** What the panel reads of the settings: its own, the one-time deny rules offer, the vault's Claude Code configuration. */
	panelSettings(): Pick<AgentPanelHost, "panelSettings" | "denyRulesOffer" | "claudeConfig" | "rewindPoints"> {
		const claudeConfig = this.claudeConfig();
		return {
			panelSettings: () => this.settings.agentPanel,
			denyRulesOffer: this.denyRulesOffer(),
			rewindPoints: this.device,
			...(claudeConfig && { claudeConfig }),
		};
	}

	/** What the panel's engine is built with, but the running bridge. */
	engineSettings(): Omit<AgentEngineContext, "bridge"> {
		const projectTrust = this.claudeConfigTrust();
		return {
			vaultPath: this.vaultPath,
			cliPath: () => this.device.cliPath(),
			rules: this.agentRules,
			denyRulesWanted: () => this.settings.keepPrivateFromClaudeTools,
			...(projectTrust && { projectTrust }),
		};
	}

	/** Trust in the vault's own Claude Code configuration, on this device; undefined without a vault folder. */
	private claudeConfigTrust(): ClaudeConfigTrustStore | undefined {
		const vaultPath = this.vaultPath;
		return vaultPath === undefined ? undefined : new ClaudeConfigTrustStore(this.app, vaultPath);
	}

	/** What the panel's notice reads (the configuration, read only when asked) and where its "Trust" goes. */
	private claudeConfig(): ClaudeConfigHost | undefined {
		const vaultPath = this.vaultPath;
		const store = this.claudeConfigTrust();
		if (vaultPath === undefined || store === undefined) return undefined;
		return {
			state: () =>
				import("../../agent/vault-config/project-config-trust").then((trust) =>
					trust.projectConfigState(vaultPath, store),
				),
			trust: (fingerprint) => store.trust(fingerprint),
		};
	}

	/** The panel's one-time offer of the deny rules: the same preview and write as the settings tab's toggle. */
	private denyRulesOffer(): DenyRulesOffer {
		return new DenyRulesOffer({
			due: () =>
				!this.settings.agentPanel.denyRulesOffered &&
				!this.settings.keepPrivateFromClaudeTools &&
				this.vaultPath !== undefined &&
				this.denyRuleSources().folders.length > 0,
			answered: async () => {
				this.settings.agentPanel.denyRulesOffered = true;
				await this.saveSettings();
			},
			preview: (containerEl, done) => new ClaudePermissionsSection(this).proposeOnIn(containerEl, done),
		});
	}
}
