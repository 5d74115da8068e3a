import { suggestionPieces } from "../../../src/shared/suggestions";
import {
	describeChange,
	renderMarkedRuns,
	renderSuggestions,
	type SuggestionCallbacks,
} from "../../../src/obsidian/review/suggestion-rendering";
import { FakeElement } from "../../__mocks__/obsidian";

function draw(
	before: string,
	after: string,
	expanded: string[] = [],
	decisions: [number, "accepted" | "rejected"][] = [],
) {
	const root = new FakeElement();
	const asked: string[] = [];
	const callbacks: SuggestionCallbacks = {
		decisions: new Map(decisions),
		expanded: new Set(expanded),
		decide: (id, decision) => asked.push(`${id} ${decision ?? "undo"}`),
		expand: (key) => asked.push(key),
	};
	const changes = renderSuggestions(root as unknown as HTMLElement, suggestionPieces(before, after), callbacks);
	return { root, asked, changes: changes as unknown as Map<number, FakeElement> };
}

const label = (element: FakeElement | undefined): string | undefined => element?.attributes.get("aria-label");

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

	it("a change offers accept and reject, each labelled with the change's own words", () => {
		const { root, asked } = draw("a brown fox\n", "a red fox\n");
		const [accept, reject] = [root.findAll("ccb-suggest-accept")[0], root.findAll("ccb-suggest-reject")[0]];
		expect([label(accept), label(reject)]).toEqual(["Accept: 'red' for 'brown'", "Reject: 'red' for 'brown'"]);
		accept?.dispatch("click");
		reject?.dispatch("click");
		expect(asked).toEqual(["1 accepted", "1 rejected"]);
	});

	it("names additions and deletions, shortens long ones, and says which spaces or line breaks a change is about", () => {
		expect(describeChange({ removed: "", added: "The best walks have no plan." })).toBe(
			"'The best walks have no plan.'",
		);
		expect(describeChange({ removed: "and", added: "" })).toBe("deleting 'and'");
		expect(
			describeChange({
				removed: "",
				added: "A sentence that runs on\nacross a line and well past forty characters.",
			}),
		).toBe("'A sentence that runs on across a line…'");
		expect(describeChange({ removed: " ", added: "\n\n" })).toBe("a line break for a space");
	});

	it("gives back each change's element in the text's order, focusable, and named with its place among the changes", () => {
		const { changes } = draw("one two three four\n", "ONE two three FOUR\n");
		expect([...changes.keys()]).toEqual([1, 2]);
		expect([...changes.values()].map((change) => [change.attributes.get("tabindex"), label(change)])).toEqual([
			["-1", "Change 1 of 2: 'ONE' for 'one'"],
			["-1", "Change 2 of 2: 'FOUR' for 'four'"],
		]);
	});

	it("keeps a decided change in view, its decision in words, what it drops struck through, and Undo", () => {
		const { root, asked, changes } = draw(
			"one two three four\n",
			"ONE two three FOUR\n",
			[],
			[
				[1, "accepted"],
				[2, "rejected"],
			],
		);
		const [accepted, rejected] = [changes.get(1), changes.get(2)];
		expect(accepted?.findAll("ccb-suggest-status-text")[0]?.text).toBe("Accepted");
		expect(accepted?.findAll("ccb-suggest-dropped").map((el) => [el.tag, el.textContent])).toEqual([
			["del", "one"],
		]);
		expect(accepted?.findAll("ccb-suggest-kept").map((el) => el.textContent)).toEqual(["ONE"]);
		expect(rejected?.findAll("ccb-suggest-status-text")[0]?.text).toBe("Rejected");
		expect(rejected?.findAll("ccb-suggest-dropped").map((el) => [el.tag, el.textContent])).toEqual([
			["del", "FOUR"],
		]);
		expect(rejected?.findAll("ccb-suggest-kept").map((el) => el.textContent)).toEqual(["four"]);
		expect([label(accepted), label(rejected)]).toEqual([
			"Change 1 of 2: 'ONE' for 'one', accepted",
			"Change 2 of 2: 'FOUR' for 'four', rejected",
		]);
		expect(root.findAll("ccb-suggest-accept")).toEqual([]);
		const undo = root.findAll("ccb-suggest-undo");
		expect(undo.map(label)).toEqual(["Undo accepting: 'ONE' for 'one'", "Undo rejecting: 'FOUR' for 'four'"]);
		undo[0]?.dispatch("click");
		expect(asked).toEqual(["1 undo"]);
	});

	it("a change of only spaces or line breaks shows a sign, so it can be seen", () => {
		const { root } = draw("One. Two.\n", "One.\n\nTwo.\n");
		expect(root.findAll("ccb-suggest-sign").map((sign) => sign.text)).toEqual(["␣", "¶"]);
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
