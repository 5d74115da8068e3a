import {
	ItemView,
	MarkdownView,
	normalizePath,
	Notice,
	Scope,
	TFile,
	type TAbstractFile,
	type ViewStateResult,
	type WorkspaceLeaf,
} from "obsidian";
import type { AcceptOutcome, PendingReview } from "../../review/edit-proposal";
import { sameText } from "../editor/line-endings";
import { ReviewPanel, type ReviewVerdict } from "./review-panel";

import { DIFF_VIEW_TYPE } from "./review-view-type";

export { DIFF_VIEW_TYPE };

/** Where the view's decisions go (the review manager of the bridge that opened it). */
export interface DiffReviewActions {
	/** Refused (with the reason) when the note's path no longer leads where it did when the review opened. */
	accept(review: PendingReview, finalText: string): AcceptOutcome;
	/** `reason`: what the user wrote for Claude, if anything. */
	reject(review: PendingReview, reason?: string): void;
	/** The view closed while the review was pending: counts as a rejection. */
	closed(review: PendingReview): void;
}

/** What the view keeps in the workspace layout: the CLI's tab name and the reviewed note, for the tab title. */
export interface DiffReviewViewState {
	tabName: string;
	path: string;
}

export function diffReviewViewState(review: PendingReview): DiffReviewViewState {
	return { tabName: review.title, path: normalizePath(review.note.relative) };
}

/**
 * Shows one of Claude's proposed edits in a `ReviewPanel` (suggestions in the note's text, or the line diff) and
 * passes the user's decision to the review manager. Closing the view rejects. While the review waits, the note is
 * watched: if it changes (typing in Obsidian, a sync), Accept is held until the user has reviewed again against
 * the note as it is now, so nothing they wrote is lost unseen. While the view has focus (its own key scope),
 * Mod+Enter accepts, Alt+↓ and Alt+↑ move between changes (Obsidian binds neither by default), and Escape asks
 * whether to reject the whole proposal rather than rejecting it: a writer presses Escape to get out of something,
 * never to throw away every change at once, and closing without deciding cannot be offered, as the proposer
 * waits for an answer (a closed review counts as a rejection). In the reason for Claude, none of these keys act
 * but Escape, which leaves the box; in the proposal's box, Escape stops editing and Mod+Enter accepts.
 */
export class DiffReviewView extends ItemView {
	private review: PendingReview | undefined;
	private actions: DiffReviewActions | undefined;
	private panel: ReviewPanel | undefined;
	/** The view state restored from the saved workspace (or set before the review is attached). */
	private restored: Partial<DiffReviewViewState> = {};
	/** Told when this view starts or stops waiting for a decision (the status bar counts pending reviews). */
	onPendingChange: (() => void) | undefined;

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		this.scope = new Scope(this.app.scope);
		// A key the handler leaves alone (returns anything but false) keeps its default: the caret moves in a text box.
		this.scope.register(["Mod"], "Enter", (event) => {
			if (this.reasonBoxOf(event)) return true;
			this.acceptReview();
			return false;
		});
		this.scope.register([], "Escape", (event) => {
			const box = this.reasonBoxOf(event);
			if (box) this.panel?.leaveTextBox(box);
			else this.panel?.escape();
			return false;
		});
		this.scope.register(["Alt"], "ArrowDown", (event) => !!this.textBoxOf(event) || !this.panel?.moveToChange(1));
		this.scope.register(["Alt"], "ArrowUp", (event) => !!this.textBoxOf(event) || !this.panel?.moveToChange(-1));
	}

	/**
	 * The text box of this review a key was pressed in, if any. Obsidian hands the view's key scope every key press
	 * while the view is active, wherever its focus is, so the view's keys must stay out of a box the user types in.
	 */
	private textBoxOf(event: KeyboardEvent): HTMLElement | undefined {
		const target = event.target as HTMLElement | null;
		return target && this.contentEl.contains(target) && isTextBox(target) ? target : undefined;
	}

	/**
	 * A text box other than the proposal being edited (the reason for Claude): none of the review's keys act there
	 * but Escape, which leaves it. The proposal's box keeps Escape and Mod+Enter, which the view's hint names.
	 */
	private reasonBoxOf(event: KeyboardEvent): HTMLElement | undefined {
		const box = this.textBoxOf(event);
		return box && this.panel?.isProposalEditor(box) !== true ? box : undefined;
	}

	getViewType(): string {
		return DIFF_VIEW_TYPE;
	}

	getDisplayText(): string {
		const path = this.notePath;
		return path === undefined ? "Claude Code review" : `Review: ${path.split("/").pop() ?? path}`;
	}

	override getIcon(): string {
		return "file-diff";
	}

	/** The tab name this view shows, including one restored from a saved workspace. */
	get tabName(): string | undefined {
		return this.review?.title ?? this.restored.tabName;
	}

	get pendingReview(): PendingReview | undefined {
		return this.review;
	}

	private get notePath(): string | undefined {
		return this.review ? normalizePath(this.review.note.relative) : this.restored.path;
	}

	override onload(): void {
		const onFile = (file: TAbstractFile): void => {
			if (file instanceof TFile && file.path === this.notePath) void this.checkNote();
		};
		this.registerEvent(this.app.vault.on("modify", onFile));
		this.registerEvent(this.app.vault.on("create", onFile));
		this.registerEvent(
			this.app.workspace.on("editor-change", (_editor, info) => {
				if (info.file?.path === this.notePath) void this.checkNote();
			}),
		);
	}

	override getState(): Record<string, unknown> {
		const state: Record<string, unknown> = { ...super.getState() };
		if (this.tabName !== undefined) state.tabName = this.tabName;
		if (this.notePath !== undefined) state.path = this.notePath;
		return state;
	}

	override async setState(state: unknown, result: ViewStateResult): Promise<void> {
		if (typeof state === "object" && state !== null) {
			if ("tabName" in state && typeof state.tabName === "string") this.restored.tabName = state.tabName;
			if ("path" in state && typeof state.path === "string") this.restored.path = normalizePath(state.path);
		}
		await super.setState(state, result);
	}

	/** Shows a review, replacing whatever this view showed. */
	showReview(review: PendingReview, actions: DiffReviewActions): void {
		this.review = review;
		this.actions = actions;
		this.restored = {};
		this.render();
		this.onPendingChange?.();
		void this.checkNote();
	}

	override onOpen(): Promise<void> {
		this.render();
		return Promise.resolve();
	}

	override onClose(): Promise<void> {
		const { review, actions } = this;
		this.review = undefined;
		this.panel = undefined;
		if (review && actions) actions.closed(review);
		this.onPendingChange?.();
		return Promise.resolve();
	}

	/** Accept all (as decided): the command and Mod+Enter. False when no review waits here. */
	acceptReview(): boolean {
		if (!this.panel) return false;
		this.panel.accept();
		return true;
	}

	/** Reject (with the reason typed for Claude, if any): the command. False when no review waits here. */
	rejectReview(): boolean {
		if (!this.panel) return false;
		this.panel.reject();
		return true;
	}

	/** Compares the note as the user sees it now (its open editor, else the file) with the diff's base. */
	private async checkNote(): Promise<void> {
		const review = this.review;
		// A review that cannot be applied is not compared with the note (which Claude may not see).
		if (!review || review.cannotApply !== undefined) return;
		const current = await this.currentNoteText(review);
		const panel = this.panel;
		if (this.review !== review || current === undefined || !panel) return;
		panel.setNoteChanged(!sameText(current, panel.baseText));
	}

	private async currentNoteText(review: PendingReview): Promise<string | undefined> {
		const path = normalizePath(review.note.relative);
		let editorText: string | undefined;
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (editorText === undefined && leaf.view instanceof MarkdownView && leaf.view.file?.path === path)
				editorText = leaf.view.getViewData();
		});
		if (editorText !== undefined) return editorText;
		const file = this.app.vault.getFileByPath(path);
		if (!file) return review.isNewFile ? "" : undefined;
		return this.app.vault.read(file);
	}

	private render(): void {
		const root = this.contentEl;
		root.empty();
		root.addClass("ccb-review");
		const review = this.review;
		this.panel = undefined;
		if (!review) {
			root.createDiv({
				cls: "ccb-review-gone",
				text: "This review is no longer waiting for a decision. Close this tab.",
			});
			return;
		}
		const input = {
			path: review.note.relative,
			before: review.before,
			proposed: review.after,
			proposer: review.proposer,
			time: review.since,
			isNewFile: review.isNewFile,
			asksReason: review.hearsReason === true,
			...(review.cannotApply !== undefined ? { cannotApply: review.cannotApply } : {}),
		};
		this.panel = new ReviewPanel(root, input, {
			decide: (verdict) => this.decide(review, verdict),
			currentText: () => this.currentNoteText(review),
		});
	}

	private decide(review: PendingReview, verdict: ReviewVerdict): void {
		const actions = this.actions;
		if (this.review !== review || !actions) return;
		if (verdict.kind === "reject") {
			actions.reject(review, verdict.reason);
			return;
		}
		const outcome = actions.accept(review, verdict.finalText);
		if (outcome.kind === "refused") new Notice(`Not accepted: ${outcome.reason}.`);
	}
}

/** Somewhere the keyboard types text: a text input, a textarea, or editable content. */
function isTextBox(element: HTMLElement): boolean {
	if (element.tagName === "TEXTAREA" || element.isContentEditable) return true;
	if (element.tagName !== "INPUT") return false;
	const type = (element.getAttribute("type") ?? "text").toLowerCase();
	return !["button", "checkbox", "radio", "submit", "reset", "image", "file", "range", "color"].includes(type);
}
