import type { App, Plugin } from "obsidian";
import type { ActivitySource } from "./activity-details";
import { ACTIVITY_VIEW_TYPE } from "./activity-view-type";

/**
 * The activity view's module (its rows, words, details and export), initialised when Obsidian first makes the view,
 * not with main.js (issue 31). Obsidian's view creator answers at once, so this is a synchronous require and not an
 * `import()`: esbuild keeps the module wrapped in main.js until this first call.
 */
function activityViewModule(): typeof import("./activity-view") {
	return require("./activity-view") as typeof import("./activity-view");
}

/** The "Claude activity" view type, its ribbon icon and its command; `source` is the running bridge's journal and undo. */
export function registerActivityView(plugin: Plugin, source: () => ActivitySource | undefined): void {
	plugin.registerView(ACTIVITY_VIEW_TYPE, (leaf) => new (activityViewModule().ActivityView)(leaf, source));
	plugin.addRibbonIcon("history", "Open Claude activity", () => void openActivityView(plugin.app));
	plugin.addCommand({
		id: "open-activity",
		name: "Open Claude activity",
		callback: () => void openActivityView(plugin.app),
	});
}

/** Shows the activity view (in the right sidebar, once). */
export async function openActivityView(app: App): Promise<void> {
	const { workspace } = app;
	let leaf = workspace.getLeavesOfType(ACTIVITY_VIEW_TYPE)[0];
	if (!leaf) {
		leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf("tab");
		await leaf.setViewState({ type: ACTIVITY_VIEW_TYPE, active: true });
	}
	await workspace.revealLeaf(leaf);
}
