import type { WorkPace } from "../../vault/notes/notes";

/** How long the plugin's work over many notes holds Obsidian's main thread at most before it yields (no task may reach 50 ms). */
export const MAIN_THREAD_SLICE_MS = 8;

/**
 * The window's pace: `performance.now()`, and a yield through the window's timer queue (input and rendering go
 * first). Obsidian's renderer always has a window; the tests' Node stand-in has none, and there the yield is a
 * microtask (the work's order is the same, only nothing else runs between slices).
 */
export const windowPace: WorkPace = {
	sliceMs: MAIN_THREAD_SLICE_MS,
	now: () => performance.now(),
	yieldToMain: () =>
		typeof window === "undefined"
			? Promise.resolve()
			: new Promise((resolve) => window.setTimeout(() => resolve(), 0)),
};
