import type { TranscriptEntry } from "../../agent/transcript/panel-transcript";

/** Rows drawn above and below the visible ones, and how many are drawn while the list has no height yet. */
const OVERSCAN = 6;
const UNMEASURED_ROWS = 30;
/** How close to the end counts as "at the end": new rows then keep the end in view. */
const END_SLACK_PX = 24;

/** A row's height before it was ever drawn and measured: a guess from its kind and the length of its text. */
export function estimateRowHeight(entry: TranscriptEntry): number {
	switch (entry.kind) {
		case "user":
		case "assistant": {
			const lines = entry.text
				.split("\n")
				.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 60)), 0);
			return 28 + 22 * lines;
		}
		case "tool":
			return 34;
		case "permission":
			return 110;
		case "usage":
			return 24;
		case "notice":
			return 32;
	}
}

/**
 * The transcript's list: only the rows in view (and a few around them) exist as elements. Rows differ in height,
 * so each keeps its measured height (a guess until drawn); the offsets are their running sums, and the first row in
 * view is found by binary search. A row that changes (streamed text, a tool's result) is redrawn in place.
 */
export class TranscriptList {
	private rows: TranscriptEntry[] = [];
	private heights: number[] = [];
	/** offsets[i]: the top of row i; offsets[rows.length]: the whole height. */
	private offsets: number[] = [0];
	/** Heights measured by entry id, kept across filters. */
	private readonly measured = new Map<number, number>();
	private readonly drawn = new Map<number, HTMLElement>();
	private drawnRange: [number, number] = [-1, -1];
	private readonly sizerEl: HTMLElement;
	private readonly windowEl: HTMLElement;
	private emptyText = "";
	private readonly emptyEls: HTMLElement[] = [];

	constructor(
		readonly scrollEl: HTMLElement,
		private readonly drawRow: (element: HTMLElement, entry: TranscriptEntry) => void,
	) {
		this.sizerEl = scrollEl.createDiv({ cls: "ccb-agent-sizer" });
		this.windowEl = this.sizerEl.createDiv({ cls: "ccb-agent-window" });
	}

	/** The rows shown now. */
	get shown(): readonly TranscriptEntry[] {
		return this.rows;
	}

	/** The entries drawn as elements now (what is in view and around it). */
	get drawnEntries(): number[] {
		return [...this.drawn.keys()];
	}

	/** Shows these rows (a new session, or a filter); `end` scrolls to the last one. */
	setRows(rows: readonly TranscriptEntry[], emptyText: string, end: boolean): void {
		this.rows = [...rows];
		this.emptyText = emptyText;
		this.heights = rows.map((entry) => this.measured.get(entry.id) ?? estimateRowHeight(entry));
		this.offsets = [0];
		this.recomputeFrom(0);
		this.scrollEl.scrollTop = end ? this.totalHeight : 0;
		this.redraw();
	}

	/** Rows added at the end; the end stays in view when it was in view. */
	append(entries: readonly TranscriptEntry[]): void {
		if (entries.length === 0) return;
		const atEnd = this.atEnd();
		const from = this.rows.length;
		for (const entry of entries) {
			this.rows.push(entry);
			this.heights.push(this.measured.get(entry.id) ?? estimateRowHeight(entry));
		}
		this.recomputeFrom(from);
		if (atEnd) this.scrollEl.scrollTop = this.totalHeight;
		this.draw();
	}

	/** A row changed: drawn again where it stands, its height guessed again until measured. */
	update(entry: TranscriptEntry): void {
		const index = this.indexOf(entry.id);
		if (index < 0) return;
		const atEnd = this.atEnd();
		if (!this.measured.has(entry.id) || entry.kind === "assistant") {
			this.heights[index] = Math.max(this.heights[index] ?? 0, estimateRowHeight(entry));
			this.recomputeFrom(index);
		}
		const element = this.drawn.get(entry.id);
		if (element) {
			element.empty();
			this.drawRow(element, entry);
			this.measure(index, element);
		}
		if (atEnd) {
			this.scrollEl.scrollTop = this.totalHeight;
			this.draw();
		}
	}

	/** Draws what the scroll position shows (the view calls this on scroll). */
	draw(): void {
		const [from, to] = this.visibleRange();
		if (from === this.drawnRange[0] && to === this.drawnRange[1]) return;
		this.drawRange(from, to);
	}

	/** Draws every row in view anew (after a filter, or rows whose look changed). */
	redraw(): void {
		this.drawRange(...this.visibleRange(), true);
	}

	get totalHeight(): number {
		return this.offsets[this.rows.length] ?? 0;
	}

	/**
	 * Draws rows `from` to `to`. Rows already drawn stay as they are (scrolling or a new row at the end draws only the
	 * rows that come into view); `fresh` draws every row anew (a filter, rows whose look changed).
	 */
	private drawRange(from: number, to: number, fresh = false): void {
		this.drawnRange = [from, to];
		const wanted = new Set<number>();
		for (let index = from; index < to; index++) wanted.add(this.rows[index]?.id ?? -1);
		if (fresh) {
			this.windowEl.empty();
			this.drawn.clear();
		}
		for (const [id, element] of this.drawn) {
			if (wanted.has(id)) continue;
			element.remove();
			this.drawn.delete(id);
		}
		this.windowEl.setCssProps({ "--ccb-agent-offset": `${this.offsets[from] ?? 0}px` });
		for (const empty of Array.from(this.emptyEls.splice(0))) empty.remove();
		if (this.rows.length === 0 && this.emptyText !== "")
			this.emptyEls.push(this.windowEl.createDiv({ cls: "ccb-agent-empty", text: this.emptyText }));
		// The rows kept are one run; new rows go before it (closest first, each put at the start) or after it.
		const firstKept = this.rows.slice(from, to).findIndex((entry) => this.drawn.has(entry.id));
		const created: [number, HTMLElement][] = [];
		const create = (index: number, prepend: boolean): void => {
			const entry = this.rows[index];
			if (!entry) return;
			const element = this.windowEl.createDiv({ cls: ["ccb-agent-row", `ccb-agent-row-${entry.kind}`], prepend });
			this.drawRow(element, entry);
			this.drawn.set(entry.id, element);
			created.push([index, element]);
		};
		if (firstKept < 0) {
			for (let index = from; index < to; index++) create(index, false);
		} else {
			for (let index = from + firstKept - 1; index >= from; index--) create(index, true);
			for (let index = from + firstKept; index < to; index++)
				if (!this.drawn.has(this.rows[index]?.id ?? -1)) create(index, false);
		}
		// Read the heights after every row is in place: one layout, not one per row.
		let changedFrom = -1;
		for (const [index, element] of created)
			if (this.remember(index, element) && (changedFrom < 0 || index < changedFrom)) changedFrom = index;
		if (changedFrom >= 0) this.recomputeFrom(changedFrom);
	}

	private measure(index: number, element: HTMLElement): void {
		if (this.remember(index, element)) this.recomputeFrom(index);
	}

	/** The rendered height replaces the guess (a real layout gives one; without layout the guess stays). */
	private remember(index: number, element: HTMLElement): boolean {
		const height = element.offsetHeight;
		const entry = this.rows[index];
		if (!entry || !(height > 0) || height === this.heights[index]) return false;
		this.measured.set(entry.id, height);
		this.heights[index] = height;
		return true;
	}

	private visibleRange(): [number, number] {
		const height = this.scrollEl.clientHeight;
		const top = this.scrollEl.scrollTop;
		const first = this.rowAt(top);
		if (!(height > 0)) {
			const from = Math.max(0, Math.min(first, this.rows.length - UNMEASURED_ROWS + OVERSCAN) - OVERSCAN);
			return [from, Math.min(this.rows.length, from + UNMEASURED_ROWS)];
		}
		const last = this.rowAt(top + height);
		return [Math.max(0, first - OVERSCAN), Math.min(this.rows.length, last + 1 + OVERSCAN)];
	}

	/** The row at this height (binary search over the offsets). */
	private rowAt(y: number): number {
		let low = 0;
		let high = this.rows.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if ((this.offsets[middle] ?? 0) <= y) low = middle;
			else high = middle - 1;
		}
		return Math.max(0, low);
	}

	private recomputeFrom(index: number): void {
		this.offsets.length = index + 1;
		for (let row = index; row < this.rows.length; row++)
			this.offsets[row + 1] = (this.offsets[row] ?? 0) + (this.heights[row] ?? 0);
		this.sizerEl.setCssProps({ "--ccb-agent-height": `${this.totalHeight}px` });
	}

	private atEnd(): boolean {
		const height = this.scrollEl.clientHeight;
		return this.scrollEl.scrollTop + (height > 0 ? height : 0) >= this.totalHeight - END_SLACK_PX;
	}

	private indexOf(id: number): number {
		// Rows are in id order (entries are numbered as they come), so the search is binary.
		let low = 0;
		let high = this.rows.length - 1;
		while (low <= high) {
			const middle = (low + high) >> 1;
			const at = this.rows[middle]?.id ?? 0;
			if (at === id) return middle;
			if (at < id) low = middle + 1;
			else high = middle - 1;
		}
		return -1;
	}
}
