import { codecOverParser, isPlainMap } from "../../src/shared/yaml-codec";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";
import { parse, stringify } from "yaml";

const TAGS = /^tags?$/i;

describe("codecOverParser (a parser with values only, as Obsidian's)", () => {
	const codec = codecOverParser(parse, stringify);

	it("reads the scalars under matching top-level keys from the parsed value: nested, keys too, any key case", () => {
		expect(codec.scalarsUnderKeys("Tags: [a, b]\ntag: c\nother: d\n", TAGS)).toEqual(["a", "b", "c"]);
		expect(codec.scalarsUnderKeys("tags:\n  - x\n  - {y: z}\n", TAGS)).toEqual(["x", "y", "z"]);
		expect(codec.scalarsUnderKeys("tags: 2024\n", TAGS)).toEqual(["2024"]);
	});

	it("finds none in a text that does not parse, as Obsidian shows no properties then", () => {
		expect(codec.scalarsUnderKeys("tags: [private]\nbroken: [\n", TAGS)).toEqual([]);
		expect(codec.scalarsUnderKeys("- tags\n- private\n", TAGS)).toEqual([]);
	});

	it("agrees with the library's syntax-tree reading wherever the text parses", () => {
		for (const yaml of [
			"tags: [a, b]\n",
			"Tags: a, b\nTAG: '#c'\n",
			"tags:\n  - x # note\n  - [y, {z: w}]\n",
			"title: t\n",
		]) {
			expect(codec.scalarsUnderKeys(yaml, TAGS)).toEqual(libraryYamlCodec.scalarsUnderKeys(yaml, TAGS));
		}
	});
});

describe("isPlainMap", () => {
	it("is a mapping's value only", () => {
		expect([{}, { a: 1 }].map(isPlainMap)).toEqual([true, true]);
		expect([null, undefined, [], "a", 1, new Date(0)].map(isPlainMap)).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
		]);
	});
});
