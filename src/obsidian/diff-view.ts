import { debounce, ItemView, MarkdownView, normalizePath, Notice, TFile, type TAbstractFile, type ViewStateResult, type WorkspaceLeaf } from "obsidian";
import type { AcceptOutcome, PendingReview } from "../ide/diff-review/review-types";
import { computeLineDiff } from "../shared/word-diff";
import { renderDiff, renderProposal, type DiffLayoutMode } from "./diff-rendering";
import { sameText } from "./line-endings";

export const DIFF_VIEW_TYPE = "claude-code-diff";

/** How long typing in the proposal box pauses before the diff is drawn again. */
export const PROPOSAL_REDRAW_DELAY_MS = 300;

/** Where the view's decisions go (the review manager of the bridge that opened it). */
export interface DiffReviewActions {
	/** Refused (with the reason) when the note's path no longer leads where it did when the review opened. */
	accept(review: PendingReview, finalText: string): AcceptOutcome;
	reject(review: PendingReview): void;
	/** The view closed while the review was pending: counts as a rejection. */
	closed(review: PendingReview): void;
}

/** What the view keeps in the workspace layout: the CLI's tab name and the reviewed note, for the tab title. */
export interface DiffReviewViewState {
	tabName: string;
	path: string;
}

export function diffReviewViewState(review: PendingReview): DiffReviewViewState {
	return { tabName: review.tabName, path: normalizePath(review.target.relative) };
}

const NOTE_CHANGED = "This note changed after Claude proposed the edit. Accepting replaces the note with the proposal, including what changed since.";

/**
 * Shows one of Claude's proposed edits: the note against the proposal with word highlights, unified or side by
 * side, or the proposal as it will read (as text: unaccepted text is never rendered as Markdown, which would run
 * other plugins' code blocks and load remote images). The proposal can be edited before accepting. Closing the
 * view rejects. While the review waits, the note is watched: if it changes (typing in Obsidian, a sync), Accept is
 * held until the user has looked at the diff against the note as it is now, so nothing they wrote is lost unseen.
 */
export class DiffReviewView extends ItemView {
	private review: PendingReview | undefined;
	private actions: DiffReviewActions | undefined;
	/** The view state restored from the saved workspace (or set before the review is attached). */
	private restored: Partial<DiffReviewViewState> = {};
	private layout: DiffLayoutMode = "unified";
	private showProposal = false;
	/** The user's edit of the proposal; undefined while unchanged, so the proposal is returned byte for byte. */
	private editedText: string | undefined;
	/** The note text the diff compares against: the text Claude saw, or the note as the user last compared it. */
	private baseText = "";
	/** The note differs from `baseText` and the user has not compared against it yet: Accept is held. */
	private noteChanged = false;
	private diffEl: HTMLElement | undefined;
	private noticeEl: HTMLElement | undefined;
	private acceptButton: HTMLElement | undefined;
	private readonly redraw = debounce(() => this.renderBody(), PROPOSAL_REDRAW_DELAY_MS, true);

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
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
		return this.review?.tabName ?? this.restored.tabName;
	}

	get pendingReview(): PendingReview | undefined {
		return this.review;
	}

	private get notePath(): string | undefined {
		return this.review ? normalizePath(this.review.target.relative) : this.restored.path;
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
		this.register(() => this.redraw.cancel());
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
		this.editedText = undefined;
		this.baseText = review.originalText;
		this.noteChanged = false;
		this.render();
		void this.checkNote();
	}

	override onOpen(): Promise<void> {
		this.render();
		return Promise.resolve();
	}

	override onClose(): Promise<void> {
		const { review, actions } = this;
		this.review = undefined;
		this.redraw.cancel();
		if (review && actions) actions.closed(review);
		return Promise.resolve();
	}

	private finalText(review: PendingReview): string {
		return this.editedText ?? review.proposedText;
	}

	/** Compares the note as the user sees it now (its open editor, else the file) with the diff's base. */
	private async checkNote(): Promise<void> {
		const review = this.review;
		// A review that cannot be applied is not compared with the note (which Claude may not see).
		if (!review || review.cannotApply !== undefined) return;
		const current = await this.currentNoteText(review);
		if (this.review !== review || current === undefined) return;
		const changed = !sameText(current, this.baseText);
		if (changed === this.noteChanged) return;
		this.noteChanged = changed;
		this.renderNoteNotice(review);
	}

	private async currentNoteText(review: PendingReview): Promise<string | undefined> {
		const path = normalizePath(review.target.relative);
		let editorText: string | undefined;
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (editorText === undefined && leaf.view instanceof MarkdownView && leaf.view.file?.path === path) editorText = leaf.view.getViewData();
		});
		if (editorText !== undefined) return editorText;
		const file = this.app.vault.getFileByPath(path);
		if (!file) return review.isNewFile ? "" : undefined;
		return this.app.vault.read(file);
	}

	/** The user chose to compare against the note as it is now: the diff shows what Accept would do to it. */
	private async compareWithNoteNow(review: PendingReview): Promise<void> {
		const current = await this.currentNoteText(review);
		if (this.review !== review || current === undefined) return;
		this.baseText = current;
		this.noteChanged = false;
		this.renderNoteNotice(review);
		this.renderBody();
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
		this.noticeEl = root.createDiv({ cls: "ccb-review-note-state" });
		this.renderNoteNotice(review);
		this.renderToolbar(root);
		this.diffEl = root.createDiv({ cls: "ccb-review-body" });
		this.renderBody();
		if (review.cannotApply === undefined) this.renderEditor(root, review);
		this.renderButtons(root, review);
	}

	private renderHeader(root: HTMLElement, review: PendingReview): void {
		const header = root.createDiv({ cls: "ccb-review-header" });
		header.createDiv({ cls: "ccb-review-title", text: `Claude proposes a change to ${review.target.relative}` });
		if (review.cannotApply !== undefined) {
			header.createDiv({ cls: ["ccb-review-notice", "ccb-review-warning", "ccb-review-cannot-apply"], text: review.cannotApply });
			return;
		}
		if (review.isNewFile) header.createDiv({ cls: "ccb-review-notice", text: "This note does not exist yet: everything shown is new." });
		if (review.proposedText === "" && review.originalText !== "") {
			header.createDiv({ cls: ["ccb-review-notice", "ccb-review-warning"], text: "The proposal removes everything in this note. Accepting leaves the note empty." });
		}
	}

	private renderNoteNotice(review: PendingReview): void {
		const notice = this.noticeEl;
		if (!notice) return;
		notice.empty();
		if (!this.noteChanged) return;
		notice.createDiv({ cls: ["ccb-review-notice", "ccb-review-warning"], text: NOTE_CHANGED });
		const compare = notice.createEl("button", { cls: "ccb-review-rebase", text: "Compare with the note now" });
		this.registerDomEvent(compare, "click", () => void this.compareWithNoteNow(review));
	}

	private renderToolbar(root: HTMLElement): void {
		const toolbar = root.createDiv({ cls: "ccb-review-toolbar" });
		const layoutButton = toolbar.createEl("button", { cls: "ccb-review-layout", text: this.layout === "unified" ? "Side by side" : "Unified" });
		this.registerDomEvent(layoutButton, "click", () => {
			this.layout = this.layout === "unified" ? "side-by-side" : "unified";
			layoutButton.setText(this.layout === "unified" ? "Side by side" : "Unified");
			this.renderBody();
		});
		const previewButton = toolbar.createEl("button", { cls: "ccb-review-preview", text: this.showProposal ? "Show changes" : "Show proposal" });
		this.registerDomEvent(previewButton, "click", () => {
			this.showProposal = !this.showProposal;
			previewButton.setText(this.showProposal ? "Show changes" : "Show proposal");
			this.renderBody();
		});
	}

	private renderBody(): void {
		const body = this.diffEl;
		const review = this.review;
		if (!body || !review) return;
		this.redraw.cancel();
		body.empty();
		const lines = computeLineDiff(this.baseText, this.finalText(review)).lines;
		if (this.showProposal) renderProposal(body, lines);
		else renderDiff(body, lines, this.layout);
	}

	private renderEditor(root: HTMLElement, review: PendingReview): void {
		const details = root.createDiv({ cls: "ccb-review-edit" });
		details.createDiv({ cls: "ccb-review-pane-label", text: "Proposal (edit before accepting if you like)" });
		const textarea = details.createEl("textarea", { cls: "ccb-review-textarea" });
		textarea.value = this.finalText(review);
		this.registerDomEvent(textarea, "input", () => {
			this.editedText = textarea.value;
			this.acceptButton?.setText("Accept edited");
			this.redraw();
		});
	}

	private renderButtons(root: HTMLElement, review: PendingReview): void {
		const buttons = root.createDiv({ cls: "ccb-review-buttons" });
		this.acceptButton = undefined;
		if (review.cannotApply === undefined) {
			const accept = buttons.createEl("button", { cls: ["mod-cta", "ccb-review-accept"], text: this.editedText === undefined ? "Accept" : "Accept edited" });
			this.acceptButton = accept;
			this.registerDomEvent(accept, "click", () => this.decide(review, "accept"));
		}
		const reject = buttons.createEl("button", { cls: ["mod-warning", "ccb-review-reject"], text: "Reject" });
		this.registerDomEvent(reject, "click", () => this.decide(review, "reject"));
	}

	private decide(review: PendingReview, decision: "accept" | "reject"): void {
		const actions = this.actions;
		if (this.review !== review || !actions) return;
		if (decision === "reject") {
			actions.reject(review);
			return;
		}
		if (this.noteChanged) {
			new Notice("The note changed after Claude proposed this edit. Choose \"compare with the note now\" to see what accepting would replace, then accept.");
			return;
		}
		const outcome = actions.accept(review, this.finalText(review));
		if (outcome.kind === "refused") new Notice(`Not accepted: ${outcome.reason}.`);
	}
}
