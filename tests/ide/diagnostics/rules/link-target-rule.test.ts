import { checkLinkTargets } from "../../../../src/ide/diagnostics/rules/link-target-rule";
import { ruleVault } from "./rule-fixture";

const FILES = {
	"Home.md":
		"# Home\n[[Gone]] ![[gone.png]] [[Target#Part]] [[Target#Nope]] [[Target#^blk]] [[Target#^none]] [[#Home]] [[#Away]] [[doc.pdf#page=2]]\n",
	"Folder/Target.md": "# Part\ntext ^blk\n",
	"doc.pdf": "",
};

const messages = (diagnostics: ReturnType<typeof checkLinkTargets>) =>
	diagnostics.map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`);

describe("checkLinkTargets", () => {
	it("reports unresolved links and embeds, and headings or blocks the target lacks, naming it by its name", () => {
		const { context, note } = ruleVault(FILES);
		expect(messages(checkLinkTargets(note("Home.md"), context))).toEqual([
			'unresolved-link: Unresolved link: no note or file named or at "Gone" in the vault',
			'unresolved-embed: Embedded file not found: no file named or at "gone.png" in the vault',
			'missing-heading: Heading not found: "Target" has no heading "Nope"',
			'missing-block: Block not found: "Target" has no block with id ^none',
			'missing-heading: Heading not found: This note has no heading "Away"',
		]);
	});

	it("reports each at the link's own range", () => {
		const { context, note } = ruleVault(FILES);
		const [first] = checkLinkTargets(note("Home.md"), context);
		expect(first?.range).toEqual({ start: { line: 1, character: 0 }, end: { line: 1, character: 8 } });
		expect(first?.severity).toBe("Warning");
	});

	it("lets the host's own subpath matcher decide when it answers", () => {
		const asked: string[] = [];
		const { context, note } = ruleVault(FILES, {
			hasSubpath: (target, subpath) => {
				asked.push(`${target}#${subpath}`);
				return subpath === "Nope" ? true : undefined;
			},
		});
		const found = messages(checkLinkTargets(note("Home.md"), context));
		expect(found.some((message) => message.includes('"Nope"'))).toBe(false);
		expect(found.some((message) => message.includes("^none"))).toBe(true);
		expect(asked).toContain("Folder/Target.md#Nope");
	});

	it("skips every link the context calls hidden, resolved or not", () => {
		const { context, note } = ruleVault(FILES, {
			isHiddenLinkTarget: (linkpath) => linkpath === "Gone" || linkpath === "Target",
		});
		expect(messages(checkLinkTargets(note("Home.md"), context))).toEqual([
			'unresolved-embed: Embedded file not found: no file named or at "gone.png" in the vault',
			'missing-heading: Heading not found: This note has no heading "Away"',
		]);
	});
});
