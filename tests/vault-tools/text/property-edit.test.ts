import { codecOverParser, type YamlCodec } from "../../../src/shared/yaml-codec";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import { obsidianYamlCodec } from "../../../src/obsidian/notes/obsidian-yaml-codec";
import { editProperties, sameValue, withChanges } from "../../../src/vault-tools/text/property-edit";

const CODECS: [string, YamlCodec][] = [
	["the yaml library (headless, command)", libraryYamlCodec],
	["Obsidian's parseYaml/stringifyYaml (plugin)", obsidianYamlCodec],
];

/** Frontmatter YAML, properties to set and keys to remove. */
const CASES: [string, string, Record<string, unknown>, string[]][] = [
	["a plain value replaced and a key added", "status: draft\ntitle: Plan", { status: "final", n: 2 }, []],
	[
		"a flow list with a comment elsewhere",
		"title: A # the title\ntags: [a, b]\nold: 1",
		{ tags: ["x", "y z", "a, b"], added: true },
		["old"],
	],
	[
		"a block list and a multi-line string",
		"tags:\n  - a\n  - b\ndesc: |\n  line one\n\n  line two\nafter: 1",
		{ tags: ["c"], desc: "one\ntwo" },
		["after"],
	],
	[
		"nested values and odd strings",
		"meta:\n  a: 1\n  b: [x]",
		{ meta: { c: [1, { d: null }] }, quoted: "#not a comment", colon: "a: b", yes: "yes" },
		[],
	],
	["a key that needs quotes", '"my: key": 1\nother: 2', { "my: key": 3, "new key?": "v" }, ["other"]],
	["the last key removed", "only: 1", {}, ["only"]],
	["a top-level flow map (written anew)", "{a: 1, b: 2}", { c: 3 }, ["a"]],
	["anchors and aliases (written anew where needed)", "base: &b 1\ncopy: *b", { base: 2 }, []],
	["empty frontmatter", "", { first: ["a"] }, []],
];

describe.each(CODECS)("editProperties with %s", (_name, codec) => {
	it.each(CASES)(
		"%s: valid YAML that both codecs read back to exactly the intended properties",
		(_case, yaml, set, remove) => {
			const before = (codec.parse(yaml) ?? {}) as Record<string, unknown>;
			const edited = editProperties(yaml, before, set, remove, codec);
			const wanted = withChanges(before, set, remove);
			for (const [, reader] of CODECS) expect(sameValue(reader.parse(edited) ?? {}, wanted)).toBe(true);
		},
	);

	it("keeps every untouched line, comments included, and a list's [a, b] style", () => {
		const yaml = "# about this note\ntitle: A # the title\ntags: [a, b]\n\n# old things\nold: 1";
		const edited = editProperties(
			yaml,
			codec.parse(yaml) as Record<string, unknown>,
			{ tags: ["x", "y"], added: true },
			["old"],
			codec,
		);
		expect(edited).toBe("# about this note\ntitle: A # the title\ntags: [x, y]\n\n# old things\nadded: true");
	});

	it("keeps a comment after a one-line value that is replaced", () => {
		const yaml = "status: draft # set by the template\nn: 1";
		expect(editProperties(yaml, codec.parse(yaml) as Record<string, unknown>, { status: "final" }, [], codec)).toBe(
			"status: final # set by the template\nn: 1",
		);
	});
});

describe("sameValue", () => {
	it("compares as YAML values: lists in order, mappings in any order, dates by time", () => {
		expect(sameValue({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
		expect(sameValue([1, 2], [2, 1])).toBe(false);
		expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
		expect(sameValue(new Date(0), new Date(0))).toBe(true);
		expect(sameValue(Number.NaN, Number.NaN)).toBe(true);
		expect(sameValue("1", 1)).toBe(false);
	});
});

describe("a codec whose stringify spells things its own way", () => {
	it("still gives the intended properties: an edit that reads back wrong as a whole is written anew", () => {
		// A stringify that quotes everything and writes flow maps, as another YAML library might.
		const codec = codecOverParser(libraryYamlCodec.parse, (value) => `${JSON.stringify(value)}\n`);
		const yaml = "keep: 1 # note\ntags: [a]";
		const edited = editProperties(
			yaml,
			codec.parse(yaml) as Record<string, unknown>,
			{ tags: ["b", "c"] },
			[],
			codec,
		);
		expect(libraryYamlCodec.parse(edited)).toEqual({ keep: 1, tags: ["b", "c"] });
		// Its one-line `{"tags":…}` reads back alone but not after `keep: 1`: the whole mapping is the codec's.
		expect(edited).toBe('{"keep":1,"tags":["b","c"]}');
	});
});
