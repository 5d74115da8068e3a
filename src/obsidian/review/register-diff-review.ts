import { ItemView, type Plugin, type View, type Workspace } from "obsidian";
import type { DiffReviewView } from "./diff-view";
import { DIFF_VIEW_TYPE } from "./review-view-type";

/**
 * The review view's module (the suggestions, their comparison and rendering), initialised when Obsidian first makes a
 * review view, not with main.js (issue 31). Obsidian's view creator answers at once, so this is a synchronous require
 * and not an `import()`: esbuild keeps the module wrapped in main.js until this first call.
 */
function reviewViewModule(): typeof import("./diff-view") {
	return require("./diff-view") as typeof import("./diff-view");
}

/** A review view, told by its type: none exists before its module is loaded, so the class is not needed to tell. */
function isReviewView(view: View): view is DiffReviewView {
	return view.getViewType() === DIFF_VIEW_TYPE;
}

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
			.filter((view): view is DiffReviewView => isReviewView(view) && view.pendingReview !== undefined);
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
		const view = new (reviewViewModule().DiffReviewView)(leaf);
		view.onPendingChange = showCount;
		return view;
	});
	const focusedReview = (checking: boolean, act: (view: DiffReviewView) => void): boolean => {
		const view = workspace.getActiveViewOfType(ItemView);
		if (!view || !isReviewView(view) || !view.pendingReview) return false;
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
			if (!isReviewView(leaf.view) || leaf.view.pendingReview === undefined) leaf.detach();
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
		.filter((leaf) => isReviewView(leaf.view) && leaf.view.pendingReview?.note.relative === notePath)
		.sort(
			(a, b) =>
				((b.view as DiffReviewView).pendingReview?.id ?? 0) -
				((a.view as DiffReviewView).pendingReview?.id ?? 0),
		)[0];
	if (waiting) void workspace.revealLeaf(waiting);
	return waiting !== undefined;
}
