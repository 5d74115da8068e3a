import fc from "fast-check";
import { compareWords, wordTokens, type WordRun } from "../../src/shared/word-tokens";

/** Runs as text: [-…] removed, [+…] added. */
const picture = (runs: readonly WordRun[] | undefined): string =>
	(runs ?? [])
		.map((run) => (run.kind === "same" ? run.text : `[${run.kind === "removed" ? "-" : "+"}${run.text}]`))
		.join("");

describe("wordTokens", () => {
	it("cuts words with the spaces after them; punctuation and line breaks are their own tokens", () => {
		expect(wordTokens("Hello,  world.\r\n- item\n\n  indented")).toEqual([
			"Hello",
			",  ",
			"world",
			".",
			"\r\n",
			"- ",
			"item",
			"\n",
			"\n",
			"  ",
			"indented",
		]);
	});

	it("cuts scripts written without spaces into words", () => {
		expect(wordTokens("我们明天去公园散步。")).toEqual(["我们", "明天", "去", "公园", "散步", "。"]);
	});

	it("joins back to the text, whatever it is", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme-composite" }), (text) =>
				expect(wordTokens(text).join("")).toBe(text),
			),
		);
	});
});

describe("compareWords", () => {
	it("counts words, not the spaces between them: a kept word is never struck and added back", () => {
		expect(picture(compareWords("I wander without a map, and I wander", "I walk without a map; I wander"))).toBe(
			"I [-wander][+walk] without a map[-, and][+;] I wander",
		);
	});

	it("leaves the spaces and punctuation both sides of a replacement share unmarked, and a word whose space alone changed", () => {
		expect(picture(compareWords("shoes and a jacket", "shoes, a jacket"))).toBe("shoes[- and][+,] a jacket");
		expect(picture(compareWords("fox sat.", "fox sat down."))).toBe("fox sat[+ down].");
	});

	it("joins back to either text byte for byte", () => {
		const text = fc.array(fc.constantFrom("walk", "a", " ", ",", "\n", "\r\n", "公园", "мир", "-"), {
			maxLength: 30,
		});
		fc.assert(
			fc.property(text, text, (a, b) => {
				const runs = compareWords(a.join(""), b.join("")) ?? [];
				expect(
					runs
						.filter((run) => run.kind !== "added")
						.map((run) => run.text)
						.join(""),
				).toBe(a.join(""));
				expect(
					runs
						.filter((run) => run.kind !== "removed")
						.map((run) => run.text)
						.join(""),
				).toBe(b.join(""));
			}),
			{ numRuns: 300 },
		);
	});

	it("gives up on texts that differ in too many words", () => {
		const words = (prefix: string): string =>
			Array.from({ length: 1_200 }, (_, index) => `${prefix}${index}`).join(" ");
		expect(compareWords(words("a"), words("b"))).toBeUndefined();
	});
});
