import { PluginSettingTab, type App, type Plugin } from "obsidian";
import type { BridgeSettingTab, SettingsHost } from "./settings-tab";

/**
 * The settings tab's module and its sections (the rows, the connection's words, Check connection, the vault tools'
 * and the panel's rows), initialised when the tab is first opened, not with main.js (issue 31). Obsidian calls
 * `display` and draws at once, so this is a synchronous require and not an `import()`: esbuild keeps the module
 * wrapped in main.js until this first call.
 */
function settingsTabModule(): typeof import("./settings-tab") {
	return require("./settings-tab") as typeof import("./settings-tab");
}

/** The tab Obsidian lists from plugin load; the first time it opens, it makes the settings tab, which draws in it. */
export class LazySettingTab extends PluginSettingTab {
	private tab: BridgeSettingTab | undefined;

	constructor(
		app: App,
		private readonly owner: Plugin,
		private readonly host: SettingsHost,
	) {
		super(app, owner);
	}

	display(): void {
		this.tab ??= new (settingsTabModule().BridgeSettingTab)(this.app, this.owner, this.host, this.containerEl);
		this.tab.display();
	}

	override hide(): void {
		if (this.tab) this.tab.hide();
		else super.hide();
	}

	/** Redraws the status, if the tab was ever opened (nothing of it is drawn before). */
	refreshStatus(): void {
		this.tab?.refreshStatus();
	}
}
