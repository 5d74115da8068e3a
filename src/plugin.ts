import { FileSystemAdapter, Notice, Plugin, debounce } from "obsidian";
import type { DenyRuleSources } from "./ide/claude-permissions/deny-rules";
import type { PrivacyRules } from "./vault/privacy/privacy";
import type { BridgeStatus } from "./ide/bridge-host";
import type { DoctorInputs } from "./ide/doctor/doctor";
import { ideNameFor } from "./ide/server-info";
import type { BridgeComponent } from "./obsidian/bridge/bridge-component";
import { ClaudePermissionsSection } from "./obsidian/settings/claude-permissions-section";
import { ClaudePermissionsSync } from "./obsidian/settings/claude-permissions-sync";
import { onVaultConfigChanged, readExcludedFiles } from "./obsidian/settings/excluded-files";
import { PreviewedPermissions } from "./obsidian/settings/previewed-permissions";
import { EditorTracker } from "./obsidian/editor/editor-tracker";
import { registerDiffReviewView } from "./obsidian/review/register-diff-review";
import { ACTIVITY_VIEW_TYPE, ActivityView } from "./obsidian/activity/activity-view";
import { BridgeSettingTab, type SettingsHost } from "./obsidian/settings/settings-tab";
import type { AgentEngine } from "./agent/agent-session";
import { DenyRulesOffer } from "./obsidian/agent/deny-rules-offer";
import { registerAgentPanel } from "./obsidian/agent/register-agent-view";
import { ObsidianPanelVault } from "./obsidian/agent/panel-vault";
import type { AgentSettingsHost } from "./obsidian/agent/agent-settings-section";
import { DevicePermissionRules } from "./obsidian/agent/device-permission-rules";
import { DeviceAgentSettings } from "./obsidian/agent/device-agent-settings";
import { ClaudeConfigTrustStore } from "./obsidian/agent/claude-config-trust-store";
import type { ClaudeConfigHost } from "./obsidian/agent/claude-config-notice";
import { StatusBar } from "./obsidian/bridge/status-bar";
import { TagCommands } from "./obsidian/editor/tag-commands";
import { VaultPaths } from "./vault/vault-paths";
import type { VaultToolsSettingsHost, VaultToolsStatus } from "./obsidian/settings/vault-tools-section";
import type { VaultToolsComponent } from "./obsidian/vault-tools/vault-tools-component";
import type { ObsidianNoteEvents } from "./obsidian/notes/obsidian-note-events";
import { migrateSettings, type BridgeSettings } from "./settings";
import { describeError } from "./shared/describe-error";

const STOPPED: BridgeStatus = { state: "stopped", clients: [] };

/** What starts at layout ready (src/obsidian/bridge/bridge-runtime.ts), loaded then and not with main.js. */
type BridgeRuntime = typeof import("./obsidian/bridge/bridge-runtime");

/** Lifecycle only: builds the parts, registers them, and lets unload cascade. */
export default class ClaudeCodeBridgePlugin extends Plugin implements SettingsHost {
	settings!: BridgeSettings;
	private bridge: BridgeComponent | undefined;
	/** Counts start and stop requests: a start whose modules finish loading after a later request does nothing. */
	private bridgeStarts = 0;
	private agentEngineLoad: Promise<AgentEngine> | undefined;
	private statusBar!: StatusBar;
	private settingTab!: BridgeSettingTab;
	private editorTracker!: EditorTracker;
	/** Claude's vault tools while the bridge runs with them (a child of the bridge). */
	private vaultToolsPart: VaultToolsComponent | undefined;
	/** Claude Code's deny rules the user wrote after a preview on this device (Obsidian's local storage). */
	previewedPermissions!: PreviewedPermissions;
	/** The panel's settings that can run a program or skip a question: on this device only, never in data.json. */
	private device!: DeviceAgentSettings;
	/** The panel's "always allow" rules, kept on this device. */
	private agentRules!: DevicePermissionRules;
	private readonly permissionsSync = new ClaudePermissionsSync(this, (message) => new Notice(message));
	/** Typing in the private folders box changes them per key: re-write Claude Code's rules once typing pauses. */
	private readonly syncPermissionsSoon = debounce(() => void this.permissionsSync.sync(), 1500, true);

	override async onload(): Promise<void> {
		this.settings = migrateSettings(await this.loadData());
		this.previewedPermissions = new PreviewedPermissions(this.app);
		this.device = new DeviceAgentSettings(this.app);
		this.agentRules = new DevicePermissionRules(this.device);
		this.statusBar = new StatusBar(this.addStatusBarItem());
		const access = { paths: () => this.bridge?.bridge.paths, notifier: () => this.bridge?.bridge.notifier };
		this.editorTracker = new EditorTracker(this, access);
		this.editorTracker.register();
		new TagCommands(this, access).register();
		registerDiffReviewView(this);
		this.registerView(ACTIVITY_VIEW_TYPE, (leaf) => new ActivityView(leaf, () => this.bridge?.bridge.activity));
		this.addRibbonIcon("history", "Open Claude activity", () => void this.openActivity());
		this.addCommand({ id: "open-activity", name: "Open Claude activity", callback: () => void this.openActivity() });
		const claudeConfig = this.claudeConfig();
		registerAgentPanel(this, {
			engine: () => this.agentEngine(),
			vault: new ObsidianPanelVault(this.app, () => this.bridge?.bridge.privacy),
			panelSettings: () => this.settings.agentPanel,
			denyRulesOffer: this.denyRulesOffer(),
			...(claudeConfig && { claudeConfig }),
		});
		this.settingTab = new BridgeSettingTab(this.app, this, this);
		this.addSettingTab(this.settingTab);
		this.addCommand({ id: "restart-server", name: "Restart the bridge server", callback: () => void this.applyServerSettings() });
		this.registerEvent(
			this.app.workspace.on("quit", () => {
				this.bridge?.bridge.host.removeLockFileNow();
				this.vaultToolsPart?.withdrawTokenRecordNow();
			}),
		);
		this.registerEvent(onVaultConfigChanged(this.app.vault, () => this.settings.excludedFilesArePrivate && this.privacyChanged()));
		// The server starts once the workspace is ready, so it adds nothing to Obsidian's start-up.
		this.app.workspace.onLayoutReady(() => this.startBridge());
		// The private folders or Excluded files may have changed while Obsidian was closed (a synced data.json).
		this.app.workspace.onLayoutReady(() => void this.permissionsSync.sync());
	}

	/** Shows the activity view (in the right sidebar, once). */
	async openActivity(): Promise<void> {
		const { workspace } = this.app;
		let leaf = workspace.getLeavesOfType(ACTIVITY_VIEW_TYPE)[0];
		if (!leaf) {
			leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf("tab");
			await leaf.setViewState({ type: ACTIVITY_VIEW_TYPE, active: true });
		}
		await workspace.revealLeaf(leaf);
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
			state: () => import("./agent/project-config-trust").then((trust) => trust.projectConfigState(vaultPath, store)),
			trust: (fingerprint) => store.trust(fingerprint),
		};
	}

	/** The panel's engine, loaded the first time a panel asks (its module is not loaded with the plugin). */
	private agentEngine(): Promise<AgentEngine> {
		const projectTrust = this.claudeConfigTrust();
		this.agentEngineLoad ??= import("./obsidian/agent/agent-engine-runtime").then(
			(runtime) =>
				runtime.createAgentEngine({
					vaultPath: this.vaultPath,
					cliPath: () => this.device.cliPath(),
					bridge: () => this.bridge?.bridge,
					rules: this.agentRules,
					denyRulesWanted: () => this.settings.keepPrivateFromClaudeTools,
					...(projectTrust && { projectTrust }),
				}),
			(error: unknown) => {
				this.agentEngineLoad = undefined;
				throw error;
			},
		);
		return this.agentEngineLoad;
	}

	/** The panel's one-time offer of the deny rules: the same preview and write as the settings tab's toggle. */
	private denyRulesOffer(): DenyRulesOffer {
		return new DenyRulesOffer({
			due: () => !this.settings.agentPanel.denyRulesOffered && !this.settings.keepPrivateFromClaudeTools && this.vaultPath !== undefined && this.denyRuleSources().folders.length > 0,
			answered: async () => {
				this.settings.agentPanel.denyRulesOffered = true;
				await this.saveSettings();
			},
			preview: (containerEl, done) => new ClaudePermissionsSection(this).proposeOnIn(containerEl, done),
		});
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
			...(config && store && { claudeConfigTrust: { state: () => config.state(), revoke: () => store.revoke() } }),
		};
	}

	get vaultPath(): string | undefined {
		const adapter = this.app.vault.adapter;
		return adapter instanceof FileSystemAdapter ? adapter.getBasePath() : undefined;
	}

	async saveSettings(): Promise<void> {
		await this.saveData(this.settings);
	}

	bridgeStatus(): BridgeStatus {
		return this.bridge?.bridge.host.status() ?? STOPPED;
	}

	async applyServerSettings(): Promise<void> {
		await this.stopBridge();
		this.startBridge();
	}

	applyLiveSettings(): void {
		this.bridge?.bridge.notifier.setDebounceMs(this.settings.selectionDebounceMs);
		this.bridge?.bridge.diffTools.setEnabled(this.settings.reviewEditsInObsidian);
	}

	doctorInputs(): DoctorInputs {
		return { vaultPath: this.vaultPath, status: this.bridgeStatus(), pid: process.pid, ideName: ideNameFor(this.app.vault.getName()), permissionRules: this.permissionsSync.doctorInputs() };
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

	async rotateToken(): Promise<BridgeStatus> {
		if (!this.bridge) throw new Error("The bridge is not running");
		return this.bridge.bridge.host.rotateToken();
	}

	/** What the settings tab's vault tools rows read and change. */
	get vaultTools(): VaultToolsSettingsHost {
		return {
			vaultPath: this.vaultPath,
			vaultToolsSettings: () => this.settings.vaultTools,
			saveSettings: () => this.saveSettings(),
			applyServerSettings: () => this.applyServerSettings(),
			vaultToolsStatus: () => this.vaultToolsStatus(),
			rotateMcpToken: () => {
				if (!this.vaultToolsPart) throw new Error("the vault tools are not running");
				this.vaultToolsPart.rotateToken();
			},
		};
	}

	vaultToolsStatus(): VaultToolsStatus {
		const part = this.vaultToolsPart;
		const http = part?.httpStatus();
		return { running: part !== undefined, relays: this.bridgeStatus().relays ?? 0, ...(http ? { http } : {}) };
	}

	/** Loads the bridge's modules, then starts it, unless it was stopped (or the plugin unloaded) meanwhile. */
	private startBridge(): void {
		const start = ++this.bridgeStarts;
		import("./obsidian/bridge/bridge-runtime").then(
			(runtime) => {
				if (start === this.bridgeStarts) this.startLoadedBridge(runtime);
			},
			(error: unknown) => new Notice(`Claude Code Bridge could not load its server: ${describeError(error)}`),
		);
	}

	override onunload(): void {
		this.bridgeStarts++;
	}

	private startLoadedBridge(runtime: BridgeRuntime): void {
		const { BridgeComponent } = runtime;
		if (!this.settings.enabled || this.bridge) return;
		const vaultPath = this.vaultPath;
		if (!vaultPath) {
			new Notice("Claude Code Bridge needs a vault on the local file system.");
			return;
		}
		// One subscriber to the vault's and the metadata cache's events for the diagnostics and the vault tools alike.
		const noteEvents = new runtime.ObsidianNoteEvents(this.app.vault, this.app.metadataCache);
		const vaultTools = this.settings.vaultTools.enabled ? this.createVaultTools(runtime, vaultPath, noteEvents) : undefined;
		this.bridge = this.addChild(
			new BridgeComponent({
				app: this.app,
				noteEvents,
				vaultPath,
				settings: this.settings,
				privacyRules: () => this.privacyRules(),
				currentSelection: () => this.editorTracker.currentSelection(),
				onStatusChange: (status) => {
					this.statusBar.show(status);
					this.settingTab.refreshStatus();
				},
				...(vaultTools ? { vaultTools: vaultTools.assemblyOptions() } : {}),
				journal: runtime.pluginJournal(this.app, vaultPath, this.manifest),
			}),
		);
		const server = this.bridge.bridge.vaultTools;
		if (vaultTools && server) {
			vaultTools.serve(server);
			this.vaultToolsPart = this.bridge.addChild(vaultTools);
		}
	}

	/** The vault tools' Obsidian side, built at layout ready with the bridge (nothing of it runs during plugin load). */
	private createVaultTools(runtime: BridgeRuntime, vaultPath: string, noteEvents: ObsidianNoteEvents): VaultToolsComponent {
		return new runtime.VaultToolsComponent({
			app: this.app,
			noteEvents,
			paths: new VaultPaths(vaultPath),
			settings: () => this.settings.vaultTools,
			savePort: async (port) => {
				this.settings.vaultTools.httpPort = port;
				await this.saveSettings();
			},
			onStatusChange: () => this.settingTab.refreshStatus(),
			log: (message) => {
				if (this.settings.debugLogging) console.debug(`[Claude Code Bridge] vault tools: ${message}`);
			},
		});
	}

	private async stopBridge(): Promise<void> {
		this.bridgeStarts++;
		const bridge = this.bridge;
		if (!bridge) return;
		const vaultTools = this.vaultToolsPart;
		this.bridge = undefined;
		this.vaultToolsPart = undefined;
		this.removeChild(bridge);
		this.statusBar.show(STOPPED);
		await bridge.stopped;
		await vaultTools?.stopped;
	}
}
