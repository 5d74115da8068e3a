import { comparePositions, rangeContains } from "../../../src/vault/markdown/text-position";

describe("text positions", () => {
	it("orders positions by line, then character", () => {
		expect(comparePositions({ line: 1, character: 9 }, { line: 2, character: 0 })).toBeLessThan(0);
		expect(comparePositions({ line: 2, character: 3 }, { line: 2, character: 1 })).toBeGreaterThan(0);
		expect(comparePositions({ line: 4, character: 4 }, { line: 4, character: 4 })).toBe(0);
	});

	it("knows when a range lies inside another, edges included", () => {
		const outer = { start: { line: 1, character: 2 }, end: { line: 3, character: 0 } };
		expect(rangeContains(outer, outer)).toBe(true);
		expect(rangeContains(outer, { start: { line: 2, character: 0 }, end: { line: 2, character: 99 } })).toBe(true);
		expect(rangeContains(outer, { start: { line: 1, character: 1 }, end: { line: 2, character: 0 } })).toBe(false);
		expect(rangeContains(outer, { start: { line: 2, character: 0 }, end: { line: 3, character: 1 } })).toBe(false);
	});
});
