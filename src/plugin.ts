import { Notice, Plugin } from "obsidian";
import type { BridgeStatus } from "./ide/bridge-host";
import type { AgentEngine } from "./agent/agent-session";
import { registerActivityView } from "./obsidian/activity/register-activity-view";
import { registerAgentPanel } from "./obsidian/agent/register-agent-view";
import { ObsidianPanelVault } from "./obsidian/agent/panel-vault";
import type { BridgeComponent } from "./obsidian/bridge/bridge-component";
import { StatusBar } from "./obsidian/bridge/status-bar";
import { EditorTracker } from "./obsidian/editor/editor-tracker";
import { InlineEditCommands } from "./obsidian/editor/inline-edit-commands";
import { TagCommands } from "./obsidian/editor/tag-commands";
import type { InlineEditService } from "./agent/inline-edit/inline-edit-service";
import { obsidianYamlCodec } from "./obsidian/notes/obsidian-yaml-codec";
import type { ObsidianNoteStore } from "./obsidian/notes/obsidian-note-store";
import { registerDiffReviewView, revealReviewOf } from "./obsidian/review/register-diff-review";
import { BridgeSettingsHost } from "./obsidian/settings/bridge-settings-host";
import { LazySettingTab } from "./obsidian/settings/lazy-settings-tab";
import type { VaultToolsComponent } from "./obsidian/vault-tools/vault-tools-component";
import { VaultPaths } from "./vault/vault-paths";
import { describeError } from "./shared/describe-error";

const STOPPED: BridgeStatus = { state: "stopped", clients: [] };

/** What starts at layout ready (src/obsidian/bridge/bridge-runtime.ts), loaded then and not with main.js. */
type BridgeRuntime = typeof import("./obsidian/bridge/bridge-runtime");

/** Lifecycle only: builds the parts, registers them, and lets unload cascade. */
export default class ClaudeCodeBridgePlugin extends Plugin {
	/** The settings and all that follows from them (the settings tab's host); set once onload has read data.json. */
	settingsHost!: BridgeSettingsHost;
	private bridge: BridgeComponent | undefined;
	/** Counts start and stop requests: a start whose modules finish loading after a later request does nothing. */
	private bridgeStarts = 0;
	private agentEngineLoad: Promise<AgentEngine> | undefined;
	private inlineEditLoad: Promise<InlineEditService> | undefined;
	private statusBar!: StatusBar;
	private settingTab!: LazySettingTab;
	private editorTracker!: EditorTracker;
	/** Claude's vault tools while the bridge runs with them (a child of the bridge). */
	private vaultToolsPart: VaultToolsComponent | undefined;

	override async onload(): Promise<void> {
		const settings = await BridgeSettingsHost.load(this.app, this, {
			bridge: () => this.bridge?.bridge,
			vaultTools: () => this.vaultToolsPart,
			restart: () => this.restartBridge(),
		});
		this.settingsHost = settings;
		this.statusBar = new StatusBar(this.addStatusBarItem());
		// The bridge starts at layout ready: until then it is starting, not off.
		if (this.settingsHost.settings.enabled) this.statusBar.show({ state: "starting", clients: [] });
		const access = { paths: () => this.bridge?.bridge.paths, notifier: () => this.bridge?.bridge.notifier };
		this.editorTracker = new EditorTracker(this, access);
		this.editorTracker.register();
		new TagCommands(this, access).register();
		new InlineEditCommands(this, () => this.inlineEditService()).register();
		registerDiffReviewView(this);
		registerActivityView(this, () => this.bridge?.bridge.activity);
		registerAgentPanel(this, {
			engine: () => this.agentEngine(),
			vault: new ObsidianPanelVault(this.app, () => this.bridge?.bridge.privacy),
			openReview: (path) => {
				if (!revealReviewOf(this.app.workspace, path)) new Notice("That review is no longer open.");
			},
			...settings.panelSettings(),
		});
		this.settingTab = new LazySettingTab(this.app, this, settings);
		this.addSettingTab(this.settingTab);
		this.addCommand({
			id: "restart-server",
			name: "Restart the bridge server",
			callback: () => void this.restartBridge(),
		});
		this.registerEvent(
			this.app.workspace.on("quit", () => {
				this.bridge?.bridge.host.removeLockFileNow();
				this.vaultToolsPart?.withdrawTokenRecordNow();
			}),
		);
		this.registerEvent(settings.followExcludedFiles());
		// The server starts once the workspace is ready, so it adds nothing to Obsidian's start-up.
		this.app.workspace.onLayoutReady(() => this.startBridge());
		// The private folders or Excluded files may have changed while Obsidian was closed (a synced data.json).
		this.app.workspace.onLayoutReady(() => void settings.syncPermissions());
	}

	/** The panel's engine, loaded the first time a panel asks (its module is not loaded with the plugin). */
	private agentEngine(): Promise<AgentEngine> {
		this.agentEngineLoad ??= import("./obsidian/agent/agent-engine-runtime").then(
			(runtime) =>
				runtime.createAgentEngine({ ...this.settingsHost.engineSettings(), bridge: () => this.bridge?.bridge }),
			(error: unknown) => {
				this.agentEngineLoad = undefined;
				throw error;
			},
		);
		return this.agentEngineLoad;
	}

	/** Inline edits' service, loaded with the panel's engine module the first time an inline edit opens. */
	private inlineEditService(): Promise<InlineEditService> {
		this.inlineEditLoad ??= import("./obsidian/agent/agent-engine-runtime").then(
			(runtime) =>
				runtime.createInlineEditService({
					...this.settingsHost.engineSettings(),
					bridge: () => this.bridge?.bridge,
					yaml: obsidianYamlCodec,
				}),
			(error: unknown) => {
				this.inlineEditLoad = undefined;
				throw error;
			},
		);
		return this.inlineEditLoad;
	}

	/** Loads the bridge's modules, then starts it, unless it was stopped (or the plugin unloaded) meanwhile. */
	private startBridge(): void {
		const start = ++this.bridgeStarts;
		import("./obsidian/bridge/bridge-runtime").then(
			// Compiling the modules was a task of its own; the bridge starts in the next (a 100k-note vault makes each long).
			(runtime) =>
				window.setTimeout(() => {
					if (start === this.bridgeStarts) this.startLoadedBridge(runtime);
				}, 0),
			(error: unknown) => {
				new Notice(`Claude Code Bridge could not load its server: ${describeError(error)}`);
				this.statusBar.show({ state: "failed", clients: [], error: describeError(error) });
			},
		);
	}

	override onunload(): void {
		this.bridgeStarts++;
		void this.settingsHost.flushSettings();
	}

	private startLoadedBridge(runtime: BridgeRuntime): void {
		const { BridgeComponent } = runtime;
		const host = this.settingsHost;
		if (!host.settings.enabled || this.bridge) return;
		const vaultPath = host.vaultPath;
		if (!vaultPath) {
			new Notice("Claude Code Bridge needs a vault on the local file system.");
			this.statusBar.show({ state: "failed", clients: [], error: "the vault is not on the local file system" });
			return;
		}
		// One note store, on one subscriber to the vault's and the metadata cache's events, for the diagnostics and the vault tools alike.
		const noteStore = new runtime.ObsidianNoteStore(this.app.vault, this.app.metadataCache, {
			pace: runtime.windowPace,
		});
		const vaultTools = host.settings.vaultTools.enabled
			? this.createVaultTools(runtime, vaultPath, noteStore)
			: undefined;
		this.bridge = this.addChild(
			new BridgeComponent({
				app: this.app,
				noteStore,
				vaultPath,
				settings: host.settings,
				privacyRules: () => host.privacyRules(),
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
	private createVaultTools(
		runtime: BridgeRuntime,
		vaultPath: string,
		noteStore: ObsidianNoteStore,
	): VaultToolsComponent {
		const host = this.settingsHost;
		return new runtime.VaultToolsComponent({
			app: this.app,
			noteStore,
			paths: new VaultPaths(vaultPath),
			settings: () => host.settings.vaultTools,
			savePort: async (port) => {
				host.settings.vaultTools.httpPort = port;
				await host.saveSettings();
			},
			onStatusChange: () => this.settingTab.refreshStatus(),
			log: (message) => {
				if (host.settings.debugLogging) console.debug(`[Claude Code Bridge] vault tools: ${message}`);
			},
		});
	}

	/** Stops the bridge and starts it again as the settings say ("Restart the bridge server", a changed port). */
	private async restartBridge(): Promise<void> {
		await this.stopBridge();
		this.startBridge();
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
