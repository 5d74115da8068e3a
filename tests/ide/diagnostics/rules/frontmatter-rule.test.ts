import { checkFrontmatterRule } from "../../../../src/ide/diagnostics/rules/frontmatter-rule";
import { ruleVault } from "./rule-fixture";

describe("checkFrontmatterRule", () => {
	it("reports invalid frontmatter as one error at the scanner's range, with its message", () => {
		const { note } = ruleVault({ "Bad.md": "---\ntitle: [unclosed\n---\nbody\n" });
		const bad = note("Bad.md");
		expect(bad.frontmatterProblem).toBeDefined();
		expect(checkFrontmatterRule(bad)).toEqual([
			{
				message: bad.frontmatterProblem?.message,
				severity: "Error",
				source: "Obsidian",
				code: "invalid-frontmatter",
				range: bad.frontmatterProblem?.range,
			},
		]);
	});

	it("says nothing of valid frontmatter or of a note without any", () => {
		const { note } = ruleVault({ "Good.md": "---\ntitle: ok\n---\n", "None.md": "text\n" });
		expect(checkFrontmatterRule(note("Good.md"))).toEqual([]);
		expect(checkFrontmatterRule(note("None.md"))).toEqual([]);
	});
});
