import { CodeMask } from "../../../src/vault/markdown/code-mask";

/** Masks the lines in order with one mask, as the scanner does. */
function maskAll(lines: string[], options?: { maskComments?: boolean }): (string | undefined)[] {
	const mask = new CodeMask(options);
	return lines.map((line) => mask.maskLine(line));
}

describe("CodeMask", () => {
	it("blanks inline code spans with spaces, keeping every other character at its offset", () => {
		expect(maskAll(["see `[[A]]` and [[B]]"])).toEqual(["see         and [[B]]"]);
		expect(maskAll(["``a ` b`` [[C]]"])).toEqual(["          [[C]]"]);
	});

	it("leaves an unmatched backtick run and an escaped backtick as text", () => {
		expect(maskAll(["a `` b ` [[C]]"])).toEqual(["a `` b ` [[C]]"]);
		expect(maskAll(["\\`[[A]]` x"])).toEqual(["\\`[[A]]` x"]);
	});

	it("hides whole fenced blocks, backtick or tilde, closed only by a fence as long and of the same kind", () => {
		expect(maskAll(["````", "[[A]]", "```", "~~~~", "````", "[[B]]"])).toEqual([undefined, undefined, undefined, undefined, undefined, "[[B]]"]);
		expect(maskAll(["> ~~~", "> [[A]]", "> ~~~", "[[B]]"])).toEqual([undefined, undefined, undefined, "[[B]]"]);
	});

	it("does not take ``` followed by a backtick on the same line for a fence", () => {
		expect(maskAll(["```code``` [[A]]", "[[B]]"])).toEqual([`${" ".repeat(11)}[[A]]`, "[[B]]"]);
	});

	it("blanks %% and <!-- --> comments, also across lines, and says when one is still open", () => {
		const mask = new CodeMask();
		expect(mask.maskLine("a %% hidden %% b")).toBe("a              b");
		expect(mask.maskLine("x <!-- start")).toBe("x           ");
		expect(mask.inComment).toBe(true);
		expect(mask.maskLine("``` still comment")).toBe("                 ");
		expect(mask.maskLine("end --> [[A]]")).toBe("        [[A]]");
		expect(mask.inComment).toBe(false);
	});

	it("keeps comments as text when asked, still blanking code", () => {
		expect(maskAll(["%% #private %% `#code`"], { maskComments: false })).toEqual(["%% #private %%        "]);
	});
});
