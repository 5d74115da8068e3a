import { computeLineDiff } from "../../src/shared/word-diff";
import { renderDiff, renderProposal } from "../../src/obsidian/diff-rendering";
import { FakeElement } from "../__mocks__/obsidian";

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
		expect(root.findAll("ccb-diff-fold").map((fold) => fold.text)).toEqual(["2 unchanged lines", "3 unchanged lines"]);
		expect(root.findAll("ccb-diff-removed").map((line) => line.textContent)).toEqual(["6−line 6"]);
		expect(root.findAll("ccb-diff-added").map((line) => line.textContent)).toEqual(["6+line six"]);
		expect(root.findAll("ccb-diff-word-removed").map((word) => word.text)).toEqual(["6"]);
		expect(root.findAll("ccb-diff-word-added").map((word) => word.text)).toEqual(["six"]);
	});

	it("side by side: the old and new line share a row", () => {
		const root = draw((parent) => renderDiff(parent, computeLineDiff(before, after).lines, "side-by-side"));
		const changed = root.findAll("ccb-diff-row").find((row) => row.textContent.includes("six"));
		expect(changed?.children.map((half) => half.textContent)).toEqual(["6line 6", "6line six"]);
	});

	it("says so when nothing changes", () => {
		const root = draw((parent) => renderDiff(parent, computeLineDiff(before, before).lines, "unified"));
		expect(root.textContent).toBe("No changes: the proposal is the same as the note.");
	});

	it("the proposal view is the new text only, as text, with added words marked", () => {
		const root = draw((parent) => renderProposal(parent, computeLineDiff("keep\ndrop me\n", "keep\nnew [[link]] ![](https://x.example/a.png)\n").lines));
		expect(root.textContent).toBe("keep\nnew [[link]] ![](https://x.example/a.png)\n");
		const added = root.findAll("ccb-diff-word-added").map((word) => word.text).join("");
		expect(added).toContain("new");
		expect(added).toContain("![](https://x.example/a.png)");
		expect(root.textContent).not.toContain("drop me");
	});
});
