import type { Plugin, Workspace } from "obsidian";
import { DIFF_VIEW_TYPE, DiffReviewView } from "./diff-view";

/**
 * Registers the review view type (once, in `onload`), its Accept and Reject commands (for the focused review;
 * Mod+Enter, Alt+↓/Alt+↑ and Escape are the view's own keys), and the status bar item that counts pending
 * reviews and opens the oldest on click. Review tabs restored from the saved workspace have no request behind them any more, so
 * they are closed once the layout is ready.
 */
export function registerDiffReviewView(plugin: Plugin): void {
	const { workspace } = plugin.app;
	const pendingViews = (): DiffReviewView[] =>
		workspace
			.getLeavesOfType(DIFF_VIEW_TYPE)
			.map((leaf) => leaf.view)
			.filter(
				(view): view is DiffReviewView => view instanceof DiffReviewView && view.pendingReview !== undefined,
			);
	const count = plugin.addStatusBarItem();
	count.addClass("ccb-review-count");
	count.setAttribute("aria-label", "Open the oldest review waiting for your decision");
	const showCount = (): void => {
		const pending = pendingViews().length;
		count.setText(pending === 0 ? "" : pending === 1 ? "1 review" : `${pending} reviews`);
	};
	plugin.registerDomEvent(count, "click", () => {
		const age = (view: DiffReviewView): [number, number] => [
			view.pendingReview?.since.getTime() ?? 0,
			view.pendingReview?.id ?? 0,
		];
		const oldest = pendingViews().sort((a, b) => age(a)[0] - age(b)[0] || age(a)[1] - age(b)[1])[0];
		if (oldest) void workspace.revealLeaf(oldest.leaf);
	});
	plugin.registerView(DIFF_VIEW_TYPE, (leaf) => {
		const view = new DiffReviewView(leaf);
		view.onPendingChange = showCount;
		return view;
	});
	const focusedReview = (checking: boolean, act: (view: DiffReviewView) => void): boolean => {
		const view = workspace.getActiveViewOfType(DiffReviewView);
		if (!view?.pendingReview) return false;
		if (!checking) act(view);
		return true;
	};
	plugin.addCommand({
		id: "accept-review",
		name: "Accept the review (all changes as decided)",
		checkCallback: (checking) => focusedReview(checking, (view) => view.acceptReview()),
	});
	plugin.addCommand({
		id: "reject-review",
		name: "Reject the review",
		checkCallback: (checking) => focusedReview(checking, (view) => view.rejectReview()),
	});
	workspace.onLayoutReady(() => {
		for (const leaf of workspace.getLeavesOfType(DIFF_VIEW_TYPE)) {
			if (!(leaf.view instanceof DiffReviewView) || leaf.view.pendingReview === undefined) leaf.detach();
		}
		showCount();
	});
}

/**
 * Brings the newest review waiting for a decision on this note (a vault path) to the front; false when none waits
 * (the panel's "Open review" on an edit's card).
 */
export function revealReviewOf(workspace: Workspace, notePath: string): boolean {
	const waiting = workspace
		.getLeavesOfType(DIFF_VIEW_TYPE)
		.filter((leaf) => leaf.view instanceof DiffReviewView && leaf.view.pendingReview?.note.relative === notePath)
		.sort(
			(a, b) =>
				((b.view as DiffReviewView).pendingReview?.id ?? 0) -
				((a.view as DiffReviewView).pendingReview?.id ?? 0),
		)[0];
	if (waiting) void workspace.revealLeaf(waiting);
	return waiting !== undefined;
}
