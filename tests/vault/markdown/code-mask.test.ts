import { CodeMask } from "../../../src/vault/markdown/code-mask";
import fc from "fast-check";

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
		expect(maskAll(["````", "[[A]]", "```", "~~~~", "````", "[[B]]"])).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			"[[B]]",
		]);
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

/**
 * The mask as first written: character by character over the whole line. `CodeMask` skips to the characters that
 * can start something (and leaves most lines untouched); it must mask exactly as this does.
 */
class ReferenceMask {
	private fence: { marker: string; length: number } | undefined;
	private comment: "%%" | "-->" | undefined;

	constructor(private readonly maskComments: boolean) {}

	maskLine(line: string): string | undefined {
		if (this.comment === undefined) {
			if (this.fence) {
				const closing = /^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
				if (
					closing !== undefined &&
					closing.charAt(0) === this.fence.marker &&
					closing.length >= this.fence.length
				)
					this.fence = undefined;
				return undefined;
			}
			const opening = /^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})(.*)$/.exec(line);
			if (opening?.[1] && !(opening[1].startsWith("`") && opening[2]?.includes("`"))) {
				this.fence = { marker: opening[1].charAt(0), length: opening[1].length };
				return undefined;
			}
		}
		const out = line.split("");
		const blank = (from: number, to: number): void => {
			for (let i = from; i < to; i++) out[i] = " ";
		};
		let index = 0;
		while (index < line.length) {
			if (this.comment !== undefined) {
				const end = line.indexOf(this.comment, index);
				const stop = end < 0 ? line.length : end + this.comment.length;
				blank(index, stop);
				if (end >= 0) this.comment = undefined;
				index = stop;
				continue;
			}
			const char = line.charAt(index);
			if (char === "\\") {
				index += 2;
			} else if (char === "`") {
				let runEnd = index;
				while (line.charAt(runEnd) === "`") runEnd++;
				let search = runEnd;
				let closed = -1;
				while (search < line.length) {
					const next = line.indexOf("`", search);
					if (next < 0) break;
					let nextEnd = next;
					while (line.charAt(nextEnd) === "`") nextEnd++;
					if (nextEnd - next === runEnd - index) {
						closed = nextEnd;
						break;
					}
					search = nextEnd;
				}
				if (closed >= 0) blank(index, closed);
				index = closed >= 0 ? closed : runEnd;
			} else if (!this.maskComments) {
				index++;
			} else if (line.startsWith("%%", index)) {
				this.comment = "%%";
				blank(index, index + 2);
				index += 2;
			} else if (line.startsWith("<!--", index)) {
				this.comment = "-->";
				blank(index, index + 4);
				index += 4;
			} else {
				index++;
			}
		}
		return out.join("");
	}
}

describe("CodeMask", () => {
	it.each([true, false])(
		"masks every line exactly as the character-by-character reference (comments masked: %s)",
		(maskComments) => {
			const line = fc.string({
				unit: fc.constantFrom(
					"a",
					" ",
					"`",
					"``",
					"```",
					"~~~",
					"\\",
					"%",
					"%%",
					"<",
					"<!--",
					"-->",
					"-",
					">",
					"[",
					"]",
					"#",
					"é",
					"😀",
				),
				maxLength: 30,
			});
			fc.assert(
				fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
					const mask = new CodeMask(maskComments ? {} : { maskComments: false });
					const reference = new ReferenceMask(maskComments);
					for (const text of lines) expect(mask.maskLine(text)).toBe(reference.maskLine(text));
				}),
				{ numRuns: 3000 },
			);
		},
	);
});
