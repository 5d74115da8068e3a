import { Notice } from "obsidian";
import type { ReviewProposer } from "../../review/edit-proposal";
import { decidedText, markEdits, suggestionPieces, type SuggestionPiece } from "../../shared/suggestions";
import { computeLineDiff } from "../../shared/word-diff";
import { renderDiff, type DiffLayoutMode } from "./diff-rendering";
import { renderMarkedRuns, renderSuggestions, type ChangeDecision } from "./suggestion-rendering";

/** A proposed edit of one note, as the review panel shows it. */
export interface ReviewInput {
	path: string;
	before: string;
	proposed: string;
	proposer: ReviewProposer;
	time: Date;
	isNewFile?: boolean;
	/** Why the proposal cannot be applied: shown, and only Reject is offered. */
	cannotApply?: string;
	/** Offer a "Reason for Claude" field beside Reject: the proposer hears what the user types there. */
	asksReason?: boolean;
}

/** The user's decision: the note's text as they decided it, or a rejection. */
export type ReviewVerdict = { kind: "accept"; finalText: string } | { kind: "reject"; reason?: string };

export interface ReviewPanelHost {
	decide(verdict: ReviewVerdict): void;
	/** The note as it is now, for "Review again"; undefined when it cannot be read. */
	currentText(): Promise<string | undefined>;
}

/** The keys that move between changes, as the view tells them (its own key scope registers them). */
export const CHANGE_KEYS_HINT = "Alt+↓ and Alt+↑ (Option on macOS) move between changes";

/** The keys of the proposal's text box while the user edits it (the view's key scope acts on them). */
export const EDIT_KEYS_HINT = "Escape stops editing; Ctrl+Enter (Cmd+Enter on macOS) accepts with your edits";

const NOTE_CHANGED =
	"Accept is off: the note changed after Claude proposed this edit. Review again to see what accepting would change now.";

/**
 * The review of one proposed edit, reusable wherever an edit waits for the user: a decision bar (who proposes,
 * the note, when, how many changes, Edit, Reject, Accept), then the proposal as suggestions in the note's text,
 * or the line diff on a second tab. Each change can be accepted or rejected on its own, and the proposal edited;
 * what the panel hands back is exactly the text as decided.
 */
export class ReviewPanel {
	private base: string;
	private pieces: SuggestionPiece[];
	private readonly decisions = new Map<number, ChangeDecision>();
	private readonly expanded = new Set<string>();
	/** The user's edit of the decided text; undefined while they have not edited. */
	private edited: string | undefined;
	private editing = false;
	private tab: "suggestions" | "lines" = "suggestions";
	private layout: DiffLayoutMode = "unified";
	private noteChanged = false;
	/** What the user typed as the reason for Claude (kept while the bar is drawn again). */
	private typedReason = "";
	/** Escape asked whether to reject the whole proposal; the bar shows the question until it is answered. */
	private askingToReject = false;
	private keepButton: HTMLElement | undefined;
	/** The reason box as drawn last (the bar is drawn again when the note changes, perhaps while the user types). */
	private reasonEl: HTMLInputElement | undefined;
	/** The proposal's text box while the user edits it. */
	private editorEl: HTMLElement | undefined;
	/** Each change's element by id, in the text's order, while the suggestions are drawn. */
	private changeEls = new Map<number, HTMLElement>();
	/** The change the keyboard last moved to or decided. */
	private currentChange: number | undefined;
	private readonly barEl: HTMLElement;
	private readonly tabsEl: HTMLElement;
	private readonly bodyEl: HTMLElement;

	constructor(
		root: HTMLElement,
		private readonly input: ReviewInput,
		private readonly host: ReviewPanelHost,
	) {
		this.base = input.before;
		this.pieces = suggestionPieces(this.base, input.proposed);
		root.addClass("ccb-review");
		this.barEl = root.createDiv({ cls: "ccb-review-bar" });
		this.tabsEl = root.createDiv({ cls: "ccb-review-tabs" });
		this.bodyEl = root.createDiv({ cls: "ccb-review-body" });
		this.render();
	}

	/** The text the note would hold if accepted now. */
	get finalText(): string {
		return this.edited ?? decidedText(this.pieces, this.rejected());
	}

	/** The text the changes are measured against: the note when proposed, or as it was when reviewed again. */
	get baseText(): string {
		return this.base;
	}

	get canAccept(): boolean {
		return this.input.cannotApply === undefined && !this.noteChanged;
	}

	setNoteChanged(changed: boolean): void {
		if (changed === this.noteChanged) return;
		this.noteChanged = changed;
		this.renderBar();
	}

	accept(): void {
		if (!this.canAccept) {
			new Notice(this.input.cannotApply ?? NOTE_CHANGED);
			return;
		}
		this.host.decide({ kind: "accept", finalText: this.finalText });
	}

	/** Rejects, with the given reason or else the one typed in the reason field (none when it is empty). */
	reject(reason: string | undefined = this.reasonField()): void {
		this.host.decide(reason === undefined ? { kind: "reject" } : { kind: "reject", reason });
	}

	private reasonField(): string | undefined {
		const reason = this.typedReason.trim();
		return this.input.asksReason === true && reason !== "" ? reason : undefined;
	}

	/**
	 * Escape: ends typing in the proposal, or answers "keep reviewing" to the question below; otherwise asks whether
	 * to reject the whole proposal. One key never throws away every change: that takes the Reject button.
	 */
	escape(): void {
		if (this.editing) this.setEditing(false);
		else if (this.askingToReject) this.keepReviewing();
		else this.askToReject();
	}

	/** Whether `element` is the proposal's text box (whose Escape and Mod+Enter the hint names). */
	isProposalEditor(element: HTMLElement): boolean {
		return this.editing && element === this.editorEl;
	}

	/**
	 * Escape in a text box of the bar (the reason for Claude): the focus goes back to the changes, to the one last
	 * moved to or else the first (with none showing, it only leaves the box); what was typed stays.
	 */
	leaveTextBox(box: HTMLElement): void {
		const target = this.currentChange ?? [...this.changeEls.keys()][0];
		if (target !== undefined) this.focusChange(target);
		else box.blur();
	}

	/** Shows "Reject all changes?" in the bar, with Keep reviewing (focused) and Reject. */
	askToReject(): void {
		this.askingToReject = true;
		this.renderBar();
		this.keepButton?.focus();
	}

	private keepReviewing(): void {
		this.askingToReject = false;
		this.renderBar();
		this.focusChange(this.currentChange);
	}

	/**
	 * Moves the keyboard's focus to the next change (`step` 1) or the previous one (-1), from the one last moved to,
	 * around at the ends; shows the suggestions first when the line diff is showing. False when there is no change
	 * to move to (none, or the user's own edit is showing).
	 */
	moveToChange(step: 1 | -1): boolean {
		if (this.editing || this.edited !== undefined) return false;
		if (this.tab !== "suggestions") {
			this.tab = "suggestions";
			this.renderTabs();
			this.renderBody();
		}
		const ids = [...this.changeEls.keys()];
		if (ids.length === 0) return false;
		const at = this.currentChange === undefined ? -1 : ids.indexOf(this.currentChange);
		const next = at < 0 ? (step === 1 ? 0 : ids.length - 1) : (at + step + ids.length) % ids.length;
		this.focusChange(ids[next]);
		return true;
	}

	private focusChange(id: number | undefined): void {
		if (id === undefined) return;
		const element = this.changeEls.get(id);
		if (!element) return;
		this.currentChange = id;
		element.focus();
	}

	/** Compares the proposal with the note as it is now; the decisions start over, the user's edit stays. */
	async reviewAgain(): Promise<void> {
		const current = await this.host.currentText();
		if (current === undefined) return;
		this.base = current;
		this.pieces = suggestionPieces(current, this.input.proposed);
		this.decisions.clear();
		this.expanded.clear();
		this.currentChange = undefined;
		this.noteChanged = false;
		this.render();
	}

	private rejected(): Set<number> {
		return new Set([...this.decisions].filter(([, decision]) => decision === "rejected").map(([id]) => id));
	}

	private render(): void {
		this.renderBar();
		this.renderTabs();
		this.renderBody();
	}

	private renderBar(): void {
		const bar = this.barEl;
		const typing = this.reasonBeingTyped();
		bar.empty();
		const { proposer } = this.input;
		const main = bar.createDiv({ cls: "ccb-review-bar-main" });
		const who = main.createDiv({ cls: "ccb-review-who" });
		who.createSpan({ cls: "ccb-review-proposer", text: proposerWords(proposer) });
		who.createSpan({ cls: "ccb-review-path", text: this.input.path });
		// The program, its connection and the tool it called, for whoever wants them: on hover, not in the sentence.
		who.setAttribute(
			"title",
			[proposer.client, proposer.session === undefined ? "" : `session ${proposer.session}`, proposer.tool]
				.filter((part) => part !== "")
				.join(" · "),
		);
		const time = who.createEl("time", {
			cls: "ccb-review-time",
			text: this.input.time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
		});
		time.setAttribute("datetime", this.input.time.toISOString());
		main.createSpan({ cls: "ccb-review-summary", text: this.summary() });
		const actions = main.createDiv({ cls: "ccb-review-actions" });
		if (this.input.cannotApply === undefined) {
			this.button(actions, ["ccb-review-edit"], this.editing ? "Done editing" : "Edit", () =>
				this.setEditing(!this.editing),
			);
		}
		this.reasonEl = this.input.asksReason === true ? this.renderReasonField(actions) : undefined;
		this.button(actions, ["ccb-review-reject"], "Reject", () => this.reject()).setAttribute(
			"aria-label",
			"Reject the whole proposal",
		);
		if (this.input.cannotApply === undefined) {
			const accept = this.button(actions, ["mod-cta", "ccb-review-accept"], this.acceptLabel(), () =>
				this.accept(),
			);
			accept.setAttribute(
				"aria-label",
				this.noteChanged ? NOTE_CHANGED : "Write this text to the note (Ctrl+Enter, or Cmd+Enter on macOS)",
			);
			if (this.noteChanged) accept.setAttribute("disabled", "");
		}
		if (this.askingToReject) this.renderRejectQuestion(bar);
		this.renderNotices(bar);
		const reason = this.reasonEl;
		if (typing && reason) {
			reason.focus();
			reason.setSelectionRange(typing.start, typing.end);
		}
	}

	/** Where the caret was in the reason box, when it had the focus (for drawing the bar again without losing it). */
	private reasonBeingTyped(): { start: number; end: number } | undefined {
		const field = this.reasonEl;
		if (!field || field.ownerDocument.activeElement !== field) return undefined;
		const end = field.value.length;
		return { start: field.selectionStart ?? end, end: field.selectionEnd ?? end };
	}

	private renderRejectQuestion(bar: HTMLElement): void {
		const total = this.changeCount();
		const question = bar.createDiv({ cls: ["ccb-review-notice", "ccb-review-confirm"], attr: { role: "alert" } });
		question.createSpan({
			text: `${total === 1 ? "Reject the change" : `Reject all ${total} changes`}? The note stays as it is.`,
		});
		this.keepButton = this.button(question, ["ccb-review-keep"], "Keep reviewing", () => this.keepReviewing());
		this.button(question, ["mod-warning", "ccb-review-confirm-reject"], "Reject", () => this.reject());
	}

	private renderReasonField(parent: HTMLElement): HTMLInputElement {
		const field = parent.createEl("input", {
			cls: "ccb-review-reason",
			attr: {
				type: "text",
				placeholder: "Reason for Claude (optional)",
				"aria-label": "Reason for Claude, sent when you reject",
				title: "Sent to Claude when you reject. Escape leaves this box.",
			},
		});
		field.value = this.typedReason;
		field.addEventListener("input", () => {
			this.typedReason = field.value;
		});
		return field;
	}

	private renderNotices(bar: HTMLElement): void {
		const { cannotApply, isNewFile } = this.input;
		if (cannotApply !== undefined) {
			bar.createDiv({
				cls: ["ccb-review-notice", "ccb-review-warning", "ccb-review-cannot-apply"],
				text: cannotApply,
			});
			return;
		}
		if (this.noteChanged) {
			const hold = bar.createDiv({ cls: ["ccb-review-notice", "ccb-review-warning", "ccb-review-hold"] });
			hold.createSpan({ text: NOTE_CHANGED });
			this.button(hold, ["ccb-review-again"], "Review again", () => void this.reviewAgain());
		}
		if (isNewFile === true)
			bar.createDiv({ cls: "ccb-review-notice", text: "This note does not exist yet: everything shown is new." });
		if (this.input.proposed === "" && this.base !== "") {
			bar.createDiv({
				cls: ["ccb-review-notice", "ccb-review-warning"],
				text: "The proposal removes everything in this note. Accepting leaves the note empty.",
			});
		}
	}

	private summary(): string {
		const total = this.changeCount();
		const rejected = this.rejected().size;
		const accepted = this.decisions.size - rejected;
		const parts = [total === 1 ? "1 change" : `${total} changes`];
		if (accepted > 0) parts.push(`${accepted} accepted`);
		if (rejected > 0) parts.push(`${rejected} rejected`);
		if (this.edited !== undefined) parts.push("edited by you");
		return parts.join(", ");
	}

	private acceptLabel(): string {
		if (this.edited !== undefined) return "Accept with my edits";
		const total = this.changeCount();
		const rejected = this.rejected().size;
		return rejected === 0 ? "Accept all" : `Accept ${total - rejected} of ${total}`;
	}

	private renderTabs(): void {
		const tabs = this.tabsEl;
		tabs.empty();
		for (const [tab, label] of [
			["suggestions", "Suggestions"],
			["lines", "Line diff"],
		] as const) {
			const button = this.button(
				tabs,
				["ccb-review-tab", ...(this.tab === tab ? ["is-active"] : [])],
				label,
				() => {
					this.tab = tab;
					this.renderTabs();
					this.renderBody();
				},
			);
			button.setAttribute("aria-pressed", String(this.tab === tab));
		}
		if (this.tab === "lines") {
			this.button(tabs, ["ccb-review-layout"], this.layout === "unified" ? "Side by side" : "Unified", () => {
				this.layout = this.layout === "unified" ? "side-by-side" : "unified";
				this.renderTabs();
				this.renderBody();
			});
		} else if (this.editing) tabs.createSpan({ cls: "ccb-review-keys", text: EDIT_KEYS_HINT });
		else if (this.edited === undefined && this.changeCount() > 1)
			tabs.createSpan({ cls: "ccb-review-keys", text: CHANGE_KEYS_HINT });
	}

	private changeCount(): number {
		return this.pieces.filter((piece) => piece.kind === "change").length;
	}

	private renderBody(): void {
		const body = this.bodyEl;
		body.empty();
		this.changeEls = new Map();
		this.editorEl = undefined;
		if (this.tab === "lines") {
			renderDiff(body, computeLineDiff(this.base, this.finalText).lines, this.layout, {
				expanded: this.expanded.has("lines"),
				showAll: () => {
					this.expanded.add("lines");
					this.renderBody();
				},
			});
			return;
		}
		if (this.editing) {
			const editor = body.createEl("textarea", { cls: "ccb-review-editor" });
			editor.value = this.finalText;
			editor.setAttribute("aria-label", "The proposal, as you edit it");
			this.editorEl = editor;
			editor.addEventListener("input", () => {
				const decided = decidedText(this.pieces, this.rejected());
				this.edited = editor.value === decided ? undefined : editor.value;
				this.renderBar();
			});
			editor.focus();
			return;
		}
		if (this.edited !== undefined) {
			renderMarkedRuns(body, markEdits(this.pieces, this.rejected(), this.edited));
			this.button(body, ["ccb-review-discard"], "Discard my edits", () => {
				this.edited = undefined;
				this.render();
			});
			return;
		}
		this.changeEls = renderSuggestions(body, this.pieces, {
			decisions: this.decisions,
			expanded: this.expanded,
			decide: (id, decision) => {
				if (decision === undefined) this.decisions.delete(id);
				else this.decisions.set(id, decision);
				this.renderBar();
				this.renderBody();
				// The button pressed is gone: the keyboard stays on the change it decided.
				this.focusChange(id);
			},
			expand: (key) => {
				this.expanded.add(key);
				this.renderBody();
			},
		});
	}

	private setEditing(editing: boolean): void {
		this.editing = editing;
		if (editing) this.tab = "suggestions";
		this.render();
	}

	private button(parent: HTMLElement, cls: string[], text: string, onClick: () => void): HTMLElement {
		const element = parent.createEl("button", { cls, text });
		element.addEventListener("click", onClick);
		return element;
	}
}

/** Who proposes, in words: where Claude works, not the program's or the tool's name. */
export function proposerWords(proposer: ReviewProposer): string {
	switch (proposer.surface) {
		case "ide":
			return "Claude Code in the terminal proposes a change to";
		case "panel":
			return "Claude Code in the panel proposes a change to";
		case "vault-tools":
			return "Claude's vault tools propose a change to";
		case "undo":
			return "Undo restores";
	}
}
