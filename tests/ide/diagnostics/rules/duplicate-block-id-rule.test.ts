import { checkDuplicateBlockIds } from "../../../../src/ide/diagnostics/rules/duplicate-block-id-rule";
import { ruleVault } from "./rule-fixture";

describe("checkDuplicateBlockIds", () => {
	it("warns on each repeat of a block id, case-insensitively, naming the first use's line", () => {
		const { note } = ruleVault({ "N.md": "one ^abc\ntwo ^other\nthree ^ABC\nfour ^abc\n" });
		const diagnostics = checkDuplicateBlockIds(note("N.md"));
		expect(diagnostics.map((diagnostic) => [diagnostic.range.start.line, diagnostic.message])).toEqual([
			[2, "Duplicate block id ^ABC: already used on line 1 of this note, so links to it reach only one block"],
			[3, "Duplicate block id ^abc: already used on line 1 of this note, so links to it reach only one block"],
		]);
		expect(
			diagnostics.every(
				(diagnostic) =>
					diagnostic.severity === "Warning" &&
					diagnostic.code === "duplicate-block-id" &&
					diagnostic.source === "Obsidian",
			),
		).toBe(true);
	});

	it("says nothing when every block id is used once", () => {
		const { note } = ruleVault({ "N.md": "a ^one\nb ^two\n" });
		expect(checkDuplicateBlockIds(note("N.md"))).toEqual([]);
	});
});
