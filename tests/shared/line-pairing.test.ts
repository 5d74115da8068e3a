import { pairLines } from "../../src/shared/line-pairing";

describe("pairLines", () => {
	it("pairs the new line with the old line it rewords; the other old line went", () => {
		expect(pairLines(["- b\n", "- c\n"], ["- c, then d\n"])).toEqual([
			{ paired: false, removed: "- b\n", added: "" },
			{ paired: true, removed: "- c\n", added: "- c, then d\n" },
		]);
	});

	it("keeps the order of both sides, pairing the most words overall", () => {
		expect(
			pairLines(
				["The walk starts at the castle.\n", "Lunch in Alfama.\n"],
				["New opening line.\n", "The walk starts at the old castle.\n", "Lunch in Alfama, by the river.\n"],
			),
		).toEqual([
			{ paired: false, removed: "", added: "New opening line.\n" },
			{
				paired: true,
				removed: "The walk starts at the castle.\n",
				added: "The walk starts at the old castle.\n",
			},
			{ paired: true, removed: "Lunch in Alfama.\n", added: "Lunch in Alfama, by the river.\n" },
		]);
	});

	it("does not pair lines that share next to nothing: they went and came", () => {
		expect(pairLines(["Completely different words here.\n", "x\n"], ["Nothing alike in this one.\n"])).toEqual([
			{ paired: false, removed: "Completely different words here.\nx\n", added: "Nothing alike in this one.\n" },
		]);
	});

	it("does not pair blocks too big to compare line by line", () => {
		const lines = Array.from({ length: 60 }, (_, index) => `line ${index}\n`);
		expect(pairLines(lines, lines)).toBeUndefined();
	});
});
