import { ReviewPanel, type ReviewInput, type ReviewVerdict } from "../../../src/obsidian/review/review-panel";
import { FakeElement } from "../../__mocks__/obsidian";

const input: ReviewInput = {
	path: "Journal/today.md",
	before: "Met Ana. We talked.\n",
	proposed: "Met Ana and Bo. We talked a lot.\n",
	proposer: { surface: "panel", client: "agent panel", tool: "Edit" },
	time: new Date("2026-11-27T08:00:00Z"),
};

function panel(current: string | undefined = input.before) {
	const root = new FakeElement();
	const verdicts: ReviewVerdict[] = [];
	const shown = new ReviewPanel(root as unknown as HTMLElement, input, {
		decide: (verdict) => verdicts.push(verdict),
		currentText: () => Promise.resolve(current),
	});
	const one = (cls: string): FakeElement => {
		const found = root.findAll(cls)[0];
		if (!found) throw new Error(`no .${cls}`);
		return found;
	};
	return { root, shown, verdicts, one };
}

describe("ReviewPanel on its own (what other features reuse)", () => {
	it("takes a note path, two texts, a proposer and a time, and hands back the text as decided", () => {
		const { root, shown, verdicts, one } = panel();
		expect([one("ccb-review-proposer").text, one("ccb-review-path").text]).toEqual([
			"Claude Code in the panel proposes a change to",
			"Journal/today.md",
		]);
		expect(one("ccb-review-who").attributes.get("title")).toBe("agent panel · Edit");
		expect(root.findAll("ccb-suggest-change")).toHaveLength(2);
		root.findAll("ccb-suggest-reject")[1]?.dispatch("click");
		one("ccb-review-accept").dispatch("click");
		one("ccb-review-reject").dispatch("click");
		shown.reject("Bo was not there");
		expect(verdicts).toEqual([
			{ kind: "accept", finalText: "Met Ana and Bo. We talked.\n" },
			{ kind: "reject" },
			{ kind: "reject", reason: "Bo was not there" },
		]);
	});

	it("offers a reason for Claude only when asked to, and a plain reject() (the command, Escape) sends what was typed", () => {
		expect(panel().root.findAll("ccb-review-reason")).toEqual([]);
		const root = new FakeElement();
		const verdicts: ReviewVerdict[] = [];
		const shown = new ReviewPanel(
			root as unknown as HTMLElement,
			{ ...input, asksReason: true },
			{ decide: (verdict) => verdicts.push(verdict), currentText: () => Promise.resolve(undefined) },
		);
		const field = root.findAll("ccb-review-reason")[0];
		if (!field) throw new Error("no reason field");
		field.value = "   ";
		field.dispatch("input");
		shown.reject();
		field.value = "Bo was not there";
		field.dispatch("input");
		shown.reject();
		expect(verdicts).toEqual([{ kind: "reject" }, { kind: "reject", reason: "Bo was not there" }]);
	});

	it("Review again measures the proposal against the note as it is now and starts the decisions over", async () => {
		const { root, shown, verdicts, one } = panel("Met Ana. We talked. Later: lunch.\n");
		root.findAll("ccb-suggest-reject")[0]?.dispatch("click");
		shown.setNoteChanged(true);
		expect(one("ccb-review-accept").attributes.has("disabled")).toBe(true);
		await shown.reviewAgain();
		expect(shown.baseText).toBe("Met Ana. We talked. Later: lunch.\n");
		expect(one("ccb-review-accept").attributes.has("disabled")).toBe(false);
		expect(root.findAll("ccb-suggest-change").filter((change) => change.hasClass("is-rejected"))).toEqual([]);
		expect(
			root
				.findAll("ccb-suggest-removed")
				.map((el) => el.textContent)
				.join(""),
		).toContain("Later: lunch");
		shown.accept();
		expect(verdicts).toEqual([{ kind: "accept", finalText: input.proposed }]);
	});

	it("moves between changes only while they are shown: not while the user types or looks at their own edit", () => {
		const { root, shown, one } = panel();
		expect(shown.moveToChange(1)).toBe(true);
		expect(FakeElement.lastFocused).toBe(root.findAll("ccb-suggest-change")[0]);
		one("ccb-review-edit").dispatch("click");
		expect(shown.moveToChange(1)).toBe(false);
		const box = one("ccb-review-editor");
		box.value = "Mine.\n";
		box.dispatch("input");
		one("ccb-review-edit").dispatch("click");
		expect(shown.moveToChange(1)).toBe(false);
		const same = new ReviewPanel(
			new FakeElement() as unknown as HTMLElement,
			{ ...input, proposed: input.before },
			{
				decide: () => undefined,
				currentText: () => Promise.resolve(undefined),
			},
		);
		expect(same.moveToChange(1)).toBe(false);
	});

	it("Escape ends typing first, then asks before rejecting everything; nothing is decided by Escape alone", () => {
		const { root, shown, verdicts, one } = panel();
		one("ccb-review-edit").dispatch("click");
		shown.escape();
		expect(one("ccb-review-edit").text).toBe("Edit");
		expect(root.findAll("ccb-review-confirm")).toEqual([]);
		shown.escape();
		expect(one("ccb-review-confirm").textContent).toContain("Reject all 2 changes?");
		shown.escape();
		expect(root.findAll("ccb-review-confirm")).toEqual([]);
		expect(verdicts).toEqual([]);
	});
});
