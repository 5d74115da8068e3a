import { eachLineHolding, masksLineByLine, noteHead } from "../../../src/vault/markdown/line-scan";
import { findFrontmatter } from "../../../src/vault/markdown/frontmatter-check";
import { splitLines } from "../../../src/shared/text-lines";

function linesHolding(text: string, character: string, offset = 0, line = 0): [string, number][] {
	const found: [string, number][] = [];
	eachLineHolding(text, character, offset, line, (lineText, number) => found.push([lineText, number]));
	return found;
}

describe("line-scan", () => {
	it("says a text masks line by line only without fences, comments and carriage returns", () => {
		expect(masksLineByLine("# Title\n[[a]] #tag `code`\n")).toBe(true);
		for (const marker of ["```", "~~~", "%%", "<!--", "\r"]) expect(masksLineByLine(`a\n${marker}\nb`)).toBe(false);
	});

	it("finds each line holding the character once, with its number, as splitLines numbers it", () => {
		const text = "no\n#one #two\n\nmid\nlast #";
		expect(linesHolding(text, "#")).toEqual([
			["#one #two", 1],
			["last #", 4],
		]);
		for (const [line, number] of linesHolding(text, "#")) expect(splitLines(text)[number]).toBe(line);
	});

	it("starts at the given line and handles a first line, an empty text and a last line without a line end", () => {
		expect(linesHolding("#a\n#b", "#")).toEqual([
			["#a", 0],
			["#b", 1],
		]);
		expect(linesHolding("", "#")).toEqual([]);
		expect(linesHolding("x\ny\n#z", "#", 4, 2)).toEqual([["#z", 2]]);
		expect(linesHolding("#x\n", "#", 3, 1)).toEqual([]);
	});

	it("reads the head far enough for findFrontmatter to answer as on every line", () => {
		const cases = [
			"---\na: 1\n---\nbody\n#x",
			"--- \na: 1\n---  \n",
			"---\na: 1\nno end",
			"title\n---\n---",
			"",
			"---",
			"---\n---",
		];
		for (const text of cases) {
			const head = noteHead(text);
			expect(findFrontmatter(head.lines)).toEqual(findFrontmatter(splitLines(text)));
			const block = findFrontmatter(head.lines);
			// The body starts on the line after the closing fence.
			if (block)
				expect(text.slice(head.bodyOffset)).toBe(
					splitLines(text)
						.slice(block.endLine + 1)
						.join("\n"),
				);
		}
	});
});
