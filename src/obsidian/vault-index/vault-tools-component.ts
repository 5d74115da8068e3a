import { Component, moment, type App } from "obsidian";
import type { VaultToolsAssemblyOptions } from "../../bridge/bridge-assembly";
import type { SelectionSnapshot } from "../../bridge/selection";
import type { VaultPaths } from "../../bridge/vault-paths";
import type { McpHttpServer, McpHttpStatus } from "../../server/http/mcp-http-server";
import type { VaultToolsSettings } from "../../settings";
import type { ActiveNote } from "../../vault-tools/ports";
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
	/** The editor tracker's active note and selection. */
	currentSelection: () => SelectionSnapshot | undefined;
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
	private http: McpHttpServer | undefined;
	private ready = false;
	private isPrivate: ((relativePath: string) => boolean) | undefined;

	constructor(private readonly options: VaultToolsComponentOptions) {
		super();
		const { app } = options;
		this.index = new ObsidianVaultIndex({ vault: app.vault, metadataCache: app.metadataCache, fileManager: app.fileManager });
	}

	/** What `assembleBridge({ vaultTools })` takes. */
	assemblyOptions(): VaultToolsAssemblyOptions {
		const { app, paths } = this.options;
		const content = createVaultContentMethods({
			index: this.index,
			paths,
			// The bridge's own privacy decision once assembled; until then everything counts as private.
			isPrivate: (path) => this.isPrivate?.(path) ?? true,
			vaultName: app.vault.getName(),
			activeNote: { current: () => this.activeNote() },
			dailyNote: () => todaysDailyNote(app, formatToday),
			promptsFolder: () => this.options.settings().promptsFolder,
		});
		return {
			index: this.index,
			reviewWrites: () => this.options.settings().reviewWrites,
			writesUnavailable: () => (this.isReady() ? undefined : NOT_READY_REASON),
			methods: content.methods,
			capabilities: content.capabilities,
		};
	}

	/** Starts serving the assembled vault tools over HTTP, with the bridge's privacy decision for resources and prompts. */
	serve(server: VaultToolServer, isPrivate: (relativePath: string) => boolean): void {
		this.isPrivate = isPrivate;
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
		void this.http?.stop();
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

	private activeNote(): ActiveNote | undefined {
		const snapshot = this.options.currentSelection();
		if (!snapshot) return undefined;
		let relative: string;
		try {
			relative = this.options.paths.resolve(snapshot.filePath).relative;
		} catch {
			return undefined;
		}
		const { start, end } = snapshot.selection;
		return { path: relative, selection: { from: { ...start }, to: { ...end }, text: snapshot.text } };
	}
}
