import { compareLines, type LineRun } from "../../src/shared/line-anchors";

const picture = (runs: readonly LineRun[]): string[] =>
	runs.map((run) => `${run.kind === "same" ? " " : run.kind === "removed" ? "-" : "+"}${run.lines.join("|")}`);

describe("compareLines", () => {
	it("keeps a paragraph that did not change, where a shortest diff would keep blank lines instead", () => {
		// A shortest diff may keep the blank line and show the paragraph deleted and added again.
		expect(picture(compareLines(["walk", "A paragraph.", "walk", ""], ["", "A paragraph."], 100))).toEqual([
			"-walk",
			"+",
			" A paragraph.",
			"-walk|",
		]);
	});

	it("of lines that moved across each other, keeps the longer one in place", () => {
		expect(
			picture(compareLines(["short", "A much longer paragraph."], ["A much longer paragraph.", "short"], 100)),
		).toEqual(["-short", " A much longer paragraph.", "+short"]);
	});

	it("between two kept lines, too many edits show as all lines there replaced", () => {
		const old = ["# Title", "a", "b", "c", "End"];
		expect(picture(compareLines(old, ["# Title", "x", "y", "z", "End"], 2))).toEqual([
			" # Title",
			"-a|b|c",
			"+x|y|z",
			" End",
		]);
		expect(picture(compareLines(old, ["# Title", "a", "y", "c", "End"], 100))).toEqual([
			" # Title|a",
			"-b",
			"+y",
			" c|End",
		]);
	});
});
