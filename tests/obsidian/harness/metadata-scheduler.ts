import type { SourceScheduler } from "../../../src/obsidian/notes/obsidian-diagnostics-notes";

/**
 * A clock and timers that move only when the test says (`advance`), for the diagnostics source's bounded waits and
 * its sliced work. `tick` is how far the clock moves on each `now()` reading, so sliced work "takes time" without
 * any wall clock; `yields` counts the slices' breaks and `longestSliceMs` the longest stretch between two.
 */
export class ManualScheduler implements SourceScheduler {
	private time = 0;
	private nextId = 1;
	private readonly timers = new Map<number, { at: number; callback: () => void }>();
	private sliceStart = 0;
	yields = 0;
	longestSliceMs = 0;

	constructor(private readonly tick = 0) {}

	now(): number {
		this.time += this.tick;
		return this.time;
	}

	setTimeout(callback: () => void, ms: number): number {
		const id = this.nextId++;
		this.timers.set(id, { at: this.time + ms, callback });
		return id;
	}

	clearTimeout(id: number): void {
		this.timers.delete(id);
	}

	get pendingTimers(): number {
		return this.timers.size;
	}

	/** Moves the clock and runs the timers that fall due, in order. */
	advance(ms: number): void {
		const until = this.time + ms;
		for (;;) {
			const due = [...this.timers.entries()]
				.filter(([, timer]) => timer.at <= until)
				.sort((a, b) => a[1].at - b[1].at)[0];
			if (!due) break;
			this.timers.delete(due[0]);
			this.time = Math.max(this.time, due[1].at);
			due[1].callback();
		}
		this.time = until;
	}

	/** New work starts now (the time since the last yield was not spent on it). */
	startOfWork(): void {
		this.sliceStart = this.time;
	}

	/** The work is over: its last slice counts too. */
	endOfWork(): void {
		this.longestSliceMs = Math.max(this.longestSliceMs, this.time - this.sliceStart);
	}

	yieldToMain(): Promise<void> {
		this.yields++;
		this.endOfWork();
		return Promise.resolve().then(() => {
			this.sliceStart = this.time;
		});
	}
}

/** Lets every promise already settled run its callbacks (the source awaits the disk's stat before it waits). */
export async function settle(): Promise<void> {
	for (let round = 0; round < 10; round++) await Promise.resolve();
}
