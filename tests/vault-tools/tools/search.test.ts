import { snippet } from "../../../src/vault-tools/kit/tool-kit";
import { makeVault } from "../vault-fixture";

/**
 * Text search scans each note's lower-cased UTF-8 copy and places a hit on its line only when it is shown: lines
 * end at `\r\n`, `\n` or `\r`, and the place on the line is counted in UTF-16 characters whatever comes before it
 * (accents, emoji, the one-to-two `İ`).
 */
const LONG_PREFIX = `${"😀 é İ ".repeat(40)}`;
const LONG_LINE = `${LONG_PREFIX}the Zebra crossing ${"and more words ".repeat(20)}`;

describe("search (text mode) over notes of any script and line end", () => {
	const vault = makeVault({
		"Crlf.md": "first\r\nsecond line with zebra\r\nthird zebra\r\n",
		"Lone cr.md": "one\rtwo zebra\rthree",
		"Long.md": `# Long\n\n${LONG_LINE}\n`,
		"Two words.md": "zebra alone\ncrossing alone\nzebra crossing together\n",
	});
	afterAll(() => vault.dispose());

	it("names the line of each hit", async () => {
		const answer = (await vault.call("search", { query: "zebra" })).text;
		expect(answer).toContain("Crlf.md:2: second line with zebra");
		expect(answer).toContain("Crlf.md:3: third zebra");
		expect(answer).toContain("Lone cr.md:2: two zebra");
		expect(answer).toContain("Two words.md:1: zebra alone");
	});

	it("cuts a long line's snippet around the hit, counted in UTF-16 characters", async () => {
		const answer = (await vault.call("search", { query: "zebra crossing" })).text;
		const expected = snippet(LONG_LINE, LONG_LINE.indexOf("Zebra crossing"));
		expect(expected.startsWith("…")).toBe(true);
		expect(answer).toContain(`Long.md:3: ${expected}  [under "Long"]`);
		// Both words on one line, the phrase ranked first; a line with one of them is no hit.
		expect(answer.indexOf("Two words.md:3: zebra crossing together")).toBeGreaterThanOrEqual(0);
		expect(answer).not.toContain("Two words.md:1:");
		expect(answer).not.toContain("Two words.md:2:");
	});
});
