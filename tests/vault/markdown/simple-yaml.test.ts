import { parseDocument } from "yaml";
import { frontmatterTagsByCodec, frontmatterTagsOfValues } from "../../../src/vault/markdown/note-tags";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import { simpleYamlMap } from "../../../src/vault/markdown/simple-yaml";

/** What the library makes of the text: its value, or undefined when it reports an error. */
function library(yaml: string): unknown {
	const document = parseDocument(yaml);
	return document.errors.length > 0 ? undefined : document.toJS();
}

/** Every answer the fast reader gives is the library's (value and tag words); it may decline, never differ. */
function expectSameAsLibrary(yaml: string): Record<string, unknown> | undefined {
	const simple = simpleYamlMap(yaml);
	if (simple === undefined) return undefined;
	expect({ yaml, value: simple }).toEqual({ yaml, value: library(yaml) });
	expect(frontmatterTagsOfValues(simple)).toEqual(frontmatterTagsByCodec(yaml, libraryYamlCodec));
	return simple;
}

describe("simpleYamlMap", () => {
	it.each([
		["title: Topic 100\ntags: [bench]", { title: "Topic 100", tags: ["bench"] }],
		["tags:\n  - a\n  - b/c\nrating: 5", { tags: ["a", "b/c"], rating: 5 }],
		["tags:\n- a\n- 'it''s'\n- \"x y\"", { tags: ["a", "it's", "x y"] }],
		[
			"n: -0\nh: 0x1F\no: 0o17\nf: 1.50\ne: 2e3\ni: -.inf\nz: .NaN",
			{ n: -0, h: 31, o: 15, f: 1.5, e: 2000, i: -Infinity, z: NaN },
		],
		["a: ~\nb: Null\nc: TRUE\nd: false\ne:", { a: null, b: null, c: true, d: false, e: null }],
		[
			"date: 2024-01-05\nurl: https://example.com/a#b\nlang: C# and F#",
			{ date: "2024-01-05", url: "https://example.com/a#b", lang: "C# and F#" },
		],
		[
			'related: "[[Other Note]]"\naliases: ["A, B", \'C\', 7]  \n# a comment\nnote: value # a comment',
			{ related: "[[Other Note]]", aliases: ["A, B", "C", 7], note: "value" },
		],
		["my key: two  spaces\nemoji: 🎉 ok\ntítulo: sí", { "my key": "two  spaces", emoji: "🎉 ok", título: "sí" }],
		["tags: []\nlist: [ ]", { tags: [], list: [] }],
	])("reads %j as the library does", (yaml, expected) => {
		expect(expectSameAsLibrary(yaml)).toEqual(expected);
	});

	it.each([
		"title: a\ntitle: b",
		"tags: [a, ]",
		"key: |\n  block",
		"key: >-\n  folded",
		"key: &anchor x\nother: *anchor",
		"key: !tag x",
		"key: {a: b}",
		"key: a: b",
		'key: "esc\\u0041"',
		'key: "open\n  close"',
		"key: plain\n  continued",
		'"tags": [a]',
		"? tags\n: [a]",
		"tags:\n  - a\n   - b",
		"tags:\n  - a: 1",
		"tags:\n  - - a",
		"tags: [#a]",
		"tags: [a: b]",
		"key:\tvalue",
		"__proto__: x",
		"123: x",
		"true: x",
		"key:value",
		"key : value",
		"%YAML 1.2\n---\nkey: v",
		"key: v\n...\nother: w",
		"# only a comment",
		"",
		`${"k".repeat(1100)}: long key`,
		"key: 'a' # comment",
		"key: @at",
		"key: - item",
		"key: a\u0085b",
		"key: a\u2028b",
		"key: \ufeffa",
		"key: a\u0007",
	])("leaves %j to the library", (yaml) => {
		expect(simpleYamlMap(yaml)).toBeUndefined();
	});

	it("never answers differently from the library on generated frontmatter", () => {
		const pieces = [
			"tags",
			"Tags",
			"tag",
			"title",
			"a b",
			"x",
			"null",
			"1",
			"-1",
			"0x1g",
			"1.5",
			".5",
			"1e3",
			"+.inf",
			".nan",
			"yes",
			"True",
			"2024-01-01",
			"a#b",
			"a #b",
			"it's",
			'"q"',
			"'s'",
			"'it''s'",
			"[a, b]",
			"[1, 'x']",
			"[]",
			"a:b",
			"a: b",
			"-x",
			"- x",
			"?x",
			":x",
			"[a,b",
			"a, b",
			"~",
			"#",
			"#c",
			"'",
			'"',
			"",
			" ",
		];
		let seed = 42;
		const next = (): number => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed;
		};
		const pick = (): string => pieces[next() % pieces.length] ?? "";
		let accepted = 0;
		for (let round = 0; round < 4000; round++) {
			const lines: string[] = [];
			const count = 1 + (next() % 4);
			for (let line = 0; line < count; line++) {
				const shape = next() % 6;
				if (shape === 0) lines.push(`${pick()}:`, `  - ${pick()}`, `  - ${pick()}`);
				else if (shape === 1) lines.push(`- ${pick()}`);
				else if (shape === 2) lines.push(`${pick()}${pick()}`);
				else lines.push(`${pick() || "k"}: ${pick()}${next() % 3 === 0 ? ` ${pick()}` : ""}`);
			}
			if (expectSameAsLibrary(lines.join("\n")) !== undefined) accepted++;
		}
		// The generator must reach the fast path often, or the comparison proves little.
		expect(accepted).toBeGreaterThan(300);
	});
});
