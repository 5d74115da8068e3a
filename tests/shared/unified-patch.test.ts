import { applyPatch } from "diff";
import fc from "fast-check";
import { unifiedPatch } from "../../src/shared/unified-patch";

describe("unifiedPatch", () => {
	it("prints a change as diff -u does: headers, one hunk with three lines of context, counts that add up", () => {
		const before = ["{", '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4,', '  "e": 5', "}", ""].join("\n");
		const after = before.replace('  "c": 3,', '  "c": 30,');
		expect(unifiedPatch(".claude/settings.json", before, after)).toBe(
			[
				"--- .claude/settings.json",
				"+++ .claude/settings.json",
				"@@ -1,7 +1,7 @@",
				" {",
				'   "a": 1,',
				'   "b": 2,',
				'-  "c": 3,',
				'+  "c": 30,',
				'   "d": 4,',
				'   "e": 5',
				" }",
				"",
			].join("\n"),
		);
	});

	it("shows a new file as all added, after an empty range, with the label of the old side", () => {
		expect(unifiedPatch("s.json", "", "{}\n", "(new file)")).toBe(
			"--- s.json\t(new file)\n+++ s.json\n@@ -0,0 +1,1 @@\n+{}\n",
		);
	});

	it("notes a last line without a line break, and shows adding one as a change of that line", () => {
		expect(unifiedPatch("n", "a\nb", "a\nb\n")).toBe(
			"--- n\n+++ n\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		);
	});

	it("splits changes far apart into hunks, and is undone by applying it to the old text (any texts)", () => {
		const far = Array.from({ length: 30 }, (_, line) => `line ${line}`);
		const changed = far.map((line, index) => (index === 2 || index === 25 ? `${line}!` : line));
		expect(unifiedPatch("f", far.join("\n") + "\n", changed.join("\n") + "\n").match(/^@@/gm)).toHaveLength(2);
		const text = fc
			.array(fc.constantFrom("a", "b", "c", "", "d e"), { maxLength: 14 })
			.chain((lines) =>
				fc.boolean().map((ending) => lines.join("\n") + (ending && lines.length > 0 ? "\n" : "")),
			);
		fc.assert(
			fc.property(text, text, (before, after) => {
				expect(applyPatch(before, unifiedPatch("f", before, after))).toBe(after);
			}),
		);
	});
});
