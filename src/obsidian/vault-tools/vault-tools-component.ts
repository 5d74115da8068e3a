import { Component, moment, type App } from "obsidian";
import type { VaultToolsAssemblyOptions } from "../../assembly/bridge-assembly";
import type { VaultPaths } from "../../vault/vault-paths";
import { userHomeDirectory } from "../../server/lock-file";
import type { VaultToolsSettings } from "../../settings";
import { RegexScanner } from "../../vault-tools/regex/regex-scanner";
import { webRegexThread } from "../../vault-tools/regex/web-regex-thread";
import { createVaultContentMethods } from "../../vault-tools/resources/content-methods";
import { VaultToolsHttpEndpoint, type VaultToolsHttpStatus } from "../../vault-tools/serve/http-endpoint";
import type { VaultToolServer } from "../../vault-tools/serve/vault-tool-server";
import { todaysDailyNote } from "./daily-note";
import { diskNoteBytes } from "./disk-note-bytes";
import { ObsidianVaultIndex } from "./obsidian-vault-index";
import { obsidianYamlCodec } from "../notes/obsidian-yaml-codec";
import { windowPace } from "../notes/window-pace";
import type { ObsidianNoteStore } from "../notes/obsidian-note-store";

/** Obsidian's bundled moment; obsidian.d.ts types it as the module namespace, which TypeScript will not call. */
const callMoment = moment as unknown as () => { format(pattern: string): string };

function formatToday(pattern: string): string {
	return callMoment().format(pattern);
}

/** Where earlier versions kept a long-lived HTTP token in Obsidian's local storage; it is cleared at load. */
const LEGACY_TOKEN_KEY = "claude-code-bridge-mcp-token";

export const NOT_READY_REASON =
	"Obsidian is still indexing the vault, so notes cannot be changed safely yet (links could be missed). Nothing was changed; try again in a moment.";

export interface VaultToolsComponentOptions {
	app: App;
	/** The plugin's one note store (loaded by the bridge, shared with the diagnostics). */
	noteStore?: ObsidianNoteStore;
	paths: VaultPaths;
	/** Read on every call, so changes in the settings tab apply at once. */
	settings: () => VaultToolsSettings;
	/** Called once the first start picked the HTTP port, to keep it across restarts. */
	savePort: (port: number) => Promise<void>;
	/** Where the HTTP token record goes (`~/.claude-code-bridge/mcp-tokens`); default: the user's home. */
	homeDir?: string;
	onStatusChange?: () => void;
	log?: (message: string) => void;
}

/**
 * Claude's vault tools in Obsidian: the index over the metadata cache, the resources and prompts, and the HTTP
 * endpoint (a new token at every start, never in data.json or local storage; Claude Code fetches it with
 * `claude-code-bridge mcp-headers`). Built at layout ready with the bridge; `assemblyOptions()` goes into
 * `assembleBridge`, then `serve()` gets the assembled server. Writes are refused until Obsidian has indexed every
 * note (`move_note` relies on Obsidian's link index).
 */
export class VaultToolsComponent extends Component {
	readonly index: ObsidianVaultIndex;
	/** Regex search in Web Workers (Electron's renderer cannot start Node worker threads), ended on unload. */
	private readonly regex = new RegexScanner({
		thread: webRegexThread,
		timers: {
			set: (callback, ms) => window.setTimeout(callback, ms),
			clear: (handle) => window.clearTimeout(handle as number),
		},
	});
	private http: VaultToolsHttpEndpoint | undefined;
	private ready = false;
	/** Settles when the HTTP endpoint has closed after unload (a restart listens on the same port again). */
	stopped: Promise<void> = Promise.resolve();

	constructor(private readonly options: VaultToolsComponentOptions) {
		super();
		const { app } = options;
		this.index = new ObsidianVaultIndex({
			vault: app.vault,
			metadataCache: app.metadataCache,
			fileManager: app.fileManager,
			yaml: obsidianYamlCodec,
			pace: windowPace,
			readNoteBytes: diskNoteBytes(app.vault.adapter),
			...(options.noteStore ? { store: options.noteStore } : {}),
		});
	}

	/** What `assembleBridge({ vaultTools })` takes; resources and prompts use the tools' own privacy and active note. */
	assemblyOptions(): VaultToolsAssemblyOptions {
		const { app } = this.options;
		return {
			index: this.index,
			yaml: obsidianYamlCodec,
			regex: this.regex,
			reviewWrites: () => this.options.settings().reviewWrites,
			writesUnavailable: () => (this.isReady() ? undefined : NOT_READY_REASON),
			content: (shared) =>
				createVaultContentMethods({
					vaultName: app.vault.getName(),
					...shared,
					dailyNote: () => todaysDailyNote(app, formatToday),
					promptsFolder: () => this.options.settings().promptsFolder,
				}),
		};
	}

	/** Serves the assembled vault tools over HTTP (started on load). */
	serve(server: VaultToolServer): void {
		this.http = new VaultToolsHttpEndpoint(server, {
			port: this.options.settings().httpPort ?? 0,
			homeDir: this.options.homeDir ?? userHomeDirectory(),
			vaultPath: this.options.paths.root,
			...(this.options.log ? { log: this.options.log } : {}),
			onStatusChange: () => this.options.onStatusChange?.(),
		});
	}

	override onload(): void {
		this.addChild(this.index);
		this.registerEvent(this.options.app.metadataCache.on("resolved", () => (this.ready = true)));
		this.options.app.saveLocalStorage(LEGACY_TOKEN_KEY, null);
		const http = this.http;
		if (!http) return;
		void http.start().then(async (status) => {
			if (status.state === "listening" && this.options.settings().httpPort === null)
				await this.options.savePort(status.port);
		});
	}

	override onunload(): void {
		this.regex.dispose();
		this.stopped = this.http?.stop() ?? Promise.resolve();
	}

	httpStatus(): VaultToolsHttpStatus | undefined {
		return this.http?.status();
	}

	/** A new HTTP token now; the old one gets 401, and Claude Code fetches the new one when it reconnects. */
	rotateToken(): void {
		if (!this.http) throw new Error("the vault tools' HTTP endpoint is not running");
		this.http.rotate();
	}

	/** Removes the HTTP token record at once (Obsidian is quitting). */
	withdrawTokenRecordNow(): void {
		this.http?.withdrawNow();
	}

	/** Whether Obsidian has indexed every note: after its `resolved` event, or when no note lacks a cache entry. */
	isReady(): boolean {
		if (this.ready) return true;
		const { vault, metadataCache } = this.options.app;
		this.ready = vault.getMarkdownFiles().every((file) => metadataCache.getFileCache(file) !== null);
		return this.ready;
	}
}
