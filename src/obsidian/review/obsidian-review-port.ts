import { MarkdownView, normalizePath, type App, type WorkspaceLeaf } from "obsidian";
import type { DiffReviewPort, PendingReview } from "../../review/edit-proposal";
import type { VaultLocation } from "../../vault/vault-paths";
import { DIFF_VIEW_TYPE, DiffReviewView, diffReviewViewState, type DiffReviewActions } from "./diff-view";
import { sameText } from "../editor/line-endings";

/** Notes whose pre-edit text is remembered for `refresh`; the oldest are forgotten first. */
const MAX_REMEMBERED_NOTES = 100;

/** Shows reviews in `DiffReviewView` tabs, one per tab name, and closes only those tabs. */
export class ObsidianReviewPort implements DiffReviewPort {
	/** Leaves still opening, so a close that arrives meanwhile can stop them. */
	private readonly opening = new Map<string, WorkspaceLeaf>();
	/** Note path → its text when the latest review of it was shown (what an editor shows before the edit lands). */
	private readonly preEditText = new Map<string, string>();

	constructor(
		private readonly app: App,
		private readonly actions: DiffReviewActions,
	) {}

	async show(review: PendingReview): Promise<void> {
		this.rememberPreEditText(review);
		const existing = this.viewsOf(review.title)[0];
		if (existing) {
			existing.showReview(review, this.actions);
			await this.app.workspace.revealLeaf(existing.leaf);
			return;
		}
		const leaf = this.app.workspace.getLeaf("tab");
		this.opening.set(review.title, leaf);
		try {
			await leaf.setViewState({ type: DIFF_VIEW_TYPE, active: true, state: { ...diffReviewViewState(review) } });
		} catch (error) {
			// A view that failed to open must not leave an empty tab behind; the caller reports the error.
			if (this.opening.get(review.title) === leaf) this.opening.delete(review.title);
			leaf.detach();
			throw error;
		}
		// Closed while opening: the leaf is already detached.
		if (this.opening.get(review.title) !== leaf) return;
		this.opening.delete(review.title);
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
		for (const leaf of this.reviewLeaves()) if (tabNameOf(leaf) === tabName) leaf.detach();
	}

	/** Review tabs open now, including deferred ones restored from an earlier run. */
	openTitles(): string[] {
		return this.reviewLeaves()
			.map(tabNameOf)
			.filter((name): name is string => name !== undefined);
	}

	/**
	 * The CLI wrote an accepted edit. Obsidian's file watcher reloads an open note by itself; this only catches an
	 * editor that still shows the text from before the edit. An editor that already matches the file (line-ending
	 * style aside) or holds anything else (the user typing) is left alone.
	 */
	refresh(target: VaultLocation): void {
		const path = normalizePath(target.relative);
		const file = this.app.vault.getFileByPath(path);
		const before = this.preEditText.get(path);
		if (!file || before === undefined) return;
		void this.app.vault.read(file).then((text) => {
			this.app.workspace.iterateAllLeaves((leaf) => {
				const view = leaf.view;
				if (!(view instanceof MarkdownView) || view.file?.path !== path) return;
				const shown = view.getViewData();
				if (!sameText(shown, text) && sameText(shown, before)) view.setViewData(text, false);
			});
		});
	}

	private rememberPreEditText(review: PendingReview): void {
		const path = normalizePath(review.note.relative);
		this.preEditText.delete(path);
		this.preEditText.set(path, review.before);
		if (this.preEditText.size > MAX_REMEMBERED_NOTES) {
			const oldest = this.preEditText.keys().next().value;
			if (oldest !== undefined) this.preEditText.delete(oldest);
		}
	}

	private reviewLeaves(): WorkspaceLeaf[] {
		return this.app.workspace.getLeavesOfType(DIFF_VIEW_TYPE);
	}

	private viewsOf(tabName: string): DiffReviewView[] {
		return this.reviewLeaves()
			.map((leaf) => leaf.view)
			.filter((view): view is DiffReviewView => view instanceof DiffReviewView && view.tabName === tabName);
	}
}

/** The tab name a review leaf shows; a deferred leaf (restored, never shown) still has it in its view state. */
function tabNameOf(leaf: WorkspaceLeaf): string | undefined {
	if (leaf.view instanceof DiffReviewView) return leaf.view.tabName;
	if (!leaf.isDeferred) return undefined;
	const tabName = leaf.getViewState().state?.tabName;
	return typeof tabName === "string" ? tabName : undefined;
}
