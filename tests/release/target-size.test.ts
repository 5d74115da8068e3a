import { ruleValue } from "../helpers/css-contrast";

/** WCAG 2.2 success criterion 2.5.8, Target Size (Minimum): 24 by 24 CSS pixels. */
const MINIMUM_PX = 24;

/** Small buttons the plugin sizes itself (Obsidian's own buttons are 30px high). */
const SMALL_BUTTONS: readonly { what: string; selector: string }[] = [
	{ what: "a change's accept and reject in the review", selector: ".ccb-suggest-controls button" },
	{ what: "a decided change's Undo in the review", selector: ".ccb-suggest-status button" },
];

const pixels = (value: string): number => {
	const match = /^(\d+(?:\.\d+)?)px$/.exec(value);
	if (!match) throw new Error(`not a length in pixels: ${value}`);
	return Number(match[1]);
};

describe("target size", () => {
	it.each(SMALL_BUTTONS)("$what is at least 24 by 24 pixels, padding and border included", ({ selector }) => {
		expect(ruleValue(selector, "box-sizing")).toBe("border-box");
		expect(pixels(ruleValue(selector, "min-width"))).toBeGreaterThanOrEqual(MINIMUM_PX);
		expect(pixels(ruleValue(selector, "min-height"))).toBeGreaterThanOrEqual(MINIMUM_PX);
		expect(pixels(ruleValue(selector, "height"))).toBeGreaterThanOrEqual(MINIMUM_PX);
	});
});
