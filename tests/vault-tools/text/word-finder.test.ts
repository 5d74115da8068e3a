import fc from "fast-check";
import { rarity, sampledCommonness, wordFinder } from "../../../src/vault-tools/text/word-finder";

describe("wordFinder", () => {
	it("finds what indexOf finds, from any position", () => {
		const text = fc.string({
			unit: fc.constantFrom("s", "e", "n", "c", "q", "x", "1", " ", "é", "\n", "😀"),
			maxLength: 60,
		});
		const word = fc.string({
			unit: fc.constantFrom("s", "e", "n", "c", "q", "x", "1", "é", "😀"),
			minLength: 1,
			maxLength: 10,
		});
		fc.assert(
			fc.property(text, word, fc.integer({ min: -3, max: 130 }), (haystack, needle, from) => {
				const bytes = Buffer.from(haystack, "utf8");
				expect(wordFinder(needle)(bytes, from)).toBe(
					bytes.indexOf(Buffer.from(needle, "utf8"), Math.max(0, from)),
				);
			}),
			{ numRuns: 2000 },
		);
	});

	it("finds a word whose rarest letter is late in it, and each occurrence in turn", () => {
		const find = wordFinder("sentences");
		const text = Buffer.from("sentence; ces; sentences about sentences");
		expect(find(text, 0)).toBe(15);
		expect(find(text, 16)).toBe(31);
		expect(find(text, 32)).toBe(-1);
		// The piece ("ces") right at the start cannot be a match of the word.
		expect(find(Buffer.from("ces sentences"), 0)).toBe(4);
	});

	it("rates a word by its rarest character: q and z before common letters, anything not a letter or digit rarest", () => {
		expect(rarity("quokka")).toBeLessThan(rarity("marmalade"));
		expect(rarity("zebra")).toBeLessThan(rarity("crossing"));
		expect(rarity("about")).toBeLessThan(rarity("sentences"));
		expect(rarity("e2e")).toBeLessThan(rarity("eee"));
		expect(rarity("é")).toBe(0);
	});

	it("rates by the texts searched when sampled: a vault whose notes are all about budgets makes b common", () => {
		const commonness = sampledCommonness([Buffer.from("about about about bubble budget sentences\n")]);
		expect(rarity("about", commonness)).toBeGreaterThan(rarity("sentences", commonness));
		expect(rarity("about")).toBeLessThan(rarity("sentences"));
		// The piece looked for changes, never what is found.
		const text = Buffer.from("budget about sentences about");
		expect(wordFinder("about", commonness)(text, 0)).toBe(7);
		expect(wordFinder("about", commonness)(text, 8)).toBe(23);
	});
});
