import type { WorkPace } from "../../../src/vault/notes/notes";
import { WorkSlices } from "../../../src/vault/notes/work-slices";

/** A pace whose clock moves `tick` ms at each reading, counting its yields. */
function countingPace(tick: number, sliceMs = 8): WorkPace & { yields: number; readings: number } {
	let time = 0;
	const pace = {
		sliceMs,
		yields: 0,
		readings: 0,
		now: () => {
			pace.readings++;
			return (time += tick);
		},
		yieldToMain: () => {
			pace.yields++;
			return Promise.resolve();
		},
	};
	return pace;
}

async function work(slices: WorkSlices, items: number): Promise<void> {
	for (let item = 0; item < items; item++) if (slices.due()) await slices.next();
}

describe("WorkSlices", () => {
	it("without a pace is never due and never waits", async () => {
		const slices = new WorkSlices(undefined);
		for (let item = 0; item < 1000; item++) expect(slices.due()).toBe(false);
		await expect(slices.next()).resolves.toBeUndefined();
	});

	it("reads the clock every 16 items and yields once a slice has had its time", async () => {
		// 1 ms per reading: the first check (item 16) reads 2 ms since the start, then every 16 items 1 ms more.
		const pace = countingPace(1, 8);
		const slices = new WorkSlices(pace);
		await work(slices, 16 * 100);
		expect(pace.readings).toBeGreaterThan(100);
		expect(pace.yields).toBeGreaterThan(0);
		// Each slice is 8 readings of the clock (one per 16 items) after the yield's own reading.
		expect(pace.yields).toBe(Math.floor((16 * 100) / (16 * 8)));
	});

	it("does not yield while the work is quicker than a slice", async () => {
		const pace = countingPace(0.001, 8);
		await work(new WorkSlices(pace), 16 * 100);
		expect(pace.yields).toBe(0);
	});
});
