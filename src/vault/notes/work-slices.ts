import type { WorkPace } from "./notes";

/** How many items go by between two readings of the clock (a reading per item costs more than most items). */
const ITEMS_PER_CLOCK_CHECK = 16;

/**
 * Long work over many notes, cut into slices of at most `pace.sliceMs` (Obsidian's main thread, where no task may
 * reach 50 ms): call `due()` after each item and, when it says so, `await next()` before the following one. Without
 * a pace (a process of its own, the folder index) `due()` is always false and nothing awaits.
 */
export class WorkSlices {
	private start: number;
	private items = 0;

	constructor(private readonly pace: WorkPace | undefined) {
		this.start = pace?.now() ?? 0;
	}

	/** Whether this slice has had its time (the clock is read every few items). */
	due(): boolean {
		if (!this.pace || ++this.items % ITEMS_PER_CLOCK_CHECK !== 0) return false;
		return this.pace.now() - this.start >= this.pace.sliceMs;
	}

	/** Lets other work run, then starts a new slice. */
	async next(): Promise<void> {
		if (!this.pace) return;
		await this.pace.yieldToMain();
		this.start = this.pace.now();
	}
}

/**
 * Runs work written as steps (a generator that yields where `slices.due()` said its slice ended) in slices: a
 * yield to the main thread at each of its yields. The same steps run at once with `runAtOnce`.
 */
export async function runInSlices<R>(steps: Generator<void, R>, slices: WorkSlices): Promise<R> {
	for (let step = steps.next(); ; step = steps.next()) {
		if (step.done) return step.value;
		await slices.next();
	}
}

/** Runs work written as steps (see `runInSlices`) to its end without yielding. */
export function runAtOnce<R>(steps: Generator<void, R>): R {
	for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}
