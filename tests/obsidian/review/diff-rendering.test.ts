import { computeLineDiff } from "../../../src/shared/word-diff";
import { renderDiff } from "../../../src/obsidian/review/diff-rendering";
import { FakeElement } from "../../__mocks__/obsidian";

function draw(build: (parent: HTMLElement) => void): FakeElement {
	const root = new FakeElement();
	build(root as unknown as HTMLElement);
	return root;
}

const before = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
const after = before.replace("line 6", "line six");

describe("diff rendering", () => {
	it("unified: one hunk with three lines of context, the rest folded with its count", () => {
		const root = draw((parent) => renderDiff(parent, computeLineDiff(before, after).lines, "unified"));
		expect(root.findAll("ccb-diff-fold").map((fold) => fold.text)).toEqual([
			"2 unchanged lines",
			"3 unchanged lines",
		]);
		expect(root.findAll("ccb-diff-removed").map((line) => line.textContent)).toEqual(["6−line 6"]);
		expect(root.findAll("ccb-diff-added").map((line) => line.textContent)).toEqual(["6+line six"]);
		expect(root.findAll("ccb-diff-word-removed").map((word) => word.text)).toEqual(["6"]);
		expect(root.findAll("ccb-diff-word-added").map((word) => word.text)).toEqual(["six"]);
	});

	it("side by side: the old and new line share a row, under Before and After labels", () => {
		const root = draw((parent) => renderDiff(parent, computeLineDiff(before, after).lines, "side-by-side"));
		expect(root.findAll("ccb-diff-label").map((label) => label.text)).toEqual(["Before", "After"]);
		const changed = root.findAll("ccb-diff-row").find((row) => row.textContent.includes("six"));
		expect(changed?.children.map((half) => half.textContent)).toEqual(["6line 6", "6line six"]);
	});

	it("a fold is a button that asks for every line; expanded, nothing is folded", () => {
		let asked = 0;
		const root = draw((parent) =>
			renderDiff(parent, computeLineDiff(before, after).lines, "unified", { showAll: () => asked++ }),
		);
		const fold = root.findAll("ccb-diff-fold")[0];
		expect(fold?.tag).toBe("button");
		fold?.dispatch("click");
		expect(asked).toBe(1);
		const expanded = draw((parent) =>
			renderDiff(parent, computeLineDiff(before, after).lines, "unified", { expanded: true }),
		);
		expect(expanded.findAll("ccb-diff-fold")).toEqual([]);
		expect(expanded.findAll("ccb-diff-line")).toHaveLength(13);
	});

	it("says so when nothing changes", () => {
		const root = draw((parent) => renderDiff(parent, computeLineDiff(before, before).lines, "unified"));
		expect(root.textContent).toBe("No changes: the proposal is the same as the note.");
	});
});
