import { ItemView, type WorkspaceLeaf } from "obsidian";
import type { AgentEngine, AgentEvent, AgentPermissionMode } from "../../agent/agent-session";
import { describeError } from "../../shared/describe-error";
import { AgentTab } from "./agent-tab";
import { ClaudeConfigNotice, type ClaudeConfigHost } from "./claude-config-notice";
import type { DenyRulesOffer } from "./deny-rules-offer";
import type { PanelVault } from "./panel-vault";
import { PastSessionsList } from "./past-sessions-list";

export const AGENT_VIEW_TYPE = "claude-code-agent";

/** What the panel needs from the plugin. */
export interface AgentPanelHost {
	/** The engine, loaded the first time a panel opens (not with the plugin). */
	engine(): Promise<AgentEngine>;
	vault: PanelVault;
	/** The panel's settings now: the model and permission mode a new session starts with, the export folder. */
	panelSettings(): { model: string; permissionMode: AgentPermissionMode; exportFolder: string };
	/** The one-time offer of the deny rules for Claude Code's own file tools. */
	denyRulesOffer?: DenyRulesOffer;
	/** The vault's own Claude Code configuration and the user's trust in it on this device. */
	claudeConfig?: ClaudeConfigHost;
	/** Brings the review waiting on this note (a vault path) to the front. */
	openReview?: (vaultPath: string) => void;
}

/**
 * The "Claude Code" panel: sessions in tabs (a new tab starts a session, closing one ends it), past sessions to
 * resume, and the active tab's transcript and message box.
 */
export class AgentView extends ItemView {
	private readonly tabs: AgentTab[] = [];
	private active: AgentTab | undefined;
	private readonly tabBar: HTMLElement;
	private readonly body: HTMLElement;
	private readonly messageEl: HTMLElement;
	private readonly history: PastSessionsList;
	private readonly configNotice: ClaudeConfigNotice | undefined;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: AgentPanelHost,
	) {
		super(leaf);
		const root = this.contentEl;
		root.addClass("ccb-agent");
		const header = root.createDiv({ cls: "ccb-agent-header" });
		this.tabBar = header.createDiv({ cls: "ccb-agent-tabs", attr: { role: "tablist" } });
		const newTab = header.createEl("button", {
			cls: "ccb-agent-new-tab",
			text: "+",
			attr: { "aria-label": "New session" },
		});
		newTab.addEventListener("click", () => void this.newSession());
		const historyButton = header.createEl("button", {
			cls: "ccb-agent-history-button",
			text: "History",
			attr: { "aria-label": "Past sessions" },
		});
		const noticeEl = root.createDiv();
		this.configNotice = host.claudeConfig
			? new ClaudeConfigNotice(noticeEl, this.app, host.claudeConfig, () =>
					this.restartActiveSession().then(() => undefined),
				)
			: undefined;
		this.messageEl = root.createDiv({ cls: ["ccb-agent-message", "is-hidden"] });
		this.history = new PastSessionsList(root, (sessionId) => void this.resume(sessionId));
		historyButton.addEventListener("click", () => void this.toggleHistory());
		this.body = root.createDiv({ cls: "ccb-agent-body" });
	}

	getViewType(): string {
		return AGENT_VIEW_TYPE;
	}

	getDisplayText(): string {
		return "Claude Code";
	}

	override getIcon(): string {
		return "bot";
	}

	/** Obsidian calls this when the panel changes size: more or fewer rows are in view. */
	override onResize(): void {
		this.active?.list.draw();
	}

	override async onOpen(): Promise<void> {
		await this.newSession();
	}

	override onClose(): Promise<void> {
		const closing = this.tabs.splice(0).map((tab) => this.endTab(tab));
		return Promise.all(closing).then(() => undefined);
	}

	/** The sessions open in this panel, in tab order. */
	get sessions(): readonly AgentTab[] {
		return this.tabs;
	}

	get activeTab(): AgentTab | undefined {
		return this.active;
	}

	/** Starts a session in a new tab. */
	async newSession(): Promise<AgentTab | undefined> {
		return this.openTab(undefined, []);
	}

	/** Shows a past session's transcript in a new tab and resumes it there. */
	async resume(sessionId: string): Promise<AgentTab | undefined> {
		const engine = await this.loadEngine();
		if (!engine) return undefined;
		let history: AgentEvent[] = [];
		try {
			history = await engine.history(sessionId);
		} catch (error) {
			this.showMessage(`The session's history could not be read: ${describeError(error)}`);
		}
		this.history.hide();
		return this.openTab(sessionId, history);
	}

	/**
	 * Ends the active tab's session and starts it again in a new tab (resumed when the CLI had given it an id), so
	 * that a change of what the CLI may load counts; the other tabs keep their sessions.
	 */
	async restartActiveSession(): Promise<AgentTab | undefined> {
		const tab = this.active;
		const sessionId = tab?.session.sessionId;
		if (tab) {
			this.tabs.splice(this.tabs.indexOf(tab), 1);
			this.active = undefined;
			await this.endTab(tab);
		}
		const restarted = sessionId !== undefined ? await this.resume(sessionId) : await this.newSession();
		this.drawTabs();
		return restarted;
	}

	/** Ends the tab's session and closes it; the panel keeps at least one tab. */
	async closeTab(tab: AgentTab): Promise<void> {
		const index = this.tabs.indexOf(tab);
		if (index < 0) return;
		this.tabs.splice(index, 1);
		await this.endTab(tab);
		if (this.active === tab) this.active = undefined;
		const next = this.tabs[Math.min(index, this.tabs.length - 1)];
		if (next) this.activate(next);
		else await this.newSession();
		this.drawTabs();
	}

	activate(tab: AgentTab): void {
		this.active = tab;
		for (const each of this.tabs) each.el.toggleClass("is-hidden", each !== tab);
		this.drawTabs();
		tab.list.redraw();
	}

	private async openTab(resume: string | undefined, history: readonly AgentEvent[]): Promise<AgentTab | undefined> {
		const engine = await this.loadEngine();
		if (!engine) return undefined;
		const settings = this.host.panelSettings();
		try {
			const session = engine.start({
				permissionMode: settings.permissionMode,
				...(settings.model !== "" ? { model: settings.model } : {}),
				...(resume !== undefined ? { resume } : {}),
			});
			const tab = new AgentTab(this.body, {
				app: this.app,
				session,
				vault: this.host.vault,
				history,
				permissionMode: settings.permissionMode,
				model: settings.model,
				exportFolder: () => this.host.panelSettings().exportFolder,
				onTitle: () => this.drawTabs(),
				...(this.host.openReview && { openReview: this.host.openReview }),
			});
			this.tabs.push(tab);
			this.addChild(tab);
			this.activate(tab);
			this.host.denyRulesOffer?.showIn(tab.offerSlot);
			void this.configNotice?.refresh();
			return tab;
		} catch (error) {
			this.showMessage(`Claude Code could not start: ${describeError(error)}`);
			return undefined;
		}
	}

	private async endTab(tab: AgentTab): Promise<void> {
		this.removeChild(tab);
		tab.el.remove();
		try {
			await tab.session.close();
		} catch {
			// The process is gone either way; nothing is left to end.
		}
	}

	private async loadEngine(): Promise<AgentEngine | undefined> {
		try {
			const engine = await this.host.engine();
			this.messageEl.toggleClass("is-hidden", true);
			return engine;
		} catch (error) {
			this.showMessage(`Claude Code could not be loaded: ${describeError(error)}`);
			return undefined;
		}
	}

	private async toggleHistory(): Promise<void> {
		if (this.history.visible) {
			this.history.hide();
			return;
		}
		const engine = await this.loadEngine();
		if (!engine) return;
		try {
			this.history.show(await engine.pastSessions());
		} catch (error) {
			this.showMessage(`Past sessions could not be listed: ${describeError(error)}`);
		}
	}

	private showMessage(text: string): void {
		this.messageEl.setText(text);
		this.messageEl.toggleClass("is-hidden", false);
	}

	private drawTabs(): void {
		this.tabBar.empty();
		for (const tab of this.tabs) {
			const item = this.tabBar.createDiv({
				cls: [
					"ccb-agent-tab-title",
					...(tab === this.active ? ["is-active"] : []),
					...(tab.session.busy ? ["is-busy"] : []),
				],
			});
			item.createEl("button", {
				cls: "ccb-agent-tab-name",
				text: tab.displayTitle,
				attr: {
					role: "tab",
					"aria-selected": String(tab === this.active),
					...(tab.session.busy && { "aria-description": "Claude is working" }),
				},
			}).addEventListener("click", () => this.activate(tab));
			const close = item.createEl("button", {
				cls: "ccb-agent-tab-close",
				text: "×",
				attr: { "aria-label": "Close session" },
			});
			close.addEventListener("click", () => void this.closeTab(tab));
		}
	}
}
