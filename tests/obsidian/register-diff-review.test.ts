import type { Plugin as RealPlugin } from "obsidian";
import type { PendingReview } from "../../src/ide/diff-review/review-types";
import { DIFF_VIEW_TYPE, DiffReviewView } from "../../src/obsidian/diff-view";
import { registerDiffReviewView } from "../../src/obsidian/register-diff-review";
import { App, Plugin, type WorkspaceLeaf } from "../__mocks__/obsidian";

const review = (tabName: string): PendingReview => ({
	id: 1,
	tabName,
	target: { relative: "Notes/a.md", absolute: "/vault/Notes/a.md" },
	originalText: "old\n",
	proposedText: "new\n",
	isNewFile: false,
	sessionId: 1,
	proposer: { client: "claude-code", session: 1, tool: "openDiff" },
	since: new Date(0),
});

const ignore = { accept: () => ({ kind: "accepted" as const }), reject: () => undefined, closed: () => undefined };

describe("registerDiffReviewView", () => {
	let app: App;
	let plugin: Plugin;

	beforeEach(() => {
		app = new App("/vault", "Vault");
		plugin = new Plugin(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
		registerDiffReviewView(plugin as unknown as RealPlugin);
		plugin.load();
	});

	async function reviewTab(tabName: string): Promise<WorkspaceLeaf> {
		const leaf = app.workspace.getLeaf("tab");
		await leaf.setViewState({ type: DIFF_VIEW_TYPE, state: { tabName } });
		return leaf;
	}

	it("registers the review view type, and forgets it when the plugin unloads", async () => {
		const leaf = await reviewTab("x");
		expect(leaf.view).toBeInstanceOf(DiffReviewView);
		plugin.unload();
		expect(app.viewRegistry.has(DIFF_VIEW_TYPE)).toBe(false);
	});

	it("closes review tabs restored without a review once the layout is ready, and leaves the others", async () => {
		const restored = await reviewTab("✻ [Claude Code] a.md (1) ⧉");
		const live = await reviewTab("✻ [Claude Code] a.md (2) ⧉");
		const view = live.view;
		if (!(view instanceof DiffReviewView)) throw new Error("not a review view");
		view.showReview(review("✻ [Claude Code] a.md (2) ⧉"), ignore);
		const note = app.workspace.getLeaf("tab");
		expect(app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)).toHaveLength(2);

		app.workspace.finishLayout();
		expect(restored.detached).toBe(true);
		expect(live.detached).toBe(false);
		expect(note.detached).toBe(false);
		expect(app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)).toEqual([live]);
	});
});
