import { FileSystemAdapter, Notice, Plugin } from "obsidian";
import { BridgeComponent } from "./obsidian/bridge-component";
import { StatusBar } from "./obsidian/status-bar";
import { migrateSettings, type BridgeSettings } from "./settings";

/** Lifecycle only: builds the parts, registers them, and lets unload cascade. */
export default class ClaudeCodeBridgePlugin extends Plugin {
	settings!: BridgeSettings;
	private bridge: BridgeComponent | undefined;
	private statusBar!: StatusBar;

	override async onload(): Promise<void> {
		this.settings = migrateSettings(await this.loadData());
		this.statusBar = new StatusBar(this.addStatusBarItem());
		this.addCommand({ id: "restart-server", name: "Restart the bridge server", callback: () => void this.restartBridge() });
		this.registerEvent(this.app.workspace.on("quit", () => this.bridge?.host.removeLockFileNow()));
		// The server starts once the workspace is ready, so it adds nothing to Obsidian's start-up.
		this.app.workspace.onLayoutReady(() => this.startBridge());
	}

	private startBridge(): void {
		if (!this.settings.enabled || this.bridge) return;
		const adapter = this.app.vault.adapter;
		if (!(adapter instanceof FileSystemAdapter)) {
			new Notice("Claude Code Bridge needs a vault on the local file system.");
			return;
		}
		this.bridge = this.addChild(
			new BridgeComponent({
				vaultPath: adapter.getBasePath(),
				vaultName: this.app.vault.getName(),
				settings: this.settings,
				onStatusChange: (status) => this.statusBar.show(status),
			}),
		);
	}

	private async stopBridge(): Promise<void> {
		const bridge = this.bridge;
		if (!bridge) return;
		this.bridge = undefined;
		this.removeChild(bridge);
		this.statusBar.show({ state: "stopped", clients: [] });
		await bridge.stopped;
	}

	async restartBridge(): Promise<void> {
		await this.stopBridge();
		this.startBridge();
	}
}
