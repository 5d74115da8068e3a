import { Platform } from "obsidian";
import { openChanges } from "../../agent/inline-edit/inline-proposal";
import type { InlineEdit } from "./inline-edit-state";

/** What the panel's controls do. */
export interface InlineEditPanelActions {
	ask(words: string): void;
	stop(): void;
	acceptAll(): void;
	/** Rejects what is open and closes the inline edit (Escape). */
	dismiss(): void;
	/** Focuses the next (1) or the previous (-1) change in the note (Alt+↓/↑); false when there is none. */
	moveToChange(step: 1 | -1): boolean;
}

/**
 * The inline edit's panel below the passage: the request box (the first request, then follow-ups that refine the
 * proposal), what Claude is doing, and the buttons. One element per editor, kept while the inline edit is open and
 * updated in place, so what the user types survives Claude's streaming.
 */
export class InlineEditPanel {
	readonly element: HTMLElement;
	private readonly status: HTMLElement;
	private readonly input: HTMLInputElement;
	private readonly askButton: HTMLButtonElement;
	private readonly stopButton: HTMLButtonElement;
	private readonly acceptButton: HTMLButtonElement;
	private readonly rejectButton: HTMLButtonElement;
	private readonly closeButton: HTMLButtonElement;
	private readonly keys: HTMLElement;
	private readonly hint: HTMLElement;
	/** What the panel shows now, to draw nothing when that stays the same. */
	private shown = "";

	constructor(private readonly actions: InlineEditPanelActions) {
		this.element = createDiv({
			cls: "ccb-inline-panel",
			attr: { role: "group", "aria-label": "Edit with Claude" },
		});
		this.status = this.element.createDiv({ cls: "ccb-inline-status", attr: { "aria-live": "polite" } });
		const row = this.element.createDiv({ cls: "ccb-inline-row" });
		this.input = row.createEl("input", { cls: "ccb-inline-input", type: "text" });
		this.input.setAttr("aria-label", "What Claude should do");
		this.askButton = row.createEl("button", { cls: "mod-cta", text: "Ask" });
		this.stopButton = row.createEl("button", { text: "Stop" });
		const decisions = this.element.createDiv({ cls: "ccb-inline-row" });
		this.acceptButton = decisions.createEl("button", { cls: "mod-cta", text: "Accept all" });
		this.rejectButton = decisions.createEl("button", { text: "Reject all" });
		this.closeButton = decisions.createEl("button", { text: "Close" });
		this.keys = this.element.createDiv({ cls: "ccb-inline-keys" });
		this.hint = this.element.createDiv({ cls: "ccb-inline-hint" });
		this.askButton.addEventListener("click", () => this.submit());
		this.stopButton.addEventListener("click", () => actions.stop());
		this.acceptButton.addEventListener("click", () => actions.acceptAll());
		this.rejectButton.addEventListener("click", () => actions.dismiss());
		this.closeButton.addEventListener("click", () => actions.dismiss());
		this.input.addEventListener("keydown", (event) => this.onKey(event));
	}

	/**
	 * Shows the inline edit as it is now; `followUp`: a proposal came before, so a request refines it. While Claude
	 * writes, nothing here changes from one streamed chunk to the next, and nothing is redrawn.
	 */
	render(edit: InlineEdit, followUp: boolean): void {
		const { phase } = edit;
		const writing = phase.kind === "writing";
		const proposed = phase.kind === "proposed";
		const final = phase.kind === "said" && phase.final === true;
		const open = proposed ? openChanges(phase.pieces) : 0;
		const status = statusText(edit, open);
		const shown = JSON.stringify([
			phase.kind,
			status,
			final,
			open,
			followUp,
			edit.from === edit.to,
			Platform.isMacOS,
		]);
		if (shown === this.shown) return;
		this.shown = shown;
		this.status.setText(status);
		this.input.toggleClass("is-hidden", final);
		this.askButton.toggleClass("is-hidden", final || writing);
		this.input.disabled = writing;
		this.input.placeholder = followUp
			? "Ask for something else (for example: shorter, keep my second sentence)"
			: edit.from === edit.to
				? "Ask Claude to write here (for example: a closing sentence)"
				: "Ask Claude to change this passage (for example: shorter, plainer, fix the grammar)";
		this.stopButton.toggleClass("is-hidden", !writing);
		this.acceptButton.toggleClass("is-hidden", !proposed || open === 0);
		this.rejectButton.toggleClass("is-hidden", !proposed || open === 0);
		this.closeButton.toggleClass("is-hidden", proposed && open > 0);
		const mod = Platform.isMacOS ? "⌘" : "Ctrl";
		this.keys.empty();
		const decide = proposed && open > 0;
		keyHint(
			this.keys,
			decide ? `${mod}+Enter` : writing || final ? undefined : "Enter",
			decide ? "accepts all" : "asks",
		);
		if (decide) keyHint(this.keys, Platform.isMacOS ? "⌥↓" : "Alt+↓", "goes to the next change");
		keyHint(this.keys, "Esc", decide ? "rejects all" : "closes");
		this.hint.setText(
			proposed && open > 0
				? "Accept or reject each change where it stands in the note. Nothing is written until you accept."
				: "Claude reads this note and proposes changes here; nothing is written until you accept.",
		);
	}

	focus(): void {
		if (!this.input.disabled) this.input.focus();
	}

	private submit(): void {
		const words = this.input.value.trim();
		if (words === "" || this.input.disabled) return;
		this.input.value = "";
		this.actions.ask(words);
	}

	private onKey(event: KeyboardEvent): void {
		const mod = Platform.isMacOS ? event.metaKey : event.ctrlKey;
		if (event.key === "Enter" && mod) this.actions.acceptAll();
		else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) this.submit();
		else if (event.key === "Escape") this.actions.dismiss();
		else if (event.altKey && (event.key === "ArrowDown" || event.key === "ArrowUp"))
			this.actions.moveToChange(event.key === "ArrowDown" ? 1 : -1);
		else return;
		event.preventDefault();
		event.stopPropagation();
	}
}

/** One key and what it does, as "<kbd>Esc</kbd> closes"; nothing without a key. */
function keyHint(parent: HTMLElement, key: string | undefined, does: string): void {
	if (key === undefined) return;
	const hint = parent.createSpan({ cls: "ccb-inline-key" });
	hint.createEl("kbd", { text: key });
	hint.appendText(` ${does}`);
}

function statusText(edit: InlineEdit, open: number): string {
	const { phase } = edit;
	switch (phase.kind) {
		case "asking":
			return edit.from === edit.to ? "Claude writes at the cursor." : "Claude edits the highlighted passage.";
		case "writing":
			return "Claude is writing…";
		case "proposed":
			if (open === 0) return "Claude proposes no change.";
			return open === 1
				? "1 change: accept or reject it."
				: `${open} changes: accept or reject each, or all at once.`;
		case "said":
			return phase.message;
	}
}
