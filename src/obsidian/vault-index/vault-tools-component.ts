import { Component, moment, type App } from "obsidian";
import type { VaultToolsAssemblyOptions } from "../../bridge/bridge-assembly";
import type { VaultPaths } from "../../bridge/vault-paths";
import type { McpHttpServer, McpHttpStatus } from "../../server/http/mcp-http-server";
import type { VaultToolsSettings } from "../../settings";
import { RegexScanner } from "../../vault-tools/regex/regex-scanner";
import { webRegexThread } from "../../vault-tools/regex/web-regex-thread";
import { createVaultContentMethods } from "../../vault-tools/resources/content-methods";
import { createVaultToolsHttpServer } from "../../vault-tools/serve/http-endpoint";
import type { VaultToolServer } from "../../vault-tools/serve/vault-tool-server";
import { todaysDailyNote } from "./daily-note";
import type { McpTokenStore } from "./mcp-token-store";
import { ObsidianVaultIndex } from "./obsidian-vault-index";

/** Obsidian's bundled moment; obsidian.d.ts types it as the module namespace, which TypeScript will not call. */
const callMoment = moment as unknown as () => { format(pattern: string): string };

function formatToday(pattern: string): string {
	return callMoment().format(pattern);
}

export const NOT_READY_REASON = "Obsidian is still indexing the vault, so notes cannot be changed safely yet (links could be missed). Nothing was changed; try again in a moment.";

export interface VaultToolsComponentOptions {
	app: App;
	paths: VaultPaths;
	/** Read on every call, so changes in the settings tab apply at once. */
	settings: () => VaultToolsSettings;
	/** Called once the first start picked the HTTP port, to keep it across restarts. */
	savePort: (port: number) => Promise<void>;
	token: McpTokenStore;
	onStatusChange?: () => void;
	log?: (message: string) => void;
}

/**
 * Claude's vault tools in Obsidian: the index over the metadata cache, the resources and prompts, and the HTTP
 * endpoint. Built at layout ready with the bridge; `assemblyOptions()` goes into `assembleBridge`, then `serve()`
 * gets the assembled server. Writes are refused until Obsidian has indexed every note (`move_note` relies on
 * Obsidian's link index).
 */
export class VaultToolsComponent extends Component {
	readonly index: ObsidianVaultIndex;
	/** Regex search in Web Workers (Electron's renderer cannot start Node worker threads), ended on unload. */
	private readonly regex = new RegexScanner({
		thread: webRegexThread,
		timers: { set: (callback, ms) => window.setTimeout(callback, ms), clear: (handle) => window.clearTimeout(handle as number) },
	});
	private http: McpHttpServer | undefined;
	private ready = false;
	/** Settles when the HTTP endpoint has closed after unload (a restart listens on the same port again). */
	stopped: Promise<void> = Promise.resolve();

	constructor(private readonly options: VaultToolsComponentOptions) {
		super();
		const { app } = options;
		this.index = new ObsidianVaultIndex({ vault: app.vault, metadataCache: app.metadataCache, fileManager: app.fileManager });
	}

	/** What `assembleBridge({ vaultTools })` takes; resources and prompts use the tools' own privacy and active note. */
	assemblyOptions(): VaultToolsAssemblyOptions {
		const { app, paths } = this.options;
		return {
			index: this.index,
			regex: this.regex,
			reviewWrites: () => this.options.settings().reviewWrites,
			writesUnavailable: () => (this.isReady() ? undefined : NOT_READY_REASON),
			content: (shared) =>
				createVaultContentMethods({
					index: this.index,
					paths,
					vaultName: app.vault.getName(),
					...shared,
					dailyNote: () => todaysDailyNote(app, formatToday),
					promptsFolder: () => this.options.settings().promptsFolder,
				}),
		};
	}

	/** Serves the assembled vault tools over HTTP (started on load). */
	serve(server: VaultToolServer): void {
		this.http = createVaultToolsHttpServer(server, {
			port: this.options.settings().httpPort ?? 0,
			token: () => this.options.token.current(),
			...(this.options.log ? { log: this.options.log } : {}),
			onStatusChange: () => this.options.onStatusChange?.(),
		});
	}

	override onload(): void {
		this.addChild(this.index);
		this.registerEvent(this.options.app.metadataCache.on("resolved", () => (this.ready = true)));
		const http = this.http;
		if (!http) return;
		void http.start().then(async (status) => {
			if (status.state === "listening" && this.options.settings().httpPort === null) await this.options.savePort(status.port);
		});
	}

	override onunload(): void {
		this.regex.dispose();
		this.stopped = this.http?.stop() ?? Promise.resolve();
	}

	httpStatus(): McpHttpStatus | undefined {
		return this.http?.status();
	}

	/** Whether Obsidian has indexed every note: after its `resolved` event, or when no note lacks a cache entry. */
	isReady(): boolean {
		if (this.ready) return true;
		const { vault, metadataCache } = this.options.app;
		this.ready = vault.getMarkdownFiles().every((file) => metadataCache.getFileCache(file) !== null);
		return this.ready;
	}
}
