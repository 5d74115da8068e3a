import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";

// The obsidian module is the test stub here (its parseYaml/stringifyYaml are the yaml library's); what this checks
// is the wiring: the plugin's codec reads and writes through those two functions and has no syntax tree.
describe("obsidianYamlCodec", () => {
	it("parses and writes YAML through Obsidian's parseYaml and stringifyYaml", () => {
		expect(obsidianYamlCodec.parse("title: Plan\ntags: [a, b]\n")).toEqual({ title: "Plan", tags: ["a", "b"] });
		expect(() => obsidianYamlCodec.parse("a: [\n")).toThrow();
		expect(obsidianYamlCodec.parse(obsidianYamlCodec.stringify({ a: [1, "x: y"], b: null }))).toEqual({
			a: [1, "x: y"],
			b: null,
		});
	});

	it("reads tags from the parsed value: none where the YAML does not parse, as Obsidian's cache has none then", () => {
		expect(obsidianYamlCodec.scalarsUnderKeys("tags: [a]\nTag: b\n", /^tags?$/i)).toEqual(["a", "b"]);
		expect(obsidianYamlCodec.scalarsUnderKeys("tags: [a]\nbroken: [\n", /^tags?$/i)).toEqual([]);
	});
});
