import { App, MarkdownView, type WorkspaceLeaf } from "../../__mocks__/obsidian";

/** One tab of the main area: the note it shows, and whether it is a background tab restored at startup. */
export interface TabSpec {
	path: string;
	/** A background tab restored from the saved layout: a deferred placeholder until shown (Obsidian 1.7.2+). */
	deferred?: boolean;
}

export interface WorkspaceSpec {
	/** Vault contents: path → text. */
	notes: Record<string, string>;
	tabs?: TabSpec[];
	/** Index of the active tab (default: the first non-deferred one). */
	active?: number;
	basePath?: string;
	/** Whether the layout is ready (default true), as it is once Obsidian has started. */
	layoutReady?: boolean;
}

export interface BuiltWorkspace {
	app: App;
	/** The tabs in the order given. */
	leaves: WorkspaceLeaf[];
}

/**
 * A fake Obsidian window after a restart: the notes on "disk", the tabs in the main area (deferred background
 * tabs hold a placeholder view whose state names the note), the active tab shown and loaded, events delivered.
 */
export async function buildWorkspace(spec: WorkspaceSpec): Promise<BuiltWorkspace> {
	const app = new App(spec.basePath ?? "/vault", "Vault");
	for (const [path, text] of Object.entries(spec.notes)) app.vault.contents.set(path, text);
	const group = app.workspace.tabGroups[0];
	if (!group) throw new Error("no root tab group");
	const leaves: WorkspaceLeaf[] = [];
	for (const tab of spec.tabs ?? []) {
		const leaf = app.workspace.createLeafIn(group);
		if (tab.deferred) leaf.deferTo({ type: "markdown", state: { file: tab.path } });
		else {
			const file = app.vault.getFileByPath(tab.path);
			if (!file) throw new Error(`buildWorkspace: no note ${tab.path}`);
			await leaf.openFile(file);
		}
		leaves.push(leaf);
	}
	const activeIndex = spec.active ?? (spec.tabs ?? []).findIndex((tab) => !tab.deferred);
	const active = leaves[activeIndex];
	if (active) {
		app.workspace.setActiveLeaf(active);
		await active.loadIfDeferred();
	}
	if (spec.layoutReady ?? true) app.workspace.finishLayout();
	await settle(app);
	return { app, leaves };
}

/** Lets pending promise work finish and delivers the workspace's debounced events (no real waiting). */
export async function settle(app: App): Promise<void> {
	for (let round = 0; round < 5; round++) await Promise.resolve();
	app.workspace.flushEvents();
	for (let round = 0; round < 5; round++) await Promise.resolve();
}

/** Every leaf of the workspace, in iteration order. */
export function allLeaves(app: App): WorkspaceLeaf[] {
	const leaves: WorkspaceLeaf[] = [];
	app.workspace.iterateAllLeaves((leaf) => {
		leaves.push(leaf);
	});
	return leaves;
}

/** The loaded Markdown view of a leaf; throws when the leaf holds something else (e.g. it is still deferred). */
export function markdownViewOf(leaf: WorkspaceLeaf): MarkdownView {
	if (!(leaf.view instanceof MarkdownView))
		throw new Error(
			`the leaf holds a ${leaf.view.getViewType()} view${leaf.isDeferred ? " (deferred)" : ""}, not a MarkdownView`,
		);
	return leaf.view;
}

/** Closes every tab (each view's `onClose` runs and its timers stop) and delivers the last events. */
export async function closeWorkspace(app: App): Promise<void> {
	for (const leaf of allLeaves(app)) leaf.detach();
	await settle(app);
}
