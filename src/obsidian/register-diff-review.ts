import type { App, Plugin } from "obsidian";
import { DiffReviewManager } from "../bridge/diff-review/diff-review-manager";
import { DiffReviewTools } from "../bridge/diff-review/diff-review-tools";
import type { SelectionSnapshot } from "../bridge/selection";
import { createWorkspaceTools } from "../bridge/tools/workspace-tools";
import type { VaultPaths } from "../bridge/vault-paths";
import type { ToolRegistry } from "../protocol/tool-registry";
import { DIFF_VIEW_TYPE, DiffReviewView } from "./diff-view";
import { ObsidianReviewPort } from "./obsidian-review-port";
import { ObsidianWorkspace } from "./obsidian-workspace";

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

export interface ObsidianIdeToolsOptions {
	app: App;
	tools: ToolRegistry;
	paths: VaultPaths;
	vaultName: string;
	/** The selection tracker's last selection (for getLatestSelection). */
	latestSelection: () => SelectionSnapshot | undefined;
	/** The "Review Claude's edits in Obsidian" setting. */
	reviewEdits: boolean;
}

export interface ObsidianIdeTools {
	reviews: DiffReviewManager;
	/** Turns openDiff, close_tab and closeAllDiffTabs on or off (the setting). */
	diffTools: DiffReviewTools;
}

/** Registers the edit-review tools and the read-only workspace tools of one bridge. Dispose `reviews` when the bridge stops. */
export function registerIdeTools(options: ObsidianIdeToolsOptions): ObsidianIdeTools {
	const { app, tools, paths } = options;
	let reviews: DiffReviewManager | undefined;
	const port = new ObsidianReviewPort(app, {
		accept: (review, finalText) => reviews?.accept(review.tabName, finalText, review.id),
		reject: (review) => reviews?.reject(review.tabName, review.id),
		closed: (review) => reviews?.viewClosed(review.tabName, review.id),
	});
	reviews = new DiffReviewManager({ paths, port });
	const diffTools = new DiffReviewTools(tools, reviews);
	diffTools.setEnabled(options.reviewEdits);
	const workspace = new ObsidianWorkspace(app, paths);
	for (const tool of createWorkspaceTools({ paths, workspace, vaultName: options.vaultName, latestSelection: options.latestSelection })) tools.register(tool);
	return { reviews, diffTools };
}
