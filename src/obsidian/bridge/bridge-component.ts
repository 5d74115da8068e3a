import { Component, Notice, type App } from "obsidian";
import { obsidianYamlCodec } from "../notes/obsidian-yaml-codec";
import {
	assembleBridge,
	type Bridge,
	type BridgeAssemblyOptions,
	type VaultToolsAssemblyOptions,
} from "../../assembly/bridge-assembly";
import type { BridgeStatus } from "../../ide/bridge-host";
import type { PrivacyRules } from "../../vault/privacy/privacy";
import type { SelectionSnapshot } from "../../ide/workspace/selection";
import { ideNameFor } from "../../ide/server-info";
import { VaultPaths } from "../../vault/vault-paths";
import { userHomeDirectory } from "../../server/lock-file";
import type { BridgeSettings } from "../../settings";
import { ObsidianDiagnosticsNotes } from "../notes/obsidian-diagnostics-notes";
import { ObsidianNoteStore } from "../notes/obsidian-note-store";
import { ObsidianReviewPort } from "../review/obsidian-review-port";
import { ObsidianWorkspace } from "../editor/obsidian-workspace";
import { ObsidianVaultFiles } from "../notes/obsidian-vault-files";

export interface BridgeComponentOptions {
	app: App;
	vaultPath: string;
	settings: BridgeSettings;
	/** The privacy rules in force, which the plugin builds (settings plus Obsidian's Excluded files when asked); default: the settings' folders and tags. */
	privacyRules?: () => PrivacyRules;
	/** The editor tracker's active note and selection. */
	currentSelection: () => SelectionSnapshot | undefined;
	onStatusChange: (status: BridgeStatus) => void;
	/** Where the home directory is (tests); the user's by default. */
	homeDir?: string;
	/** Claude's own vault tools (the plugin's VaultToolsComponent); left out when they are off. */
	vaultTools?: VaultToolsAssemblyOptions;
	/**
	 * The one note store (on the one subscriber to vault and cache events), shared with the vault tools' index; the
	 * bridge loads it (first, before the readers) and unloads it. One of its own when absent.
	 */
	noteStore?: ObsidianNoteStore;
	/** The activity journal's store and undo writes (over the plugin's own storage); nothing is recorded without it. */
	journal?: BridgeAssemblyOptions["journal"];
}

/**
 * Runs one assembled bridge while loaded, built from Obsidian's adapters: starts on load; on unload removes
 * the lock file, rejects pending reviews and closes the port.
 */
export class BridgeComponent extends Component {
	readonly bridge: Bridge;
	/** Settles when the server has closed after unload. */
	stopped: Promise<void> = Promise.resolve();
	private readonly notes: ObsidianDiagnosticsNotes;
	private readonly noteStore: ObsidianNoteStore;

	constructor(options: BridgeComponentOptions) {
		super();
		const { app, settings } = options;
		const paths = new VaultPaths(options.vaultPath);
		const files = new ObsidianVaultFiles(app);
		this.noteStore = options.noteStore ?? new ObsidianNoteStore(app.vault, app.metadataCache);
		this.notes = new ObsidianDiagnosticsNotes({
			vault: app.vault,
			metadataCache: app.metadataCache,
			yaml: obsidianYamlCodec,
			store: this.noteStore,
		});
		this.bridge = assembleBridge({
			paths,
			vaultName: app.vault.getName(),
			ideName: ideNameFor(app.vault.getName()),
			homeDir: options.homeDir ?? userHomeDirectory(),
			pid: process.pid,
			port: settings.fixedPort ?? undefined,
			ports: {
				files,
				tagsOf: (relativePath) => this.noteStore.tagsOf(relativePath),
				currentSelection: options.currentSelection,
				workspace: new ObsidianWorkspace(app, paths),
				notes: this.notes,
				reviewPort: (decisions) => new ObsidianReviewPort(app, decisions),
			},
			privacyRules:
				options.privacyRules ?? (() => ({ folders: settings.privateFolders, tags: settings.privateTags })),
			// A relay compares the rules with the settings in this folder: the one Obsidian uses on this device.
			configFolder: app.vault.configDir,
			debounceMs: settings.selectionDebounceMs,
			reviewEdits: settings.reviewEditsInObsidian,
			scheduleInterval: (callback, intervalMs) => {
				const id = window.setInterval(callback, intervalMs);
				this.registerInterval(id);
				return () => window.clearInterval(id);
			},
			log: (message) => {
				if (settings.debugLogging) console.debug(`[Claude Code Bridge] ${message}`);
			},
			onStatusChange: options.onStatusChange,
			...(options.vaultTools ? { vaultTools: options.vaultTools } : {}),
			...(options.journal ? { journal: options.journal } : {}),
		});
	}

	override onload(): void {
		this.addChild(this.noteStore);
		this.addChild(this.notes);
		// The diagnostics build every note's metadata when first asked about the whole vault (`refresh`), not here:
		// after a restart at 100k notes that build (~2 s in slices, and its garbage) fell on the first tool calls.
		void this.bridge.host.start().then((status) => {
			if (status.state === "failed")
				new Notice(`Claude Code Bridge could not start: ${status.error ?? "unknown error"}`);
			else if (status.warning) new Notice(`Claude Code Bridge: ${status.warning}`);
		});
	}

	override onunload(): void {
		this.bridge.dispose();
		this.bridge.host.removeLockFileNow();
		this.stopped = this.bridge.host.stop();
	}
}
