import type { App as RealApp, WorkspaceLeaf as RealLeaf } from "obsidian";
import type { PendingReview } from "../../../src/review/edit-proposal";
import { DIFF_VIEW_TYPE, DiffReviewView, type DiffReviewActions } from "../../../src/obsidian/review/diff-view";
import { ObsidianReviewPort } from "../../../src/obsidian/review/obsidian-review-port";
import { WorkspaceLeaf, type App, type View } from "../../__mocks__/obsidian";
import { allLeaves, buildWorkspace, closeWorkspace, markdownViewOf, settle } from "../harness/workspace-builder";

const notePath = "Notes/note.md";
const crlfNote = "# Title\r\nfirst\r\n";

function pending(overrides: Partial<PendingReview> = {}): PendingReview {
	return {
		id: 1,
		title: "✻ [Claude Code] note.md (abc123) ⧉",
		note: { relative: notePath, absolute: `/vault/${notePath}` },
		before: crlfNote,
		after: "# Title\r\nsecond\r\n",
		isNewFile: false,
		sessionId: 1,
		proposer: { surface: "ide", client: "claude-code", session: 1, tool: "openDiff" },
		since: new Date(0),
		...overrides,
	};
}

const actions: DiffReviewActions = {
	accept: () => ({ kind: "accepted" }),
	reject: () => undefined,
	closed: () => undefined,
};
const opened: App[] = [];

async function setup() {
	const built = await buildWorkspace({ notes: { [notePath]: crlfNote }, tabs: [{ path: notePath }] });
	opened.push(built.app);
	// What Plugin.registerView does for the review view type.
	built.app.viewRegistry.set(
		DIFF_VIEW_TYPE,
		(leaf) => new DiffReviewView(leaf as unknown as RealLeaf) as unknown as View,
	);
	const port = new ObsidianReviewPort(built.app as unknown as RealApp, actions);
	const noteLeaf = built.leaves[0];
	if (!noteLeaf) throw new Error("no note tab");
	return { ...built, port, note: markdownViewOf(noteLeaf) };
}

function reviewLeaves(app: App) {
	return app.workspace.getLeavesOfType(DIFF_VIEW_TYPE);
}

afterEach(async () => {
	for (const app of opened.splice(0)) await closeWorkspace(app);
});

describe("ObsidianReviewPort showing and closing reviews", () => {
	it("opens one active review tab that names the note, and reuses it for the same tab name", async () => {
		const { app, port } = await setup();
		const setViewState = jest.spyOn(WorkspaceLeaf.prototype, "setViewState");
		await port.show(pending());
		// The note is in the view state the tab is created with, so its first title already names it.
		expect(setViewState).toHaveBeenCalledWith({
			type: DIFF_VIEW_TYPE,
			active: true,
			state: { tabName: pending().title, path: notePath },
		});
		setViewState.mockRestore();
		const [leaf] = reviewLeaves(app);
		expect(leaf?.getViewState().state).toEqual({ tabName: pending().title, path: notePath });
		expect(leaf?.getDisplayText()).toBe("Review: note.md");
		expect(app.workspace.activeLeaf).toBe(leaf);
		await port.show(pending({ id: 2, after: "other\n" }));
		expect(reviewLeaves(app)).toHaveLength(1);
		const view = leaf?.view;
		expect(view instanceof DiffReviewView ? view.pendingReview?.id : undefined).toBe(2);
		expect(port.openTitles()).toEqual([pending().title]);
	});

	it("closes only its own tab, and a close that arrives while the tab is opening leaves no tab", async () => {
		const { app, port } = await setup();
		await port.show(pending());
		port.close("some other tab");
		expect(reviewLeaves(app)).toHaveLength(1);
		port.close(pending().title);
		expect(reviewLeaves(app)).toHaveLength(0);
		const showing = port.show(pending({ id: 3 }));
		port.close(pending().title);
		await showing;
		expect(reviewLeaves(app)).toHaveLength(0);
		expect(allLeaves(app)).toHaveLength(1);
	});

	it("a review view that fails to open leaves no empty tab behind, and the error reaches the caller", async () => {
		const { app, port } = await setup();
		app.viewRegistry.set(DIFF_VIEW_TYPE, () => {
			throw new Error("view constructor failed");
		});
		await expect(port.show(pending())).rejects.toThrow("view constructor failed");
		expect(allLeaves(app)).toHaveLength(1);
		expect(port.openTitles()).toEqual([]);
	});

	it("lists and closes review tabs left deferred from an earlier run", async () => {
		const { app, port } = await setup();
		const leftover = app.workspace.getLeaf("tab");
		leftover.deferTo({ type: DIFF_VIEW_TYPE, state: { tabName: "old review", path: notePath } });
		expect(port.openTitles()).toEqual(["old review"]);
		port.close("old review");
		expect(leftover.detached).toBe(true);
	});
});

describe("ObsidianReviewPort.refresh after an accepted edit", () => {
	it("leaves an editor alone when it already shows the file (CRLF on disk, LF in the editor)", async () => {
		const { app, port, note } = await setup();
		await port.show(pending());
		const setViewData = jest.spyOn(note, "setViewData");
		port.refresh(pending().note);
		await settle(app);
		expect(setViewData).not.toHaveBeenCalled();
		expect(note.hasUnsavedChanges).toBe(false);
	});

	it("brings an editor that still shows the pre-edit text up to date with the file", async () => {
		const { app, port, note } = await setup();
		await port.show(pending());
		// The CLI wrote the accepted text; Obsidian's watcher has not reloaded the editor yet.
		app.vault.contents.set(notePath, "# Title\r\nsecond\r\n");
		port.refresh({ relative: "Notes//note.md", absolute: `/vault/${notePath}` });
		await settle(app);
		expect(note.getViewData()).toBe("# Title\nsecond\n");
	});

	it("never overwrites what the user is typing in the note", async () => {
		const { app, port, note } = await setup();
		await port.show(pending());
		note.type("# Title\nfirst\nmy unsaved line\n");
		app.vault.contents.set(notePath, "# Title\r\nsecond\r\n");
		port.refresh(pending().note);
		await settle(app);
		expect(note.getViewData()).toBe("# Title\nfirst\nmy unsaved line\n");
	});
});
