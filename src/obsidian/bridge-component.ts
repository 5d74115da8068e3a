import { Component, Notice, type App } from "obsidian";
import { assembleBridge, type Bridge } from "../bridge/bridge-assembly";
import type { BridgeStatus } from "../bridge/bridge-host";
import type { SelectionSnapshot } from "../bridge/selection";
import { ideNameFor } from "../bridge/server-info";
import { userHomeDirectory } from "../server/lock-file";
import type { BridgeSettings } from "../settings";
import { ObsidianVaultFiles } from "./vault-files";

export interface BridgeComponentOptions {
	app: App;
	vaultPath: string;
	settings: BridgeSettings;
	currentSelection: () => SelectionSnapshot | undefined;
	onStatusChange: (status: BridgeStatus) => void;
	/** Registers the IDE tools on the new bridge; the component is the owner of their cleanups. */
	setUpTools: (bridge: Bridge, owner: Component) => void;
}

/** Runs the bridge while loaded: starts on load, removes the lock file and closes the port on unload. */
export class BridgeComponent extends Component {
	readonly bridge: Bridge;
	/** Settles when the server has closed after unload. */
	stopped: Promise<void> = Promise.resolve();

	constructor(private readonly options: BridgeComponentOptions) {
		super();
		const { app, settings } = options;
		const files = new ObsidianVaultFiles(app);
		this.bridge = assembleBridge({
			vaultPath: options.vaultPath,
			ideName: ideNameFor(app.vault.getName()),
			homeDir: userHomeDirectory(),
			pid: process.pid,
			port: settings.fixedPort ?? undefined,
			files,
			tagsOf: (relativePath) => files.tagsOf(relativePath),
			privacyRules: () => ({ folders: settings.privateFolders, tags: settings.privateTags }),
			currentSelection: options.currentSelection,
			debounceMs: settings.selectionDebounceMs,
			scheduleInterval: (callback, intervalMs) => {
				const id = window.setInterval(callback, intervalMs);
				this.registerInterval(id);
				return () => window.clearInterval(id);
			},
			log: (message) => {
				if (settings.debugLogging) console.debug(`[Claude Code Bridge] ${message}`);
			},
			onStatusChange: options.onStatusChange,
		});
	}

	override onload(): void {
		this.options.setUpTools(this.bridge, this);
		void this.bridge.host.start().then((status) => {
			if (status.state === "failed") new Notice(`Claude Code Bridge could not start: ${status.error ?? "unknown error"}`);
			else if (status.warning) new Notice(`Claude Code Bridge: ${status.warning}`);
		});
	}

	override onunload(): void {
		this.bridge.notifier.dispose();
		this.bridge.host.removeLockFileNow();
		this.stopped = this.bridge.host.stop();
	}
}
