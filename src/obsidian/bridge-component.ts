import { Component, Notice } from "obsidian";
import { BridgeHost, type BridgeStatus } from "../bridge/bridge-host";
import { SERVER_INFO, ideNameFor } from "../bridge/server-info";
import { userHomeDirectory } from "../server/lock-file";
import { ToolRegistry } from "../protocol/tool-registry";
import type { BridgeSettings } from "../settings";

export interface BridgeComponentOptions {
	vaultPath: string;
	vaultName: string;
	settings: BridgeSettings;
	onStatusChange: (status: BridgeStatus) => void;
}

/** Runs the bridge while loaded: starts on load, removes the lock file and closes the port on unload. */
export class BridgeComponent extends Component {
	readonly host: BridgeHost;
	/** Settles when the server has closed after unload. */
	stopped: Promise<void> = Promise.resolve();

	constructor(options: BridgeComponentOptions) {
		super();
		const debug = options.settings.debugLogging;
		this.host = new BridgeHost({
			vaultPath: options.vaultPath,
			ideName: ideNameFor(options.vaultName),
			homeDir: userHomeDirectory(),
			pid: process.pid,
			serverInfo: SERVER_INFO,
			tools: new ToolRegistry(),
			port: options.settings.fixedPort ?? undefined,
			scheduleInterval: (callback, intervalMs) => {
				const id = window.setInterval(callback, intervalMs);
				this.registerInterval(id);
				return () => window.clearInterval(id);
			},
			log: (message) => {
				if (debug) console.debug(`[Claude Code Bridge] ${message}`);
			},
			onStatusChange: options.onStatusChange,
		});
	}

	override onload(): void {
		void this.host.start().then((status) => {
			if (status.state === "failed") new Notice(`Claude Code Bridge could not start: ${status.error ?? "unknown error"}`);
			else if (status.warning) new Notice(`Claude Code Bridge: ${status.warning}`);
		});
	}

	override onunload(): void {
		this.host.removeLockFileNow();
		this.stopped = this.host.stop();
	}
}
