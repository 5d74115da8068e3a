import { libraryYamlCodec, parseYaml } from "../../../src/vault/folder/yaml-library-codec";

describe("parseYaml", () => {
	it("answers the YAML's value as plain data", () => {
		expect(parseYaml("title: Plan\ntags: [a, b]\ncount: 3\n")).toEqual({
			title: "Plan",
			tags: ["a", "b"],
			count: 3,
		});
		expect(parseYaml("")).toBeNull();
	});

	it("throws the first error, with its line position", () => {
		let thrown: unknown;
		try {
			parseYaml("a: 1\nb: [unclosed\nc: 2\n");
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(Error);
		expect((thrown as { linePos?: { line: number }[] }).linePos?.[0]?.line).toBeGreaterThanOrEqual(2);
	});

	it("throws on a duplicate key, as Obsidian leaves such a note without properties", () => {
		expect(() => parseYaml("a: 1\na: 2\n")).toThrow(/unique/i);
	});
});

describe("libraryYamlCodec", () => {
	it("reads scalars under matching keys from the syntax tree: past a repeated key or an error elsewhere", () => {
		expect(libraryYamlCodec.scalarsUnderKeys("tags: [a]\ntags: [b]\n", /^tags?$/i)).toEqual(["a", "b"]);
		expect(libraryYamlCodec.scalarsUnderKeys("tags: [private]\nbroken: [\n", /^tags?$/i)).toContain("private");
	});

	it("writes YAML that reads back to the same value, lists as people write them", () => {
		const value = { title: "Plan", tags: ["a", "b"], nested: { x: [1, null] } };
		expect(libraryYamlCodec.parse(libraryYamlCodec.stringify(value))).toEqual(value);
		expect(libraryYamlCodec.stringify({ long: "x".repeat(200) })).toBe(`long: ${"x".repeat(200)}\n`);
	});
});
