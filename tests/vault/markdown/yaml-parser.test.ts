import { parseYaml } from "../../../src/vault/markdown/yaml-parser";

describe("parseYaml", () => {
	it("answers the YAML's value as plain data", () => {
		expect(parseYaml("title: Plan\ntags: [a, b]\ncount: 3\n")).toEqual({ title: "Plan", tags: ["a", "b"], count: 3 });
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
