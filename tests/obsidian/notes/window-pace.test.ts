import { MAIN_THREAD_SLICE_MS, windowPace } from "../../../src/obsidian/notes/window-pace";

describe("windowPace", () => {
	afterEach(() => {
		delete (globalThis as { window?: unknown }).window;
	});

	it("slices well under the 50 ms a main-thread task may take", () => {
		expect(windowPace.sliceMs).toBe(MAIN_THREAD_SLICE_MS);
		expect(MAIN_THREAD_SLICE_MS).toBeLessThan(50 / 4);
	});

	it("yields through the window's timer queue", async () => {
		const timers: number[] = [];
		(globalThis as { window?: unknown }).window = {
			setTimeout: (callback: () => void, ms: number) => {
				timers.push(ms);
				callback();
				return 1;
			},
		};
		await windowPace.yieldToMain();
		expect(timers).toEqual([0]);
	});

	it("without a window (the tests' Node stand-in) still resolves", async () => {
		await expect(windowPace.yieldToMain()).resolves.toBeUndefined();
	});

	it("reads the clock from performance.now()", () => {
		const before = performance.now();
		const now = windowPace.now();
		expect(now).toBeGreaterThanOrEqual(before);
		expect(now).toBeLessThanOrEqual(performance.now());
	});
});
