import { Component, ItemView, MarkdownRenderer, type ViewStateResult, type WorkspaceLeaf } from "obsidian";
import type { PendingReview } from "../bridge/diff-review/review-types";
import { computeLineDiff } from "../bridge/diff-review/word-diff";
import { renderDiff, type DiffLayoutMode } from "./diff-rendering";

export const DIFF_VIEW_TYPE = "claude-code-diff";

/** Where the view's decisions go (the review manager of the bridge that opened it). */
export interface DiffReviewActions {
	accept(review: PendingReview, finalText: string): void;
	reject(review: PendingReview): void;
	/** The view closed while the review was pending: counts as a rejection. */
	closed(review: PendingReview): void;
}

/**
 * Shows one of Claude's proposed edits: the note against the proposal with word highlights, unified or
 * side by side, or rendered; the proposal can be edited before accepting. Closing the view rejects.
 */
export class DiffReviewView extends ItemView {
	private review: PendingReview | undefined;
	private actions: DiffReviewActions | undefined;
	/** Tab name restored from the saved workspace, with no review behind it. */
	private restoredTabName: string | undefined;
	private layout: DiffLayoutMode = "unified";
	private rendered = false;
	/** The user's edit of the proposal; undefined while unchanged, so the proposal is returned byte for byte. */
	private editedText: string | undefined;
	private diffEl: HTMLElement | undefined;
	private acceptButton: HTMLElement | undefined;
	private previewComponent: Component | undefined;

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
	}

	getViewType(): string {
		return DIFF_VIEW_TYPE;
	}

	getDisplayText(): string {
		return this.review ? `Review: ${this.review.target.relative.split("/").pop() ?? this.review.target.relative}` : "Claude Code review";
	}

	override getIcon(): string {
		return "file-diff";
	}

	/** The tab name this view shows, including one restored from a saved workspace. */
	get tabName(): string | undefined {
		return this.review?.tabName ?? this.restoredTabName;
	}

	get pendingReview(): PendingReview | undefined {
		return this.review;
	}

	override getState(): Record<string, unknown> {
		const tabName = this.tabName;
		return tabName === undefined ? super.getState() : { ...super.getState(), tabName };
	}

	override async setState(state: unknown, result: ViewStateResult): Promise<void> {
		if (typeof state === "object" && state !== null && "tabName" in state && typeof state.tabName === "string") this.restoredTabName = state.tabName;
		await super.setState(state, result);
	}

	/** Shows a review, replacing whatever this view showed. */
	showReview(review: PendingReview, actions: DiffReviewActions): void {
		this.review = review;
		this.actions = actions;
		this.restoredTabName = undefined;
		this.editedText = undefined;
		this.render();
	}

	override onOpen(): Promise<void> {
		this.render();
		return Promise.resolve();
	}

	override onClose(): Promise<void> {
		const { review, actions } = this;
		this.review = undefined;
		this.previewComponent?.unload();
		if (review && actions) actions.closed(review);
		return Promise.resolve();
	}

	private finalText(review: PendingReview): string {
		return this.editedText ?? review.proposedText;
	}

	private render(): void {
		const root = this.contentEl;
		root.empty();
		root.addClass("ccb-review");
		const review = this.review;
		if (!review) {
			root.createDiv({ cls: "ccb-review-gone", text: "This review is no longer waiting for a decision. Close this tab." });
			return;
		}
		this.renderHeader(root, review);
		this.renderToolbar(root, review);
		this.diffEl = root.createDiv({ cls: "ccb-review-body" });
		this.renderBody(review);
		this.renderEditor(root, review);
		this.renderButtons(root, review);
	}

	private renderHeader(root: HTMLElement, review: PendingReview): void {
		const header = root.createDiv({ cls: "ccb-review-header" });
		header.createDiv({ cls: "ccb-review-title", text: `Claude proposes a change to ${review.target.relative}` });
		if (review.isNewFile) header.createDiv({ cls: "ccb-review-notice", text: "This note does not exist yet: everything shown is new." });
		if (review.proposedText === "" && review.originalText !== "") {
			header.createDiv({ cls: ["ccb-review-notice", "ccb-review-warning"], text: "The proposal removes everything in this note. Accepting leaves the note empty." });
		}
	}

	private renderToolbar(root: HTMLElement, review: PendingReview): void {
		const toolbar = root.createDiv({ cls: "ccb-review-toolbar" });
		const layoutButton = toolbar.createEl("button", { cls: "ccb-review-layout", text: this.layout === "unified" ? "Side by side" : "Unified" });
		this.registerDomEvent(layoutButton, "click", () => {
			this.layout = this.layout === "unified" ? "side-by-side" : "unified";
			layoutButton.setText(this.layout === "unified" ? "Side by side" : "Unified");
			this.renderBody(review);
		});
		const previewButton = toolbar.createEl("button", { cls: "ccb-review-preview", text: this.rendered ? "Show changes" : "Show rendered" });
		this.registerDomEvent(previewButton, "click", () => {
			this.rendered = !this.rendered;
			previewButton.setText(this.rendered ? "Show changes" : "Show rendered");
			this.renderBody(review);
		});
	}

	private renderBody(review: PendingReview): void {
		const body = this.diffEl;
		if (!body) return;
		body.empty();
		this.previewComponent?.unload();
		this.previewComponent = undefined;
		const proposal = this.finalText(review);
		if (!this.rendered) {
			renderDiff(body, computeLineDiff(review.originalText, proposal).lines, this.layout);
			return;
		}
		const component = new Component();
		component.load();
		this.previewComponent = component;
		const panes = body.createDiv({ cls: ["ccb-review-rendered", `ccb-diff-${this.layout}`] });
		if (this.layout === "side-by-side") this.renderMarkdown(panes, "Current note", review.originalText, review, component);
		this.renderMarkdown(panes, "Proposal", proposal, review, component);
	}

	private renderMarkdown(parent: HTMLElement, label: string, markdown: string, review: PendingReview, component: Component): void {
		const pane = parent.createDiv({ cls: "ccb-review-rendered-pane" });
		pane.createDiv({ cls: "ccb-review-pane-label", text: label });
		const content = pane.createDiv({ cls: "markdown-rendered" });
		void MarkdownRenderer.render(this.app, markdown, content, review.target.relative, component);
	}

	private renderEditor(root: HTMLElement, review: PendingReview): void {
		const details = root.createDiv({ cls: "ccb-review-edit" });
		details.createDiv({ cls: "ccb-review-pane-label", text: "Proposal (edit before accepting if you like)" });
		const textarea = details.createEl("textarea", { cls: "ccb-review-textarea" });
		textarea.value = this.finalText(review);
		this.registerDomEvent(textarea, "input", () => {
			this.editedText = textarea.value;
			this.acceptButton?.setText("Accept edited");
			this.renderBody(review);
		});
	}

	private renderButtons(root: HTMLElement, review: PendingReview): void {
		const buttons = root.createDiv({ cls: "ccb-review-buttons" });
		const accept = buttons.createEl("button", { cls: ["mod-cta", "ccb-review-accept"], text: this.editedText === undefined ? "Accept" : "Accept edited" });
		this.acceptButton = accept;
		const reject = buttons.createEl("button", { cls: ["mod-warning", "ccb-review-reject"], text: "Reject" });
		this.registerDomEvent(accept, "click", () => this.decide(review, "accept"));
		this.registerDomEvent(reject, "click", () => this.decide(review, "reject"));
	}

	private decide(review: PendingReview, decision: "accept" | "reject"): void {
		const actions = this.actions;
		if (this.review !== review || !actions) return;
		if (decision === "accept") actions.accept(review, this.finalText(review));
		else actions.reject(review);
	}
}
