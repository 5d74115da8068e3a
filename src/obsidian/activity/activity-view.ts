import { ItemView, Notice, normalizePath, type WorkspaceLeaf } from "obsidian";
import { groupBySession, isUndoable, type ActivityEntry } from "../../journal/activity-entries";
import { activityAsJson, activityAsMarkdown } from "../../journal/activity-export";
import { matchesFilter, type ActivityFilter } from "../../journal/activity-filter";
import { CALL_OUTCOMES, SURFACES, type JournalSession } from "../../journal/journal-records";
import type { UndoResult } from "../../journal/undo";
import { ActivityDetails, type ActivitySource } from "./activity-details";

export const ACTIVITY_VIEW_TYPE = "claude-code-bridge-activity";

/** Each row's height in pixels (styles.css gives rows this height), so the list knows which rows are in view. */
export const ACTIVITY_ROW_HEIGHT = 28;
/** Rows drawn above and below the visible ones; and how many rows are drawn before the list has a height. */
const OVERSCAN = 10;
const UNMEASURED_ROWS = 40;
/** While Claude works, the list is read again at most this often (a read parses the whole journal). */
export const LIVE_REFRESH_MS = 1000;

type Row =
	| { kind: "session"; session: JournalSession; count: number; undoable: number }
	| { kind: "entry"; entry: ActivityEntry };

/**
 * Claude's activity: every call the journal holds, newest first, grouped by session, with filters, each entry's
 * details (and undo) on click, and export of what the filters show. The list draws only the rows in view.
 */
export class ActivityView extends ItemView {
	private all: ActivityEntry[] = [];
	private rows: Row[] = [];
	private filter: ActivityFilter = {};
	private selected: string | undefined;
	/** The session whose "Undo session" was pressed once: the next press undoes it. */
	private confirming: string | undefined;
	private drawnFrom = -1;
	/** The journal whose changes refresh the list, and the refresh waiting to run. */
	private followed: ActivitySource["journal"] | undefined;
	private stopFollowing: (() => void) | undefined;
	private refreshTimer: number | undefined;
	/** What the filter boxes were drawn with (sessions and tools to choose from). */
	private filterChoices = "";
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
		this.exportFolder = bar.createEl("input", { cls: "ccb-activity-export-folder" });
		this.exportFolder.value = "Claude activity";
		this.exportFolder.setAttribute("aria-label", "Folder for exports");
		this.button(bar, "Export as Markdown", () => void this.export("md"));
		this.button(bar, "Export as JSON", () => void this.export("json"));
		this.filtersEl = root.createDiv({ cls: "ccb-activity-filters" });
		this.scrollEl = root.createDiv({ cls: "ccb-activity-scroll" });
		this.sizerEl = this.scrollEl.createDiv({ cls: "ccb-activity-sizer" });
		this.windowEl = this.sizerEl.createDiv({ cls: "ccb-activity-window" });
		this.detailsEl = root.createDiv({ cls: "ccb-activity-details" });
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

	/** The entries the filters show now, newest first. */
	get shown(): ActivityEntry[] {
		return this.rows.flatMap((row) => (row.kind === "entry" ? [row.entry] : []));
	}

	/** Reads the journal afresh. */
	async reload(): Promise<void> {
		const source = this.source();
		this.follow(source);
		try {
			this.all = source ? await source.journal.entries() : [];
		} catch (error) {
			this.all = [];
			this.detailsEl.setText(
				`The activity journal could not be read: ${error instanceof Error ? error.message : String(error)}`,
			);
		}
		if (!source) this.detailsEl.setText("The bridge is not running: start it to see Claude's activity.");
		this.renderFilters();
		this.applyFilter();
		const selected = this.all.find((entry) => entry.id === this.selected);
		if (selected && source)
			await new ActivityDetails(this.app, this.detailsEl, source, () => void this.reload()).show(selected);
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

	/** The rows the filter lets through, drawn from the top (or where the list is scrolled to, when `fromTop` is false). */
	private applyFilter(fromTop = true): void {
		this.rows = [];
		const undoable = new Map<string, number>();
		for (const entry of this.all)
			if (isUndoable(entry)) undoable.set(entry.session.key, (undoable.get(entry.session.key) ?? 0) + 1);
		for (const group of groupBySession(this.all.filter((entry) => matchesFilter(entry, this.filter)))) {
			this.rows.push({
				kind: "session",
				session: group.session,
				count: group.entries.length,
				undoable: undoable.get(group.session.key) ?? 0,
			});
			for (const entry of group.entries) this.rows.push({ kind: "entry", entry });
		}
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
		this.windowEl.setCssProps({ "--ccb-activity-offset": `${from * ACTIVITY_ROW_HEIGHT}px` });
		if (this.rows.length === 0)
			this.windowEl.createDiv({
				cls: "ccb-activity-empty",
				text: this.all.length === 0 ? "No activity recorded yet." : "No entries match the filters.",
			});
		for (const row of this.rows.slice(from, to)) this.drawRow(row);
	}

	private drawRow(row: Row): void {
		if (row.kind === "session") {
			const { session } = row;
			const who = [
				session.client ?? session.surface,
				session.pid !== undefined ? `pid ${session.pid}` : undefined,
			]
				.filter((part) => part !== undefined)
				.join(", ");
			const element = this.windowEl.createDiv({
				cls: ["ccb-activity-row", "ccb-activity-session"],
				text: `Session ${session.key} (${who}): ${row.count === 1 ? "1 call" : `${row.count} calls`}`,
			});
			if (row.undoable > 0 && this.source()?.undo) this.undoSessionButton(element, session.key, row.undoable);
			return;
		}
		const { entry } = row;
		const element = this.windowEl.createDiv({
			cls: [
				"ccb-activity-row",
				"ccb-activity-entry",
				...(entry.id === this.selected ? ["is-selected"] : []),
				`ccb-outcome-${entry.unreadable !== undefined ? "unreadable" : (entry.outcome ?? "running")}`,
			],
		});
		element.createSpan({ cls: "ccb-activity-time", text: new Date(entry.at).toLocaleTimeString() });
		element.createSpan({ cls: "ccb-activity-tool", text: entry.tool });
		element.createSpan({
			cls: "ccb-activity-outcome",
			text:
				entry.unreadable !== undefined
					? "unreadable"
					: entry.undoneAt !== undefined
						? "undone"
						: (entry.outcome ?? "running"),
		});
		element.createSpan({
			cls: "ccb-activity-summary",
			text:
				entry.unreadable !== undefined
					? `Unreadable: ${entry.unreadable}`
					: entry.notes.join(", ") || entry.args,
		});
		element.addEventListener("click", () => void this.select(entry));
	}

	private async select(entry: ActivityEntry): Promise<void> {
		this.selected = entry.id;
		this.drawnFrom = -1;
		this.draw();
		const source = this.source();
		if (source) await new ActivityDetails(this.app, this.detailsEl, source, () => void this.reload()).show(entry);
	}

	/** Undoes a whole session's changes, after a second press (the first says how many calls it takes back). */
	private undoSessionButton(row: HTMLElement, key: string, undoable: number): void {
		const confirming = this.confirming === key;
		const text = confirming
			? `Undo ${undoable === 1 ? "1 call" : `${undoable} calls`}? Press again`
			: "Undo session";
		const button = row.createEl("button", { cls: "ccb-activity-undo-session", text });
		button.setAttribute("aria-label", `Undo every change of session ${key}, newest first`);
		button.addEventListener("click", () => {
			if (!confirming) {
				this.confirming = key;
			} else {
				this.confirming = undefined;
				void this.undoSession(key);
			}
			this.drawnFrom = -1;
			this.draw();
		});
	}

	/**
	 * Every change of a session, newest call first, as `undo --session` does: each call whose notes still hold what
	 * it left is undone; each note changed since is then reviewed in turn (nothing is written unless accepted).
	 */
	private async undoSession(key: string): Promise<void> {
		const source = this.source();
		const undo = source?.undo;
		if (!source || !undo) return;
		let results: UndoResult[];
		try {
			results = await undo.session(key);
		} catch (error) {
			new Notice(`The session could not be undone: ${error instanceof Error ? error.message : String(error)}`);
			return;
		}
		const undone = results.filter((result) => result.kind === "undone").length;
		const conflicts = results.flatMap((result) => (result.kind === "conflict" ? [result] : []));
		const refused = results.flatMap((result) =>
			result.kind === "refused" ? [`${result.id}: ${result.reason}`] : [],
		);
		const parts = [`Session ${key}: ${undone === 1 ? "1 call" : `${undone} calls`} undone`];
		if (conflicts.length > 0)
			parts.push(
				`${conflicts.length === 1 ? "1 call touches" : `${conflicts.length} calls touch`} notes changed since: review them`,
			);
		if (refused.length > 0) parts.push(`not undone: ${refused.join("; ")}`);
		new Notice(`${parts.join("; ")}.`);
		await this.reload();
		const items = conflicts.flatMap((result) => {
			const entry = this.all.find((candidate) => candidate.id === result.id);
			return entry ? result.conflicts.map((conflict) => ({ entry, conflict })) : [];
		});
		if (items.length > 0)
			new ActivityDetails(this.app, this.detailsEl, source, () => void this.reload()).reviewConflicts(items);
	}

	private choicesOf(): string {
		return JSON.stringify([
			[...new Set(this.all.map((entry) => entry.session.key))],
			[...new Set(this.all.map((entry) => entry.tool))].sort(),
		]);
	}

	private renderFilters(): void {
		const bar = this.filtersEl;
		bar.empty();
		this.filterChoices = this.choicesOf();
		const sessions = [...new Set(this.all.map((entry) => entry.session.key))];
		const tools = [...new Set(this.all.map((entry) => entry.tool))].sort();
		this.choice(bar, "session", "All sessions", sessions);
		this.choice(bar, "surface", "All surfaces", [...SURFACES]);
		this.choice(bar, "tool", "All tools", tools);
		this.choice(bar, "outcome", "All outcomes", [...CALL_OUTCOMES]);
		this.textFilter(bar, "note", "Note");
		this.textFilter(bar, "text", "Search");
	}

	private choice(
		bar: HTMLElement,
		field: "session" | "surface" | "tool" | "outcome",
		all: string,
		values: readonly string[],
	): void {
		const select = bar.createEl("select", { cls: ["dropdown", `ccb-activity-filter-${field}`] });
		select.setAttribute("aria-label", all);
		for (const value of ["", ...values]) {
			const option = select.createEl("option", { text: value === "" ? all : value });
			option.value = value;
		}
		select.value = this.filter[field] ?? "";
		select.addEventListener("change", () => {
			const next = { ...this.filter };
			if (select.value === "") delete next[field];
			else Object.assign(next, { [field]: select.value });
			this.filter = next;
			this.applyFilter();
		});
	}

	private textFilter(bar: HTMLElement, field: "note" | "text", label: string): void {
		const input = bar.createEl("input", { cls: `ccb-activity-filter-${field}` });
		input.setAttribute("placeholder", label);
		input.setAttribute("aria-label", label);
		input.value = this.filter[field] ?? "";
		input.addEventListener("input", () => {
			const next = { ...this.filter };
			if (input.value.trim() === "") delete next[field];
			else next[field] = input.value.trim();
			this.filter = next;
			this.applyFilter();
		});
	}

	/** Writes what the filters show as a new note (Markdown) or file (JSON) in the chosen folder. */
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

function rowKey(row: Row): string {
	return row.kind === "session" ? `session ${row.session.key}` : row.entry.id;
}
