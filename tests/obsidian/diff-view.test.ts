import { App, FakeElement, MarkdownRenderer, WorkspaceLeaf } from "../__mocks__/obsidian";
import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import type { PendingReview } from "../../src/bridge/diff-review/review-types";
import { DiffReviewView, type DiffReviewActions } from "../../src/obsidian/diff-view";

const review: PendingReview = {
	id: 1,
	tabName: "✻ [Claude Code] note.md (abc123) ⧉",
	target: { relative: "Notes/note.md", absolute: "/vault/Notes/note.md" },
	originalText: "# Title\n\nThe quick brown fox.\n",
	proposedText: "# Title\n\nThe quick red fox.\n",
	isNewFile: false,
	sessionId: 1,
	since: new Date(0),
};

class RecordingActions implements DiffReviewActions {
	readonly calls: string[] = [];
	accept(shown: PendingReview, finalText: string): void {
		this.calls.push(`accept ${shown.id} ${JSON.stringify(finalText)}`);
	}
	reject(shown: PendingReview): void {
		this.calls.push(`reject ${shown.id}`);
	}
	closed(shown: PendingReview): void {
		this.calls.push(`closed ${shown.id}`);
	}
}

function openView(shown: PendingReview = review) {
	const leaf = new WorkspaceLeaf(new App("/vault", "Vault"));
	const view = new DiffReviewView(leaf as unknown as RealLeaf);
	const actions = new RecordingActions();
	view.load();
	view.showReview(shown, actions);
	const root = view.contentEl as unknown as FakeElement;
	const one = (cls: string): FakeElement => {
		const found = root.findAll(cls)[0];
		if (!found) throw new Error(`no .${cls}`);
		return found;
	};
	return { view, actions, root, one };
}

describe("DiffReviewView", () => {
	it("shows the note against the proposal with only the changed words highlighted", () => {
		const { root, view } = openView();
		expect(view.getDisplayText()).toBe("Review: note.md");
		expect(view.getState()).toEqual({ tabName: review.tabName });
		expect(root.findAll("ccb-diff-word-removed").map((el) => el.text)).toEqual(["brown"]);
		expect(root.findAll("ccb-diff-word-added").map((el) => el.text)).toEqual(["red"]);
		expect(root.findAll("ccb-diff-removed")).toHaveLength(1);
		expect(root.findAll("ccb-diff-added")).toHaveLength(1);
		expect(root.findAll("ccb-diff-unified")).toHaveLength(1);
	});

	it("switches to side by side and to the rendered preview", () => {
		const { root, one } = openView();
		one("ccb-review-layout").dispatch("click");
		expect(root.findAll("ccb-diff-side-by-side")).toHaveLength(1);
		expect(root.findAll("ccb-diff-row").length).toBeGreaterThan(0);
		one("ccb-review-preview").dispatch("click");
		expect(MarkdownRenderer.rendered.slice(-2)).toEqual([
			{ markdown: review.originalText, sourcePath: "Notes/note.md" },
			{ markdown: review.proposedText, sourcePath: "Notes/note.md" },
		]);
		expect(one("ccb-review-preview").text).toBe("Show changes");
	});

	it("accepts the proposal unchanged, byte for byte", () => {
		const { actions, one } = openView();
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.proposedText)}`]);
	});

	it("accepts the text as edited in the proposal box and updates the diff", () => {
		const { actions, one, root } = openView();
		const box = one("ccb-review-textarea");
		box.value = "# Title\n\nThe quick grey fox.\n";
		box.dispatch("input");
		expect(root.findAll("ccb-diff-word-added").map((el) => el.text)).toEqual(["grey"]);
		expect(one("ccb-review-accept").text).toBe("Accept edited");
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual(['accept 1 "# Title\\n\\nThe quick grey fox.\\n"']);
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

	it("says so when a view restored from an earlier session has no review", async () => {
		const leaf = new WorkspaceLeaf(new App("/vault", "Vault"));
		const view = new DiffReviewView(leaf as unknown as RealLeaf);
		await view.setState({ tabName: "old tab" }, { history: false });
		await view.onOpen();
		expect(view.tabName).toBe("old tab");
		expect((view.contentEl as unknown as FakeElement).textContent).toContain("This review is no longer waiting for a decision.");
	});
});
