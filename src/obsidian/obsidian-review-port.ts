import { MarkdownView, type App, type WorkspaceLeaf } from "obsidian";
import type { DiffReviewPort, PendingReview } from "../bridge/diff-review/review-types";
import type { VaultLocation } from "../bridge/vault-paths";
import { DIFF_VIEW_TYPE, DiffReviewView, type DiffReviewActions } from "./diff-view";

/** Shows reviews in `DiffReviewView` tabs, one per tab name, and closes only those tabs. */
export class ObsidianReviewPort implements DiffReviewPort {
	/** Leaves still opening, so a close that arrives meanwhile can stop them. */
	private readonly opening = new Map<string, WorkspaceLeaf>();

	constructor(
		private readonly app: App,
		private readonly actions: DiffReviewActions,
	) {}

	async show(review: PendingReview): Promise<void> {
		const existing = this.viewsOf(review.tabName)[0];
		if (existing) {
			existing.showReview(review, this.actions);
			await this.app.workspace.revealLeaf(existing.leaf);
			return;
		}
		const leaf = this.app.workspace.getLeaf("tab");
		this.opening.set(review.tabName, leaf);
		try {
			await leaf.setViewState({ type: DIFF_VIEW_TYPE, active: true, state: { tabName: review.tabName } });
		} catch (error) {
			this.opening.delete(review.tabName);
			throw error;
		}
		// Closed while opening: the leaf is already detached.
		if (this.opening.get(review.tabName) !== leaf) return;
		this.opening.delete(review.tabName);
		const view = leaf.view;
		if (!(view instanceof DiffReviewView)) {
			leaf.detach();
			throw new Error("the review view did not open");
		}
		view.showReview(review, this.actions);
		await this.app.workspace.revealLeaf(leaf);
	}

	close(tabName: string): void {
		const opening = this.opening.get(tabName);
		if (opening) {
			this.opening.delete(tabName);
			opening.detach();
		}
		for (const view of this.viewsOf(tabName)) view.leaf.detach();
	}

	openTabNames(): string[] {
		return this.app.workspace
			.getLeavesOfType(DIFF_VIEW_TYPE)
			.map((leaf) => (leaf.view instanceof DiffReviewView ? leaf.view.tabName : undefined))
			.filter((name): name is string => name !== undefined);
	}

	/** Obsidian's file watcher normally reloads the note; this catches an editor that still shows the old text. */
	refresh(target: VaultLocation): void {
		const file = this.app.vault.getFileByPath(target.relative);
		if (!file) return;
		void this.app.vault.read(file).then((text) => {
			this.app.workspace.iterateAllLeaves((leaf) => {
				const view = leaf.view;
				if (view instanceof MarkdownView && view.file?.path === file.path && view.getViewData() !== text) view.setViewData(text, false);
			});
		});
	}

	private viewsOf(tabName: string): DiffReviewView[] {
		return this.app.workspace
			.getLeavesOfType(DIFF_VIEW_TYPE)
			.map((leaf) => leaf.view)
			.filter((view): view is DiffReviewView => view instanceof DiffReviewView && view.tabName === tabName);
	}
}
