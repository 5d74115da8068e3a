import { suggestionPieces } from "../../../src/shared/suggestions";
import {
	renderMarkedRuns,
	renderSuggestions,
	type SuggestionCallbacks,
} from "../../../src/obsidian/review/suggestion-rendering";
import { FakeElement } from "../../__mocks__/obsidian";

function draw(before: string, after: string, expanded: string[] = []) {
	const root = new FakeElement();
	const asked: string[] = [];
	const callbacks: SuggestionCallbacks = {
		decisions: new Map(),
		expanded: new Set(expanded),
		decide: (id, decision) => asked.push(`${id} ${decision ?? "undo"}`),
		expand: (key) => asked.push(key),
	};
	renderSuggestions(root as unknown as HTMLElement, suggestionPieces(before, after), callbacks);
	return { root, asked };
}

const lines = (count: number): string => Array.from({ length: count }, (_, index) => `L${index + 1}\n`).join("");

describe("suggestion rendering", () => {
	it("keeps two lines of context next to a change and folds the rest, none before the note's start", () => {
		const { root, asked } = draw(`${lines(6)}old\n`, `${lines(6)}new\n`);
		expect(root.findAll("ccb-suggest-fold").map((fold) => fold.text)).toEqual(["4 unchanged lines"]);
		expect(root.textContent.startsWith("4 unchanged linesL5\nL6\n")).toBe(true);
		root.findAll("ccb-suggest-fold")[0]?.dispatch("click");
		expect(asked).toEqual(["piece 0"]);
		expect(draw(`${lines(6)}old\n`, `${lines(6)}new\n`, ["piece 0"]).root.findAll("ccb-suggest-fold")).toEqual([]);
	});

	it("a change offers accept and reject, each saying what it does", () => {
		const { root, asked } = draw("a b\n", "a c\n");
		const [accept, reject] = [root.findAll("ccb-suggest-accept")[0], root.findAll("ccb-suggest-reject")[0]];
		expect([accept?.attributes.get("aria-label"), reject?.attributes.get("aria-label")]).toEqual([
			"Accept this change",
			"Reject this change",
		]);
		accept?.dispatch("click");
		reject?.dispatch("click");
		expect(asked).toEqual(["1 accepted", "1 rejected"]);
	});

	it("marks the user's runs You and Claude's runs Claude, with a legend", () => {
		const root = new FakeElement();
		renderMarkedRuns(root as unknown as HTMLElement, [
			{ text: "kept " },
			{ text: "new", claude: "added" },
			{ text: " mine", you: "added" },
		]);
		expect(root.findAll("ccb-suggest-legend")[0]?.textContent).toBe("ClaudeYou");
		expect(
			root.findAll("ccb-suggest")[0]?.children.map((run) => [run.tag, [...run.classes].join(" "), run.text]),
		).toEqual([
			["span", "", "kept "],
			["ins", "ccb-suggest-added", "new"],
			["ins", "ccb-suggest-you", " mine"],
		]);
	});
});
