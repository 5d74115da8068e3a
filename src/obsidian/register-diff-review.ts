import type { Plugin } from "obsidian";
import { DIFF_VIEW_TYPE, DiffReviewView } from "./diff-view";

/**
 * Registers the review view type (once, in `onload`). Review tabs restored from the saved workspace have
 * no request behind them any more, so they are closed once the layout is ready.
 */
export function registerDiffReviewView(plugin: Plugin): void {
	plugin.registerView(DIFF_VIEW_TYPE, (leaf) => new DiffReviewView(leaf));
	plugin.app.workspace.onLayoutReady(() => {
		for (const leaf of plugin.app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)) {
			if (!(leaf.view instanceof DiffReviewView) || leaf.view.pendingReview === undefined) leaf.detach();
		}
	});
}
