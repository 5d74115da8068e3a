import { contrastRatio, over, resolveColor, ruleValue, themeProperties, type Theme } from "../helpers/css-contrast";

/** WCAG 2 AA for normal text. */
const AA = 4.5;

/** Text colours the plugin sets, each on the background it is read against. */
const TEXT_ON: readonly { what: string; selector: string; background: string }[] = [
	{
		what: "a suggested addition in the review",
		selector: ".ccb-suggest-added",
		background: "var(--background-primary)",
	},
	{
		what: "a suggested deletion in the review",
		selector: ".ccb-suggest-removed",
		background: "var(--background-primary)",
	},
	{
		what: "what a decided change drops in the review",
		selector: ".ccb-suggest-dropped",
		background: "var(--background-primary)",
	},
	{
		what: "a decided change's decision in the review",
		selector: ".ccb-suggest-status",
		background: "var(--background-primary)",
	},
	{
		what: "the review's keys for moving between changes",
		selector: ".ccb-review-keys",
		background: "var(--background-primary)",
	},
	{
		what: "the status bar: off",
		selector: ".claude-code-bridge-status.is-off",
		background: "var(--status-bar-background)",
	},
	{
		what: "the status bar: ready",
		selector: ".claude-code-bridge-status.is-listening",
		background: "var(--status-bar-background)",
	},
	{
		what: "the status bar: connected",
		selector: ".claude-code-bridge-status.is-connected",
		background: "var(--status-bar-background)",
	},
	{
		what: "the status bar: not running",
		selector: ".claude-code-bridge-status.is-failed",
		background: "var(--status-bar-background)",
	},
];

/** Tinted backgrounds of the line diff, read with the note's normal text on them. */
const TINTS: readonly { what: string; selector: string }[] = [
	{ what: "an added word in the line diff", selector: ".ccb-diff-word-added" },
	{ what: "a removed word in the line diff", selector: ".ccb-diff-word-removed" },
];

describe.each<Theme>(["light", "dark"])("contrast in Obsidian's default %s theme", (theme) => {
	const properties = themeProperties(theme);

	it.each(TEXT_ON)("$what reads at 4.5:1 or more", ({ selector, background }) => {
		const ground = resolveColor(background, properties);
		const text = over(resolveColor(ruleValue(selector, "color"), properties), ground);
		expect(contrastRatio(text, ground)).toBeGreaterThanOrEqual(AA);
	});

	it.each(TINTS)("$what keeps the note's text at 4.5:1 or more", ({ selector }) => {
		const page = resolveColor("var(--background-primary)", properties);
		const tint = over(resolveColor(ruleValue(selector, "background-color"), properties), page);
		const text = resolveColor("var(--text-normal)", properties);
		expect(contrastRatio(text, tint)).toBeGreaterThanOrEqual(AA);
	});

	it("measures what the issue measured before the change (the theme's own green on white was 2.61:1)", () => {
		const green = resolveColor("var(--color-green)", properties);
		const page = resolveColor("var(--background-primary)", properties);
		if (theme === "light") expect(contrastRatio(green, page)).toBeCloseTo(2.61, 1);
		else expect(contrastRatio(green, page)).toBeGreaterThan(AA);
	});
});
