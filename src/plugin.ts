import { FileSystemAdapter, Notice, Plugin } from "obsidian";
import type { BridgeStatus } from "./bridge/bridge-host";
import type { DoctorInputs } from "./bridge/doctor/doctor";
import { ideNameFor } from "./bridge/server-info";
import { BridgeComponent } from "./obsidian/bridge-component";
import { EditorTracker } from "./obsidian/editor-tracker";
import { registerDiffReviewView } from "./obsidian/register-diff-review";
import { BridgeSettingTab, type SettingsHost } from "./obsidian/settings-tab";
import { StatusBar } from "./obsidian/status-bar";
import { TagCommands } from "./obsidian/tag-commands";
import { migrateSettings, type BridgeSettings } from "./settings";

const STOPPED: BridgeStatus = { state: "stopped", clients: [] };

/** Lifecycle only: builds the parts, registers them, and lets unload cascade. */
export default class ClaudeCodeBridgePlugin extends Plugin implements SettingsHost {
	settings!: BridgeSettings;
	private bridge: BridgeComponent | undefined;
	private statusBar!: StatusBar;
	private settingTab!: BridgeSettingTab;
	private editorTracker!: EditorTracker;

	override async onload(): Promise<void> {
		this.settings = migrateSettings(await this.loadData());
		this.statusBar = new StatusBar(this.addStatusBarItem());
		const access = { paths: () => this.bridge?.bridge.paths, notifier: () => this.bridge?.bridge.notifier };
		this.editorTracker = new EditorTracker(this, access);
		this.editorTracker.register();
		new TagCommands(this, access).register();
		registerDiffReviewView(this);
		this.settingTab = new BridgeSettingTab(this.app, this, this);
		this.addSettingTab(this.settingTab);
		this.addCommand({ id: "restart-server", name: "Restart the bridge server", callback: () => void this.applyServerSettings() });
		this.registerEvent(this.app.workspace.on("quit", () => this.bridge?.bridge.host.removeLockFileNow()));
		// The server starts once the workspace is ready, so it adds nothing to Obsidian's start-up.
		this.app.workspace.onLayoutReady(() => this.startBridge());
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
		return { vaultPath: this.vaultPath, status: this.bridgeStatus(), pid: process.pid, ideName: ideNameFor(this.app.vault.getName()) };
	}

	async rotateToken(): Promise<BridgeStatus> {
		if (!this.bridge) throw new Error("The bridge is not running");
		return this.bridge.bridge.host.rotateToken();
	}

	private startBridge(): void {
		if (!this.settings.enabled || this.bridge) return;
		const vaultPath = this.vaultPath;
		if (!vaultPath) {
			new Notice("Claude Code Bridge needs a vault on the local file system.");
			return;
		}
		this.bridge = this.addChild(
			new BridgeComponent({
				app: this.app,
				vaultPath,
				settings: this.settings,
				currentSelection: () => this.editorTracker.currentSelection(),
				onStatusChange: (status) => {
					this.statusBar.show(status);
					this.settingTab.refreshStatus();
				},
			}),
		);
	}

	private async stopBridge(): Promise<void> {
		const bridge = this.bridge;
		if (!bridge) return;
		this.bridge = undefined;
		this.removeChild(bridge);
		this.statusBar.show(STOPPED);
		await bridge.stopped;
	}
}
