import { ItemView, Notice, normalizePath, type WorkspaceLeaf } from "obsidian";
import { noteName } from "../../agent/transcript/tool-words";
import type { ActivityEntry } from "../../journal/activity-entries";
import { activityAsJson, activityAsMarkdown } from "../../journal/activity-export";
import type { ActivityFilter } from "../../journal/activity-filter";
import type { CallOutcome } from "../../journal/journal-records";
import type { UndoResult } from "../../journal/undo";
import { ActivityDetails, type ActivitySource } from "./activity-details";
import { activityRows, conversationsOf, rowKey, type ActivityRow, type Conversation } from "./activity-rows";
import { automaticLabel, entryWords, outcomeWords, PLACES, surfaceWords } from "./activity-words";

import { ACTIVITY_VIEW_TYPE } from "./activity-view-type";

export { ACTIVITY_VIEW_TYPE };

/** Each row's height in pixels (styles.css gives rows this height), so the list knows which rows are in view. */
export const ACTIVITY_ROW_HEIGHT = 28;
/** Rows drawn above and below the visible ones; and how many rows are drawn before the list has a height. */
const OVERSCAN = 10;
const UNMEASURED_ROWS = 40;
/** While Claude works, the list is read again at most this often (a read parses the whole journal). */
export const LIVE_REFRESH_MS = 1000;

/** The outcomes the filter offers, in words. */
const OUTCOMES: readonly { value: CallOutcome; label: string }[] = [
	{ value: "ok", label: "Done" },
	{ value: "rejected", label: "Rejected changes" },
	{ value: "error", label: "Failed" },
	{ value: "refused", label: "Refused" },
];

/**
 * Claude's activity: every call the journal holds, newest first, grouped by conversation (titled by the user's first
 * words, with where it took place), Claude Code's automatic IDE calls folded into one row per conversation, with
 * filters, each entry's details (and undo) once a row is chosen, and export of what the list shows. The list draws
 * only the rows in view; the keyboard reaches every row (arrow keys move between them, Enter or Space opens one).
 */
export class ActivityView extends ItemView {
	private all: ActivityEntry[] = [];
	private conversations = new Map<string, Conversation>();
	private rows: ActivityRow[] = [];
	private filter: ActivityFilter = {};
	private place: string | undefined;
	private showAutomatic = false;
	/** Conversations whose automatic calls are shown the other way from `showAutomatic`. */
	private readonly flipped = new Set<string>();
	private selected: string | undefined;
	/** The conversation whose "Undo conversation" was pressed once: the next press undoes it. */
	private confirming: string | undefined;
	private drawnFrom = -1;
	/** The drawn rows' elements by row index (focus moves among them). */
	private readonly drawn = new Map<number, HTMLElement>();
	/** The journal whose changes refresh the list, and the refresh waiting to run. */
	private followed: ActivitySource["journal"] | undefined;
	private stopFollowing: (() => void) | undefined;
	private refreshTimer: number | undefined;
	/** What the filter boxes were drawn with (the conversations to choose from). */
	private filterChoices = "";
	private readonly statusEl: HTMLElement;
	private readonly filtersEl: HTMLElement;
	private readonly scrollEl: HTMLElement;
	private readonly sizerEl: HTMLElement;
	private readonly windowEl: HTMLElement;
	private readonly detailsEl: HTMLElement;
	private readonly exportFolder: HTMLInputElement;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly source: () => ActivitySource | undefined,
	) {
		super(leaf);
		const root = this.contentEl;
		root.addClass("ccb-activity");
		const bar = root.createDiv({ cls: "ccb-activity-bar" });
		this.button(bar, "Refresh", () => void this.reload());
		this.exportFolder = bar.createEl("input", { cls: "ccb-activity-export-folder", attr: { type: "text" } });
		this.exportFolder.value = "Claude activity";
		this.exportFolder.setAttribute("aria-label", "Folder for exports");
		this.button(bar, "Export as Markdown", () => void this.export("md"));
		this.button(bar, "Export as JSON", () => void this.export("json"));
		this.filtersEl = root.createDiv({ cls: "ccb-activity-filters" });
		this.statusEl = root.createDiv({ cls: ["ccb-activity-status", "is-empty"] });
		this.scrollEl = root.createDiv({ cls: "ccb-activity-scroll" });
		this.sizerEl = this.scrollEl.createDiv({ cls: "ccb-activity-sizer" });
		this.windowEl = this.sizerEl.createDiv({ cls: "ccb-activity-window" });
		this.windowEl.setAttribute("aria-label", "Claude's calls, newest first");
		// Hidden until a row is chosen: an empty pane would take half the view.
		this.detailsEl = root.createDiv({ cls: ["ccb-activity-details", "is-empty"] });
	}

	getViewType(): string {
		return ACTIVITY_VIEW_TYPE;
	}

	getDisplayText(): string {
		return "Claude activity";
	}

	override getIcon(): string {
		return "history";
	}

	override async onOpen(): Promise<void> {
		this.registerDomEvent(this.scrollEl, "scroll", () => this.draw());
		this.register(() => {
			this.stopFollowing?.();
			if (this.refreshTimer !== undefined) window.clearTimeout(this.refreshTimer);
		});
		await this.reload();
	}

	/** The entries listed now (folded automatic calls are not), newest first: what an export writes. */
	get shown(): ActivityEntry[] {
		return this.rows.flatMap((row) => (row.kind === "entry" ? [row.entry] : []));
	}

	/** Reads the journal afresh. */
	async reload(): Promise<void> {
		const source = this.source();
		this.follow(source);
		let status = source ? "" : "The bridge is not running: start it to see Claude's activity.";
		try {
			this.all = source ? await source.journal.entries() : [];
		} catch (error) {
			this.all = [];
			status = `The activity journal could not be read: ${error instanceof Error ? error.message : String(error)}`;
		}
		this.statusEl.setText(status);
		this.statusEl.toggleClass("is-empty", status === "");
		this.conversations = conversationsOf(this.all);
		this.renderFilters();
		this.applyFilter();
		const selected = this.all.find((entry) => entry.id === this.selected);
		if (selected && source) await this.details(source).show(selected, this.conversations.get(selected.session.key));
		else if (this.selected !== undefined) this.closeDetails();
	}

	/**
	 * New calls while the view is open: the list is read again, at most every LIVE_REFRESH_MS, keeping the filters,
	 * the scroll position and the details shown (a review in progress stays).
	 */
	private follow(source: ActivitySource | undefined): void {
		const journal = source?.journal;
		if (journal === this.followed) return;
		this.stopFollowing?.();
		this.followed = journal;
		this.stopFollowing = journal?.onChange(() => {
			this.refreshTimer ??= window.setTimeout(() => {
				this.refreshTimer = undefined;
				void this.refreshList();
			}, LIVE_REFRESH_MS);
		});
	}

	private async refreshList(): Promise<void> {
		const source = this.source();
		if (!source) return;
		// The row at the top of the view stays there as new calls come in above it (at the very top, new calls show).
		const top = this.scrollEl.scrollTop;
		const anchor = top > 0 ? this.rows[Math.floor(top / ACTIVITY_ROW_HEIGHT)] : undefined;
		this.all = await source.journal.entries();
		this.conversations = conversationsOf(this.all);
		if (this.choicesOf() !== this.filterChoices) this.renderFilters();
		this.applyFilter(false);
		const at = anchor ? this.rows.findIndex((row) => rowKey(row) === rowKey(anchor)) : -1;
		if (at >= 0 && at !== Math.floor(top / ACTIVITY_ROW_HEIGHT)) {
			this.scrollEl.scrollTop = at * ACTIVITY_ROW_HEIGHT + (top % ACTIVITY_ROW_HEIGHT);
			this.draw();
		}
	}

	/** Shows the entries that match `filter` (the filter boxes are set to it). */
	setFilter(filter: ActivityFilter): void {
		this.filter = filter;
		this.renderFilters();
		this.applyFilter();
	}

	/** The rows the filters let through, drawn from the top (or where the list is scrolled to, when `fromTop` is false). */
	private applyFilter(fromTop = true): void {
		this.rows = activityRows(this.all, this.conversations, {
			filter: this.filter,
			...(this.place !== undefined ? { place: this.place } : {}),
			showAutomatic: this.showAutomatic,
			flipped: this.flipped,
		});
		this.sizerEl.setCssProps({ "--ccb-activity-height": `${this.rows.length * ACTIVITY_ROW_HEIGHT}px` });
		this.drawnFrom = -1;
		if (fromTop) this.scrollEl.scrollTop = 0;
		this.draw();
	}

	/** Draws the rows in view (and a few around them); nothing when the same rows are drawn already. */
	private draw(): void {
		const height = this.scrollEl.clientHeight;
		const visible = height > 0 ? Math.ceil(height / ACTIVITY_ROW_HEIGHT) : UNMEASURED_ROWS;
		const from = Math.max(0, Math.floor(this.scrollEl.scrollTop / ACTIVITY_ROW_HEIGHT) - OVERSCAN);
		if (from === this.drawnFrom) return;
		this.drawnFrom = from;
		const to = Math.min(this.rows.length, from + visible + 2 * OVERSCAN);
		this.windowEl.empty();
		this.drawn.clear();
		this.windowEl.setCssProps({ "--ccb-activity-offset": `${from * ACTIVITY_ROW_HEIGHT}px` });
		if (this.rows.length === 0)
			this.windowEl.createDiv({
				cls: "ccb-activity-empty",
				text: this.all.length === 0 ? "No activity recorded yet." : "No entries match the filters.",
			});
		for (let index = from; index < to; index++) {
			const row = this.rows[index];
			if (row) this.drawn.set(index, this.drawRow(row, index));
		}
	}

	private drawRow(row: ActivityRow, index: number): HTMLElement {
		if (row.kind === "conversation") return this.drawConversation(row);
		if (row.kind === "automatic") {
			const label = automaticLabel(row.entries);
			const fold = this.windowEl.createEl("button", {
				cls: ["ccb-activity-row", "ccb-activity-automatic"],
				text: row.open ? `Hide ${label}` : label,
				attr: {
					"aria-expanded": String(row.open),
					title: "Calls Claude Code makes by itself to check your notes and editor",
				},
			});
			fold.addEventListener("click", () => this.toggleAutomatic(row.key, index));
			this.moveWithArrows(fold, index);
			return fold;
		}
		const { entry } = row;
		const outcome = outcomeWords(entry);
		const element = this.windowEl.createDiv({
			cls: [
				"ccb-activity-row",
				"ccb-activity-entry",
				...(entry.id === this.selected ? ["is-selected"] : []),
				...(row.automatic ? ["is-automatic"] : []),
				`ccb-outcome-${entry.unreadable !== undefined ? "unreadable" : (entry.outcome ?? "running")}`,
			],
			attr: { role: "button", tabindex: "0" },
		});
		if (entry.id === this.selected) element.setAttribute("aria-current", "true");
		element.createSpan({ cls: "ccb-activity-time", text: new Date(entry.at).toLocaleTimeString() });
		const summary = element.createSpan({ cls: "ccb-activity-summary" });
		if (entry.unreadable !== undefined) summary.setText(`Unreadable: ${entry.unreadable}`);
		else {
			const words = entryWords(entry);
			summary.appendText(words.verb);
			if (words.note !== undefined) {
				summary.appendText(" ");
				summary.createSpan({ cls: "ccb-activity-note-name", text: noteName(words.note) });
			}
			if (words.rest !== undefined && words.rest !== "") summary.appendText(` ${words.rest}`);
		}
		if (outcome !== "") element.createSpan({ cls: "ccb-activity-outcome", text: outcome });
		element.addEventListener("click", () => void this.select(entry, index));
		element.addEventListener("keydown", (event: KeyboardEvent) => {
			if (event.key !== "Enter" && event.key !== " ") return;
			event.preventDefault();
			void this.select(entry, index);
		});
		this.moveWithArrows(element, index);
		return element;
	}

	private drawConversation(row: Extract<ActivityRow, { kind: "conversation" }>): HTMLElement {
		const { conversation } = row;
		const element = this.windowEl.createDiv({ cls: ["ccb-activity-row", "ccb-activity-session"] });
		element.createSpan({ cls: "ccb-activity-conversation-title", text: conversation.title });
		const started = new Date(conversation.startedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
		element.createSpan({
			cls: "ccb-activity-conversation-meta",
			text: `${surfaceWords(conversation.surface)} · ${started} · ${row.count === 1 ? "1 call" : `${row.count} calls`}`,
		});
		if (row.undoable > 0 && this.source()?.undo) this.undoConversationButton(element, conversation, row.undoable);
		return element;
	}

	/** ArrowUp and ArrowDown move to the row above or below (the list scrolls to it), Home and End to the ends. */
	private moveWithArrows(element: HTMLElement, index: number): void {
		element.addEventListener("keydown", (event: KeyboardEvent) => {
			const target =
				event.key === "ArrowDown"
					? this.nextFocusable(index, 1)
					: event.key === "ArrowUp"
						? this.nextFocusable(index, -1)
						: event.key === "Home"
							? this.nextFocusable(-1, 1)
							: event.key === "End"
								? this.nextFocusable(this.rows.length, -1)
								: undefined;
			if (target === undefined) return;
			event.preventDefault();
			this.focusRow(target);
		});
	}

	/** The next row from `index` in `step`'s direction that takes focus (a call or a fold, not a heading). */
	private nextFocusable(index: number, step: 1 | -1): number | undefined {
		for (let at = index + step; at >= 0 && at < this.rows.length; at += step)
			if (this.rows[at]?.kind !== "conversation") return at;
		return undefined;
	}

	/** Scrolls row `index` into view, draws it, and puts the focus on it. */
	private focusRow(index: number): void {
		const top = index * ACTIVITY_ROW_HEIGHT;
		const height = this.scrollEl.clientHeight;
		if (top < this.scrollEl.scrollTop) this.scrollEl.scrollTop = top;
		else if (height > 0 && top + ACTIVITY_ROW_HEIGHT > this.scrollEl.scrollTop + height)
			this.scrollEl.scrollTop = top + ACTIVITY_ROW_HEIGHT - height;
		this.draw();
		this.drawn.get(index)?.focus();
	}

	private toggleAutomatic(key: string, index: number): void {
		if (this.flipped.has(key)) this.flipped.delete(key);
		else this.flipped.add(key);
		this.applyFilter(false);
		// The fold moved below the calls it opened (or back up): the focus follows it.
		const at = this.rows.findIndex((row) => row.kind === "automatic" && row.key === key);
		this.focusRow(at >= 0 ? at : index);
	}

	private async select(entry: ActivityEntry, index: number): Promise<void> {
		this.selected = entry.id;
		this.drawnFrom = -1;
		this.draw();
		this.drawn.get(index)?.focus();
		const source = this.source();
		if (source) await this.details(source).show(entry, this.conversations.get(entry.session.key));
	}

	private details(source: ActivitySource): ActivityDetails {
		this.detailsEl.toggleClass("is-empty", false);
		return new ActivityDetails(
			this.app,
			this.detailsEl,
			source,
			() => void this.reload(),
			() => this.closeDetails(),
		);
	}

	/** No row chosen: the details pane folds away and the list takes the view. */
	private closeDetails(): void {
		const index = this.rows.findIndex((row) => row.kind === "entry" && row.entry.id === this.selected);
		this.selected = undefined;
		this.detailsEl.empty();
		this.detailsEl.toggleClass("is-empty", true);
		this.drawnFrom = -1;
		this.draw();
		if (index >= 0) this.drawn.get(index)?.focus();
	}

	/** Undoes a whole conversation's changes, after a second press (the first says how many calls it takes back). */
	private undoConversationButton(row: HTMLElement, conversation: Conversation, undoable: number): void {
		const { key } = conversation;
		const confirming = this.confirming === key;
		const text = confirming
			? `Undo ${undoable === 1 ? "1 change" : `${undoable} changes`}? Press again`
			: "Undo conversation";
		const button = row.createEl("button", { cls: "ccb-activity-undo-session", text });
		button.setAttribute("aria-label", `Undo every change of "${conversation.title}", newest first`);
		button.addEventListener("click", () => {
			if (!confirming) {
				this.confirming = key;
			} else {
				this.confirming = undefined;
				void this.undoSession(conversation);
			}
			this.drawnFrom = -1;
			this.draw();
		});
	}

	/**
	 * Every change of a conversation, newest call first, as `undo --session` does: each call whose notes still hold
	 * what it left is undone; each note changed since is then reviewed in turn (nothing is written unless accepted).
	 */
	private async undoSession(conversation: Conversation): Promise<void> {
		const source = this.source();
		const undo = source?.undo;
		if (!source || !undo) return;
		let results: UndoResult[];
		try {
			results = await undo.session(conversation.key);
		} catch (error) {
			new Notice(
				`The conversation could not be undone: ${error instanceof Error ? error.message : String(error)}`,
			);
			return;
		}
		const undone = results.filter((result) => result.kind === "undone").length;
		const conflicts = results.flatMap((result) => (result.kind === "conflict" ? [result] : []));
		const refused = results.flatMap((result) => (result.kind === "refused" ? [result.reason] : []));
		const parts = [`"${conversation.title}": ${undone === 1 ? "1 change" : `${undone} changes`} undone`];
		if (conflicts.length > 0)
			parts.push(
				`${conflicts.length === 1 ? "1 touches a note" : `${conflicts.length} touch notes`} changed since: review them`,
			);
		if (refused.length > 0) parts.push(`not undone: ${refused.join("; ")}`);
		new Notice(`${parts.join("; ")}.`);
		await this.reload();
		const items = conflicts.flatMap((result) => {
			const entry = this.all.find((candidate) => candidate.id === result.id);
			return entry ? result.conflicts.map((conflict) => ({ entry, conflict })) : [];
		});
		if (items.length > 0) this.details(source).reviewConflicts(items);
	}

	private choicesOf(): string {
		return JSON.stringify([...this.conversations.values()].map(({ key, title }) => [key, title]));
	}

	private renderFilters(): void {
		const bar = this.filtersEl;
		bar.empty();
		this.filterChoices = this.choicesOf();
		const conversations = [...this.conversations.values()].map(({ key, title }) => ({ value: key, label: title }));
		this.choice(bar, "session", "All conversations", conversations, this.filter.session, (value) =>
			this.setField("session", value),
		);
		this.choice(bar, "place", "Everywhere", PLACES, this.place, (value) => {
			this.place = value;
			this.applyFilter();
		});
		this.choice(bar, "outcome", "Any outcome", OUTCOMES, this.filter.outcome, (value) =>
			this.setField("outcome", OUTCOMES.find((outcome) => outcome.value === value)?.value),
		);
		this.textFilter(bar, "note", "Note");
		this.textFilter(bar, "text", "Search");
		this.checkbox(bar, "writes", "Only changes to notes", this.filter.writes === true, (on) =>
			this.setField("writes", on ? true : undefined),
		);
		this.checkbox(bar, "automatic", "Show automatic calls", this.showAutomatic, (on) => {
			this.showAutomatic = on;
			this.flipped.clear();
			this.applyFilter();
		});
	}

	private setField<Field extends keyof ActivityFilter>(field: Field, value: ActivityFilter[Field] | undefined): void {
		const next = { ...this.filter };
		if (value === undefined) delete next[field];
		else next[field] = value;
		this.filter = next;
		this.applyFilter();
	}

	private choice(
		bar: HTMLElement,
		name: string,
		all: string,
		values: readonly { value: string; label: string }[],
		current: string | undefined,
		chosen: (value: string | undefined) => void,
	): void {
		const select = bar.createEl("select", { cls: ["dropdown", `ccb-activity-filter-${name}`] });
		select.setAttribute("aria-label", all);
		for (const { value, label } of [{ value: "", label: all }, ...values]) {
			const option = select.createEl("option", { text: label });
			option.value = value;
		}
		select.value = current ?? "";
		select.addEventListener("change", () => chosen(select.value === "" ? undefined : select.value));
	}

	private textFilter(bar: HTMLElement, field: "note" | "text", label: string): void {
		const input = bar.createEl("input", { cls: `ccb-activity-filter-${field}`, attr: { type: "text" } });
		input.setAttribute("placeholder", label);
		input.setAttribute("aria-label", label);
		input.value = this.filter[field] ?? "";
		input.addEventListener("input", () => this.setField(field, input.value.trim() || undefined));
	}

	private checkbox(bar: HTMLElement, name: string, label: string, on: boolean, changed: (on: boolean) => void): void {
		const wrapper = bar.createEl("label", { cls: ["ccb-activity-toggle", `ccb-activity-filter-${name}`] });
		const input = wrapper.createEl("input", { attr: { type: "checkbox" } });
		input.checked = on;
		wrapper.appendText(` ${label}`);
		input.addEventListener("change", () => changed(input.checked));
	}

	/** Writes what the list shows as a new note (Markdown) or file (JSON) in the chosen folder. */
	private async export(format: "md" | "json"): Promise<void> {
		const folder = normalizePath(this.exportFolder.value.trim() || "Claude activity");
		const now = new Date();
		const text = format === "md" ? activityAsMarkdown(this.shown, now) : activityAsJson(this.shown, now);
		const path = normalizePath(`${folder}/Claude activity ${now.toISOString().replace(/[:.]/g, "-")}.${format}`);
		try {
			if (!this.app.vault.getAbstractFileByPath(folder)) await this.app.vault.createFolder(folder);
			await this.app.vault.create(path, text);
			new Notice(`Exported ${this.shown.length} entries to ${path}.`);
		} catch (error) {
			new Notice(`The export could not be written: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	private button(parent: HTMLElement, text: string, onClick: () => void): void {
		parent.createEl("button", { text }).addEventListener("click", onClick);
	}
}
