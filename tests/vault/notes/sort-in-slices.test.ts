import { sortInSlices } from "../../../src/vault/notes/sort-in-slices";
import { WorkSlices } from "../../../src/vault/notes/work-slices";

/** A pace whose clock moves one millisecond per reading: a slice of 8 ms ends after a few readings. */
function countingPace(): { pace: ConstructorParameters<typeof WorkSlices>[0]; yields: () => number } {
	let time = 0;
	let yields = 0;
	return {
		pace: {
			sliceMs: 8,
			now: () => time++,
			yieldToMain: () => {
				yields++;
				return Promise.resolve();
			},
		},
		yields: () => yields,
	};
}

describe("sortInSlices", () => {
	it("sorts as Array.prototype.sort does (stable), yielding between slices", async () => {
		let seed = 7;
		const items = Array.from({ length: 10_000 }, (_, index) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return { key: seed % 500, index };
		});
		const compare = (a: { key: number }, b: { key: number }): number => a.key - b.key;
		const { pace, yields } = countingPace();
		const sorted = await sortInSlices(items, compare, new WorkSlices(pace));
		expect(sorted).toEqual([...items].sort(compare));
		expect(sorted).not.toBe(items);
		expect(yields()).toBeGreaterThan(10);
	});

	it("answers the same array when it is sorted already, and sorts short and empty lists", async () => {
		const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
		const sorted = ["a.md", "b.md", "c/d.md"];
		expect(await sortInSlices(sorted, compare, new WorkSlices(undefined))).toBe(sorted);
		expect(await sortInSlices(["b", "a"], compare, new WorkSlices(undefined))).toEqual(["a", "b"]);
		expect(await sortInSlices([], compare, new WorkSlices(undefined))).toEqual([]);
	});
});
