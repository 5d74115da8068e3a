import type { Plugin as RealPlugin } from "obsidian";
import type { PendingReview } from "../../../src/review/edit-proposal";
import { DIFF_VIEW_TYPE, DiffReviewView } from "../../../src/obsidian/review/diff-view";
import { registerDiffReviewView, revealReviewOf } from "../../../src/obsidian/review/register-diff-review";
import { App, type FakeElement, Plugin, type WorkspaceLeaf } from "../../__mocks__/obsidian";

const review = (tabName: string, id = 1): PendingReview => ({
	id,
	title: tabName,
	note: { relative: "Notes/a.md", absolute: "/vault/Notes/a.md" },
	before: "old\n",
	after: "new\n",
	isNewFile: false,
	sessionId: 1,
	proposer: { surface: "ide", client: "claude-code", session: 1, tool: "openDiff" },
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

	const shownReview = async (
		tabName: string,
		id: number,
		calls: string[] = [],
		shown = review(tabName, id),
	): Promise<WorkspaceLeaf> => {
		const leaf = await reviewTab(tabName);
		const view = leaf.view;
		if (!(view instanceof DiffReviewView)) throw new Error("not a review view");
		view.showReview(shown, {
			accept: (shown, text) => {
				calls.push(`accept ${shown.id} ${text}`);
				return { kind: "accepted" };
			},
			reject: (decided, reason) =>
				void calls.push(`reject ${decided.id}${reason === undefined ? "" : ` ${reason}`}`),
			closed: () => undefined,
		});
		return leaf;
	};

	it("the status bar counts the reviews waiting for a decision, and a click opens the oldest", async () => {
		const item = plugin.statusBarItems[0];
		if (!item) throw new Error("no status bar item");
		expect(item.hasClass("ccb-review-count")).toBe(true);
		expect(item.text).toBe("");
		const older = await shownReview("first", 1);
		expect(item.text).toBe("1 review");
		const newer = await shownReview("second", 2);
		expect(item.text).toBe("2 reviews");
		app.workspace.setActiveLeaf(newer as never);
		plugin.domEvents.find((event) => event.type === "click")?.callback({} as never);
		await Promise.resolve();
		expect(app.workspace.activeLeaf).toBe(older);
		older.detach();
		await Promise.resolve();
		expect(item.text).toBe("1 review");
	});

	it("the panel's Open review brings the newest review of that note to the front, and says when none waits", async () => {
		const older = await shownReview("first", 1);
		const newer = await shownReview("second", 2);
		const other = app.workspace.getLeaf("tab");
		app.workspace.setActiveLeaf(other as never);
		expect(revealReviewOf(app.workspace as never, "Notes/a.md")).toBe(true);
		await Promise.resolve();
		expect(app.workspace.activeLeaf).toBe(newer);
		expect(app.workspace.activeLeaf).not.toBe(older);
		expect(revealReviewOf(app.workspace as never, "Notes/other.md")).toBe(false);
	});

	it("Accept and Reject are commands, available only while a review has focus", async () => {
		const calls: string[] = [];
		const leaf = await shownReview("tab", 5, calls);
		const note = app.workspace.getLeaf("tab");
		app.workspace.setActiveLeaf(note);
		expect([plugin.runCommand("accept-review", true), plugin.runCommand("reject-review", true)]).toEqual([
			false,
			false,
		]);
		app.workspace.setActiveLeaf(leaf);
		expect(plugin.runCommand("accept-review")).toBe(true);
		expect(plugin.runCommand("reject-review")).toBe(true);
		expect(calls).toEqual(["accept 5 new\n", "reject 5"]);
	});

	it("the Reject command sends the reason typed for Claude", async () => {
		const calls: string[] = [];
		const leaf = await shownReview("tab", 6, calls, {
			...review("tab", 6),
			proposer: { surface: "vault-tools", client: "Claude's vault tools", tool: "edit_note" },
			hearsReason: true,
		});
		app.workspace.setActiveLeaf(leaf);
		const field = (leaf.view as unknown as { contentEl: FakeElement }).contentEl.findAll("ccb-review-reason")[0];
		if (!field) throw new Error("no reason field");
		field.value = "wrong note";
		field.dispatch("input");
		expect(plugin.runCommand("reject-review")).toBe(true);
		expect(calls).toEqual(["reject 6 wrong note"]);
	});
});
