import { ItemView, type WorkspaceLeaf } from "obsidian";
import type {
	AgentEngine,
	AgentEvent,
	AgentPermissionMode,
	MessageImage,
	NotesBeforeTurns,
	TurnNotes,
} from "../../agent/agent-session";
import type { TranscriptEntry } from "../../agent/transcript/panel-transcript";
import { FORK_TITLE } from "../../agent/transcript/tool-words";
import { describeError } from "../../shared/describe-error";
import { AgentTab } from "./agent-tab";
import { ClaudeConfigNotice, type ClaudeConfigHost } from "./claude-config-notice";
import type { DenyRulesOffer } from "./deny-rules-offer";
import type { PanelVault } from "./panel-vault";
import { PastSessionsList } from "./past-sessions-list";
import { imagesNotKeptWords, RewindConfirm, rewoundWords } from "./rewind-confirm";

import { AGENT_VIEW_TYPE } from "./agent-view-type";

export { AGENT_VIEW_TYPE };

/** Said when a conversation has no id in Claude Code's record yet (its CLI never started a turn). */
const NOT_NAMED_YET = "Claude Code has not recorded this conversation yet: send a message first.";

/** How a tab's session starts and what the tab begins with. */
interface TabStart {
	resume?: string;
	resumeAt?: string;
	fork?: boolean;
	history?: readonly AgentEvent[];
	earlier?: readonly TranscriptEntry[];
	draft?: string;
	draftImages?: readonly MessageImage[];
	title?: string;
	/** The model and permission mode (default: the panel's settings). */
	choices?: { model: string; permissionMode: AgentPermissionMode };
	/** Where the tab goes in the tab bar (default: last). */
	at?: number;
}

/** A user's message in a tab's transcript that the CLI took (it has an id in the CLI's record). */
type SentMessage = Extract<TranscriptEntry, { kind: "user" }> & { messageId: string };

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
	/** Where rewound conversations went back to, until a message goes on from there (kept on this device). */
	rewindPoints?: RewindPoints;
}

/** Rewind points by session (see `DeviceAgentSettings.rewindPoint`). */
export interface RewindPoints {
	rewindPoint(sessionId: string): string | undefined;
	setRewindPoint(sessionId: string, at: string | undefined): void;
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
		return this.openTab({});
	}

	/** Shows a past session's transcript in a new tab and resumes it there. */
	async resume(sessionId: string): Promise<AgentTab | undefined> {
		const engine = await this.loadEngine();
		if (!engine) return undefined;
		// Rewound and left before a message went on: it goes on from where the rewind took it, as it showed then.
		const rewoundTo = this.host.rewindPoints?.rewindPoint(sessionId);
		let history: AgentEvent[] = [];
		try {
			history = await engine.history(sessionId, rewoundTo);
		} catch (error) {
			this.showMessage(`The session's history could not be read: ${describeError(error)}`);
		}
		this.history.hide();
		return this.openTab({ resume: sessionId, history, ...(rewoundTo !== undefined && { resumeAt: rewoundTo }) });
	}

	/**
	 * Asks, saying what it will restore, then takes the tab's conversation back to before this message of the user's:
	 * the notes Claude changed since are put back (one the user changed since opens in the review), the session goes
	 * on from the message before it (a new one when it was the first), and the message's text is back in the box.
	 */
	async rewind(tab: AgentTab, entryId: number): Promise<void> {
		const entry = sentMessage(tab, entryId);
		if (!entry || !this.idle(tab, "rewind")) return;
		const engine = await this.loadEngine();
		if (!engine) return;
		const turns = tab.transcript.turnsFrom(entryId);
		const notes = engine.turnNotes?.();
		let plan: NotesBeforeTurns | undefined;
		try {
			plan = await notes?.plan(turns);
		} catch (error) {
			tab.say(
				`What Claude changed could not be read from the activity journal: ${describeError(error)}`,
				"error",
			);
			return;
		}
		new RewindConfirm(this.app, plan, () => void this.rewindNow(tab, entry, turns, notes)).open();
	}

	/** Rewinds without asking (the user said yes); resolves with the tab that goes on, once it is open. */
	async rewindNow(
		tab: AgentTab,
		entry: SentMessage,
		turns: readonly string[],
		notes: TurnNotes | undefined,
	): Promise<AgentTab | undefined> {
		// Closed, or sent a message, while the question was open: there is nothing to rewind as asked.
		if (!this.tabs.includes(tab) || !this.idle(tab, "rewind")) return undefined;
		const engine = await this.loadEngine();
		if (!engine) return undefined;
		const sessionId = tab.session.sessionId;
		if (sessionId === undefined) {
			tab.say(NOT_NAMED_YET, "error");
			return undefined;
		}
		let resumeAt: string | undefined;
		try {
			resumeAt = await engine.messageBefore(sessionId, entry.messageId);
		} catch (error) {
			tab.say(`The conversation cannot go back to this message: ${describeError(error)}`, "error");
			return undefined;
		}
		const index = this.tabs.indexOf(tab);
		const choices = tab.choices;
		// The session ends before the notes change back, so nothing of it writes meanwhile.
		await this.removeTab(tab);
		let restored: NotesBeforeTurns | undefined;
		let failure: string | undefined;
		try {
			restored = await notes?.restore(turns);
		} catch (error) {
			failure = describeError(error);
		}
		const images = tab.sentImages(entry.messageId);
		const next = await this.openTab({
			// Before the conversation's first message there is nothing to go on from: a new conversation.
			...(resumeAt !== undefined && { resume: sessionId, resumeAt }),
			earlier: tab.transcript.before(entry.id),
			draft: entry.text,
			...(images !== undefined && { draftImages: images }),
			choices,
			at: index,
		});
		if (next && resumeAt !== undefined) this.host.rewindPoints?.setRewindPoint(sessionId, resumeAt);
		next?.say(rewoundWords(notes === undefined ? undefined : restored, failure), failure ? "error" : "info");
		if (images === undefined && entry.images !== undefined && entry.images.length > 0)
			next?.say(imagesNotKeptWords(entry.images));
		this.drawTabs();
		return next;
	}

	/**
	 * Starts a new tab that goes on from the end of this message's turn (Claude's reply to it): a copy of the
	 * conversation up to there, the original tab and its session left as they were.
	 */
	async fork(tab: AgentTab, entryId: number): Promise<AgentTab | undefined> {
		const entry = sentMessage(tab, entryId);
		if (!entry || !this.idle(tab, "fork")) return undefined;
		const sessionId = tab.session.sessionId;
		if (sessionId === undefined) {
			tab.say(NOT_NAMED_YET, "error");
			return undefined;
		}
		const engine = await this.loadEngine();
		if (!engine) return undefined;
		const { entries, next } = tab.transcript.throughTurnOf(entryId);
		let resumeAt = tab.pendingResumeAt;
		if (next?.messageId !== undefined) {
			try {
				resumeAt = await engine.messageBefore(sessionId, next.messageId);
			} catch (error) {
				tab.say(`The conversation cannot be forked here: ${describeError(error)}`, "error");
				return undefined;
			}
		}
		return this.openTab({
			resume: sessionId,
			fork: true,
			...(resumeAt !== undefined && { resumeAt }),
			earlier: entries,
			title: tab.displayTitle.startsWith(FORK_TITLE) ? tab.displayTitle : `${FORK_TITLE}${tab.displayTitle}`,
			choices: tab.choices,
		});
	}

	/**
	 * Ends the active tab's session and starts it again in a new tab (resumed when the CLI had given it an id), so
	 * that a change of what the CLI may load counts; the other tabs keep their sessions.
	 */
	async restartActiveSession(): Promise<AgentTab | undefined> {
		const tab = this.active;
		const sessionId = tab?.session.sessionId;
		const resumeAt = tab?.pendingResumeAt;
		if (tab) await this.removeTab(tab);
		const restarted =
			sessionId === undefined
				? await this.newSession()
				: tab !== undefined && resumeAt !== undefined
					? // A rewound conversation not gone on yet: the CLI's record still ends after the rewound turns.
						await this.openTab({ resume: sessionId, resumeAt, earlier: tab.transcript.entries })
					: await this.resume(sessionId);
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

	private async openTab(start: TabStart): Promise<AgentTab | undefined> {
		const engine = await this.loadEngine();
		if (!engine) return undefined;
		const { model, permissionMode } = start.choices ?? this.host.panelSettings();
		try {
			const session = engine.start({
				permissionMode,
				...(model !== "" ? { model } : {}),
				...(start.resume !== undefined ? { resume: start.resume } : {}),
				...(start.resume !== undefined && start.resumeAt !== undefined ? { resumeAt: start.resumeAt } : {}),
				...(start.resume !== undefined && start.fork === true ? { fork: true } : {}),
			});
			const tab = new AgentTab(this.body, {
				app: this.app,
				session,
				vault: this.host.vault,
				history: start.history ?? [],
				permissionMode,
				model,
				exportFolder: () => this.host.panelSettings().exportFolder,
				onTitle: () => this.drawTabs(),
				...(this.host.openReview && { openReview: this.host.openReview }),
				...(start.earlier && { earlier: start.earlier }),
				...(start.draft !== undefined && { draft: start.draft }),
				...(start.draftImages !== undefined && { draftImages: start.draftImages }),
				...(start.resumeAt !== undefined &&
					start.fork !== true && {
						resumedAt: start.resumeAt,
						wentOn: () => {
							if (start.resume !== undefined)
								this.host.rewindPoints?.setRewindPoint(start.resume, undefined);
						},
					}),
				...(start.title !== undefined && { title: start.title }),
				onRewind: (from, entryId) => void this.rewind(from, entryId),
				onFork: (from, entryId) => void this.fork(from, entryId),
			});
			if (start.at !== undefined && start.at >= 0) this.tabs.splice(start.at, 0, tab);
			else this.tabs.push(tab);
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

	/** Takes the tab out of the panel and ends its session; the panel's other tabs stay. */
	private async removeTab(tab: AgentTab): Promise<void> {
		const index = this.tabs.indexOf(tab);
		if (index >= 0) this.tabs.splice(index, 1);
		if (this.active === tab) this.active = undefined;
		await this.endTab(tab);
	}

	/** Whether the tab's Claude is idle; if not, the tab says why nothing was done. */
	private idle(tab: AgentTab, action: "rewind" | "fork"): boolean {
		if (!tab.session.busy) return true;
		tab.say(`Claude is still working. Wait for the reply, or stop it, then ${action} again.`, "error");
		return false;
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

function sentMessage(tab: AgentTab, entryId: number): SentMessage | undefined {
	const entry = tab.transcript.entries.find((candidate) => candidate.id === entryId);
	return entry?.kind === "user" && entry.messageId !== undefined
		? { ...entry, messageId: entry.messageId }
		: undefined;
}
