import { checkFrontmatter } from "../../../src/vault/markdown/frontmatter-check";
import { splitLines } from "../../../src/shared/text-lines";
import { parseYaml } from "../../../src/vault/folder/yaml-library-codec";

function check(text: string) {
	return checkFrontmatter(splitLines(text), parseYaml);
}

describe("checkFrontmatter", () => {
	it("accepts valid, empty and absent frontmatter", () => {
		expect(check("---\ntitle: A note\ntags: [a, b]\n---\nbody")).toBeUndefined();
		expect(check("---\n---\nbody")).toBeUndefined();
		expect(check("no frontmatter\n---\ntitle: x: y\n---")).toBeUndefined();
		expect(check("---\ntitle: never closed: [")).toBeUndefined();
	});

	it("reports invalid YAML on the line the parser names, covering the whole line (CRLF too)", () => {
		const problem = check("---\r\ntitle: ok\r\ntags: [a, b\r\nnext: 1\r\n---\r\nbody");
		expect(problem?.message).toMatch(/^Invalid frontmatter YAML: /);
		expect(problem?.range.start.line).toBeGreaterThanOrEqual(2);
		expect(problem?.range.start.line).toBeLessThanOrEqual(4);
		expect(problem?.range.start.character).toBe(0);
	});

	it("points at a duplicate key's line", () => {
		const problem = check("---\na: 1\nb: 2\na: 3\n---");
		expect(problem?.range).toEqual({ start: { line: 3, character: 0 }, end: { line: 3, character: 4 } });
		expect(problem?.message).toMatch(/unique/i);
	});

	it("reports frontmatter that is a list or a single value, not properties", () => {
		expect(check("---\n- a\n- b\n---")?.message).toMatch(/key: value/);
		expect(check("---\njust text\n---")?.range.start.line).toBe(1);
	});

	it("uses line 0 when the parser gives no position", () => {
		const throwing = (): unknown => {
			throw new Error("bad");
		};
		expect(checkFrontmatter(splitLines("---\nx\n---"), throwing)).toEqual({
			message: "Invalid frontmatter YAML: bad",
			range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
		});
	});

	it("does not ask the parser about plain key: value frontmatter, and does about the rest", () => {
		const asked: string[] = [];
		const parser = (yaml: string): unknown => {
			asked.push(yaml);
			return parseYaml(yaml);
		};
		expect(checkFrontmatter(splitLines("---\ntitle: A\ntags: [a, b]\n---\nbody"), parser)).toBeUndefined();
		expect(asked).toEqual([]);
		expect(checkFrontmatter(splitLines("---\na: 1\na: 2\n---"), parser)?.message).toMatch(/unique/i);
		expect(asked).toEqual(["a: 1\na: 2"]);
	});

	it("reads js-yaml style positions (mark.line, 0-based)", () => {
		const jsYamlLike = (): unknown => {
			throw Object.assign(new Error("bad indentation of a mapping entry (2:3)\n\n 1 | a\n"), {
				mark: { line: 1, column: 2 },
			});
		};
		expect(checkFrontmatter(splitLines("---\na: 1\n b: 2\n---"), jsYamlLike)).toEqual({
			message: "Invalid frontmatter YAML: bad indentation of a mapping entry (2:3)",
			range: { start: { line: 2, character: 0 }, end: { line: 2, character: 5 } },
		});
	});
});
