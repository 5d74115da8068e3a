import { Component, Notice, type App } from "obsidian";
import type {
	AgentEvent,
	AgentPermissionMode,
	AgentSession,
	MessageAttachment,
	MessageImage,
	OfferedModel,
	ToolPermissionAnswer,
} from "../../agent/agent-session";
import {
	Transcript,
	entryText,
	type TranscriptChange,
	type TranscriptEntry,
} from "../../agent/transcript/panel-transcript";
import { modelWords } from "../../agent/transcript/model-words";
import { sessionTitle } from "../../agent/transcript/tool-words";
import { describeError } from "../../shared/describe-error";
import { ContextChip } from "./context-chip";
import { drawEntry, type EntryContext } from "./entry-rendering";
import type { PlanEdit } from "./plan-card";
import { MessageInput } from "./message-input";
import type { PanelVault } from "./panel-vault";
import { exportSession } from "./session-export";
import { TranscriptList } from "./transcript-list";

/** The permission modes the panel offers, in the CLI's words and the user's. */
export const PERMISSION_MODES: readonly { mode: AgentPermissionMode; label: string }[] = [
	{ mode: "default", label: "Ask before acting" },
	{ mode: "plan", label: "Plan first" },
	{ mode: "acceptEdits", label: "Accept edits" },
];

/** Model aliases the CLI accepts; empty is the CLI's own default. */
export const MODEL_CHOICES: readonly { value: string; label: string }[] = [
	{ value: "", label: "Default model" },
	{ value: "opus", label: "Opus" },
	{ value: "sonnet", label: "Sonnet" },
	{ value: "haiku", label: "Haiku" },
];

export interface AgentTabOptions {
	app: App;
	session: AgentSession;
	vault: PanelVault;
	/** Events that came before this session started (a resumed session's history). */
	history?: readonly AgentEvent[];
	permissionMode: AgentPermissionMode;
	model: string;
	exportFolder: () => string;
	/** What the tab bar shows changed: the title (the first message) or whether Claude works. */
	onTitle: () => void;
	/** Brings the review of a proposed edit of this note to the front. */
	openReview?: (vaultPath: string) => void;
	/** Rows this conversation begins with (a rewound or forked one's earlier turns), before any `history`. */
	earlier?: readonly TranscriptEntry[];
	/** Text the message box starts with (a rewound message, to send again or change). */
	draft?: string;
	/** Images the message box starts with (a rewound message's). */
	draftImages?: readonly MessageImage[];
	/** The session was started to go on from this message of the CLI's record (a rewind), until a message is sent. */
	resumedAt?: string;
	/** A message was sent after `resumedAt`: the CLI's record now goes on from there itself. */
	wentOn?: () => void;
	/** The tab's name instead of its first message (a fork's). */
	title?: string;
	/** The user asked to rewind to before this message (row id); absent: the messages offer no rewind. */
	onRewind?: (tab: AgentTab, entryId: number) => void;
	/** The user asked to fork from this message's turn (row id); absent: the messages offer no fork. */
	onFork?: (tab: AgentTab, entryId: number) => void;
}

/**
 * One session in the panel: its transcript (a list that draws only the rows in view), a filter, the toolbar (model,
 * permission mode, export, stop while busy) and the message box with the active-note chip.
 */
export class AgentTab extends Component {
	readonly el: HTMLElement;
	readonly transcript = new Transcript();
	readonly list: TranscriptList;
	readonly input: MessageInput;
	readonly chip: ContextChip;
	/** Above the message box: where the panel shows a one-time offer. */
	readonly offerSlot: HTMLElement;
	readonly session: AgentSession;
	private title = "";
	private filter = "";
	/** Where the session went on from after a rewind, until the first message makes that the conversation's end. */
	private resumedAt: string | undefined;
	private shownBusy = false;
	/**
	 * The images of each message sent in this tab, by its id in the CLI's record, bytes included (the session's events
	 * carry only their names), kept while the tab is open; `sending`: those of messages the session has not taken yet.
	 */
	private readonly imagesSent = new Map<string, readonly MessageImage[]>();
	private readonly sending: { text: string; images: readonly MessageImage[] }[] = [];
	private readonly expanded = new Set<number>();
	private readonly answers = new Map<string, ToolPermissionAnswer>();
	/** The user's work on plan cards, kept for the session: a card is redrawn as it scrolls by. */
	private readonly planEdits = new Map<string, PlanEdit>();
	private readonly stopButton: HTMLButtonElement;
	private readonly modelSelect: HTMLSelectElement;
	private readonly modeSelect: HTMLSelectElement;
	private readonly statusEl: HTMLElement;

	constructor(
		parent: HTMLElement,
		private readonly options: AgentTabOptions,
	) {
		super();
		this.session = options.session;
		this.el = parent.createDiv({ cls: "ccb-agent-tab" });
		const toolbar = this.el.createDiv({ cls: "ccb-agent-toolbar" });
		this.modelSelect = this.select(
			toolbar,
			"ccb-agent-model",
			"Model",
			MODEL_CHOICES.map((choice) => [choice.value, choice.label]),
			options.model,
		);
		this.modeSelect = this.select(
			toolbar,
			"ccb-agent-mode",
			"Permission mode",
			PERMISSION_MODES.map((choice) => [choice.mode, choice.label]),
			options.permissionMode,
		);
		const filter = toolbar.createEl("input", {
			cls: "ccb-agent-filter",
			attr: { type: "search", placeholder: "Filter", "aria-label": "Filter the transcript" },
		});
		this.button(toolbar, "Export as note", "ccb-agent-export", () => void this.export());
		this.statusEl = this.el.createDiv({ cls: "ccb-agent-status" });
		const scroll = this.el.createDiv({ cls: "ccb-agent-scroll" });
		this.list = new TranscriptList(scroll, (element, entry) => drawEntry(element, entry, this.entryContext));
		this.chip = this.addChild(
			new ContextChip(this.el, options.app, options.vault, (images) => this.input.addImages(images)),
		);
		this.offerSlot = this.el.createDiv({ cls: "ccb-agent-offer-slot" });
		this.input = this.addChild(
			new MessageInput(this.el, options.vault, (text, mentions, images) => this.send(text, mentions, images)),
		);
		// Beside Send, where the eye is while Claude works.
		this.stopButton = this.button(this.input.row, "Stop", "ccb-agent-stop", () => void this.stop());
		this.registerDomEvent(scroll, "scroll", () => this.list.draw());
		// The selection may have changed in the note since the chip was drawn.
		this.registerDomEvent(this.input.textarea, "focus", () => this.chip.refresh());
		this.registerDomEvent(filter, "input", () => {
			this.filter = filter.value.trim().toLowerCase();
			this.showRows(false);
		});
		this.registerDomEvent(
			this.modelSelect,
			"change",
			() =>
				void this.session
					.setModel(this.modelSelect.value === "" ? undefined : this.modelSelect.value)
					.catch((error: unknown) => this.notice(error)),
		);
		this.registerDomEvent(
			this.modeSelect,
			"change",
			() =>
				void this.session
					.setPermissionMode(this.modeSelect.value as AgentPermissionMode)
					.catch((error: unknown) => this.notice(error)),
		);
	}

	override onload(): void {
		this.resumedAt = this.options.resumedAt;
		if (this.options.earlier) this.transcript.adopt(this.options.earlier);
		for (const event of this.options.history ?? []) this.transcript.apply(event);
		if (this.options.history && this.options.history.length > 0) this.transcript.settle();
		this.title =
			this.options.title ??
			sessionTitle(this.transcript.entries.find((entry) => entry.kind === "user")?.text.split("\n")[0] ?? "");
		if (this.options.draft !== undefined) this.input.textarea.value = this.options.draft;
		if (this.options.draftImages !== undefined) this.input.restoreImages(this.options.draftImages);
		this.showRows(true);
		this.register(this.session.onEvent((event) => this.onEvent(event)));
		this.updateBusy();
	}

	/**
	 * The images sent with the user's message `messageId` in this tab (kept while the tab is open, so a rewind can put
	 * them back in the box); undefined for a message of a past session, whose images were not kept.
	 */
	sentImages(messageId: string): readonly MessageImage[] | undefined {
		return this.imagesSent.get(messageId);
	}

	/** The session took a message: the images sent with it (in the order sent) are kept under its id. */
	private keepImagesOf(text: string, id: string | undefined): void {
		const index = this.sending.findIndex((waiting) => waiting.text === text);
		if (index < 0) return;
		const [taken] = this.sending.splice(index, 1);
		if (taken && id !== undefined) this.imagesSent.set(id, taken.images);
	}

	/** The message the session went on from after a rewind, while no message was sent since; else undefined. */
	get pendingResumeAt(): string | undefined {
		return this.resumedAt;
	}

	/** The model and permission mode chosen in this tab now. */
	get choices(): { model: string; permissionMode: AgentPermissionMode } {
		return { model: this.modelSelect.value, permissionMode: this.modeSelect.value as AgentPermissionMode };
	}

	/** A line of the panel's own in this conversation (what a rewind did). */
	say(text: string, level: "info" | "error" = "info"): void {
		this.applyChange(this.transcript.notice(text, level));
	}

	/** The tab's name: the first line the user wrote. */
	get displayTitle(): string {
		return this.title === "" ? "New session" : this.title.length > 40 ? `${this.title.slice(0, 39)}…` : this.title;
	}

	/** Sends what the user typed with the chip's note, the mentions and the images; shown as queued while Claude works. */
	send(text: string, mentions: readonly string[], images: readonly MessageImage[] = []): void {
		const context = this.chip.current();
		const attachments: MessageAttachment[] = [
			...(context ? [context] : []),
			...mentions.filter((path) => path !== context?.path).map((path) => ({ path })),
		];
		const message = { text, attachments, ...(images.length > 0 && { images }) };
		if (this.title === "") {
			this.title = text.split("\n")[0] || (images[0]?.name ?? "");
			this.options.onTitle();
		}
		if (images.length > 0) this.sending.push({ text, images });
		if (this.session.busy) this.applyChange(this.transcript.queue(message));
		this.session.send(message);
		this.updateBusy();
	}

	async stop(): Promise<void> {
		try {
			await this.session.interrupt();
		} catch (error) {
			this.notice(error);
		}
	}

	/** Writes the transcript as a note in the export folder. */
	async export(): Promise<string | undefined> {
		try {
			const path = await exportSession(this.options.app, this.options.exportFolder(), this.transcript.entries, {
				...(this.session.sessionId !== undefined ? { sessionId: this.session.sessionId } : {}),
				title: this.displayTitle,
			});
			new Notice(`Exported the session to ${path}.`);
			return path;
		} catch (error) {
			new Notice(`The session could not be exported: ${describeError(error)}`);
			return undefined;
		}
	}

	private onEvent(event: AgentEvent): void {
		if (event.kind === "user-message") this.keepImagesOf(event.message.text, event.id);
		if (event.kind === "offers") {
			this.input.slashCommands = event.commands;
			this.offerModels(event.models);
		}
		if (event.kind === "ready") {
			const offered = new Set(this.input.slashCommands.map((command) => command.name));
			this.input.slashCommands = [
				...this.input.slashCommands,
				...event.slashCommands.filter((name) => !offered.has(name)).map((name) => ({ name, description: "" })),
			];
			// Which model "Default" is, in words; Claude Code's version is in the settings' check, not on every screen.
			this.statusEl.setText(event.model !== undefined ? `Model: ${modelWords(event.model)}` : "");
		}
		if (event.kind === "permission-settled") this.answers.delete(event.id);
		if (event.kind === "user-message" && this.resumedAt !== undefined) {
			this.resumedAt = undefined;
			this.options.wentOn?.();
		}
		// The CLI left plan mode (a plan was approved): the picker shows the mode it runs in now.
		if (event.kind === "permission-mode" && PERMISSION_MODES.some((choice) => choice.mode === event.mode))
			this.modeSelect.value = event.mode;
		this.applyChange(this.transcript.apply(event));
		this.updateBusy();
	}

	/** The models the user's Claude Code offers (its own names), the current choice kept. */
	private offerModels(models: readonly OfferedModel[]): void {
		if (models.length === 0) return;
		const current = this.modelSelect.value;
		this.modelSelect.empty();
		const choices = models.map((model) => [model.value === "default" ? "" : model.value, model.label] as const);
		if (!choices.some(([value]) => value === current)) choices.push([current, current]);
		for (const [value, label] of choices) {
			const option = this.modelSelect.createEl("option", { text: label });
			option.value = value;
		}
		this.modelSelect.value = current;
	}

	private applyChange(change: TranscriptChange): void {
		this.el.toggleClass("is-empty", this.transcript.entries.length === 0);
		for (const entry of change.changed) if (this.matches(entry)) this.list.update(entry);
		const added = change.added.filter((entry) => this.matches(entry));
		this.list.append(added);
	}

	private showRows(end: boolean): void {
		this.el.toggleClass("is-empty", this.transcript.entries.length === 0);
		const rows =
			this.filter === ""
				? this.transcript.entries
				: this.transcript.entries.filter((entry) => this.matches(entry));
		this.list.setRows(
			rows,
			this.filter === "" ? "Ask Claude about your notes." : "Nothing in this session matches the filter.",
			end,
		);
	}

	private matches(entry: TranscriptEntry): boolean {
		return this.filter === "" || entryText(entry).toLowerCase().includes(this.filter);
	}

	private updateBusy(): void {
		if (this.shownBusy !== this.session.busy) {
			this.shownBusy = this.session.busy;
			this.options.onTitle();
		}
		this.el.toggleClass("is-busy", this.session.busy);
		this.stopButton.toggleClass("is-hidden", !this.session.busy);
	}

	private get entryContext(): EntryContext {
		return {
			openInternal: (target) => void this.options.app.workspace.openLinkText(target, "", "tab"),
			isExpanded: (id) => this.expanded.has(id),
			toggleExpanded: (id) => {
				if (!this.expanded.delete(id)) this.expanded.add(id);
				const entry = this.transcript.entries.find((candidate) => candidate.id === id);
				if (entry) this.list.update(entry);
			},
			toVaultPath: (path) => this.options.vault.vaultPath(path),
			openReview: (toolUseId) => {
				const tool = this.transcript.entries.find(
					(candidate) => candidate.kind === "tool" && candidate.toolUseId === toolUseId,
				);
				const target = tool?.kind === "tool" ? (tool.input["file_path"] ?? tool.input["path"]) : undefined;
				const note = typeof target === "string" ? this.options.vault.vaultPath(target) : undefined;
				if (note !== undefined) this.options.openReview?.(note);
			},
			...(this.options.onRewind && {
				rewind: (entryId: number) => this.options.onRewind?.(this, entryId),
			}),
			...(this.options.onFork && { fork: (entryId: number) => this.options.onFork?.(this, entryId) }),
			answered: (requestId) => this.answers.get(requestId),
			answer: (requestId, answer) => {
				this.answers.set(requestId, answer);
				this.session.answerPermission(requestId, answer);
				this.redrawPermission(requestId);
			},
			planEdit: (requestId) => {
				const edit = this.planEdits.get(requestId) ?? { editing: false, focus: false };
				this.planEdits.set(requestId, edit);
				return edit;
			},
			redrawPermission: (requestId) => this.redrawPermission(requestId),
		};
	}

	private redrawPermission(requestId: string): void {
		const entry = this.transcript.entries.find(
			(candidate) => candidate.kind === "permission" && candidate.request.id === requestId,
		);
		if (entry) this.list.update(entry);
	}

	private notice(error: unknown): void {
		this.applyChange(this.transcript.notice(describeError(error), "error"));
	}

	private select(
		parent: HTMLElement,
		cls: string,
		label: string,
		choices: readonly (readonly [string, string])[],
		value: string,
	): HTMLSelectElement {
		const select = parent.createEl("select", { cls: ["dropdown", cls], attr: { "aria-label": label } });
		for (const [optionValue, text] of choices) {
			const option = select.createEl("option", { text });
			option.value = optionValue;
		}
		select.value = value;
		return select;
	}

	private button(parent: HTMLElement, text: string, cls: string, onClick: () => void): HTMLButtonElement {
		const button = parent.createEl("button", { cls, text });
		button.addEventListener("click", onClick);
		return button;
	}
}
