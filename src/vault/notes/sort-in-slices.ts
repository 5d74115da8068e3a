import { runInSlices, type WorkSlices } from "./work-slices";

/** How many items are sorted in one go (a few milliseconds for paths) before the runs are merged in slices. */
const RUN_LENGTH = 4096;

/**
 * `items` sorted by `compare` (stable), made in slices: runs of `RUN_LENGTH` sorted each in one go, then merged
 * pairwise with a yield whenever `slices` says the slice had its time. Sorting 100k paths at once holds a thread
 * for about 100 ms; this holds it for a run's sort at most. Answers `items` itself when it is sorted already.
 */
export function sortInSlices<T>(
	items: readonly T[],
	compare: (a: T, b: T) => number,
	slices: WorkSlices,
): Promise<readonly T[]> {
	return runInSlices(sortSteps(items, compare, slices), slices);
}

/** `sortInSlices` as steps: yields where `slices` says a slice ended (never without a pace), returns the sorted items. */
export function* sortSteps<T>(
	items: readonly T[],
	compare: (a: T, b: T) => number,
	slices: WorkSlices,
): Generator<void, readonly T[]> {
	let sorted = true;
	for (let index = 1; index < items.length && sorted; index++) {
		if (compare(items[index - 1], items[index]) > 0) sorted = false;
		if (slices.due()) yield;
	}
	if (sorted) return items;
	let runs: T[][] = [];
	for (let start = 0; start < items.length; start += RUN_LENGTH) {
		runs.push(items.slice(start, start + RUN_LENGTH).sort(compare));
		if (slices.due()) yield;
	}
	while (runs.length > 1) {
		const merged: T[][] = [];
		for (let pair = 0; pair < runs.length; pair += 2) {
			const left = runs[pair];
			const right = runs[pair + 1];
			if (!right) {
				merged.push(left);
				continue;
			}
			const out: T[] = [];
			let a = 0;
			let b = 0;
			while (a < left.length || b < right.length) {
				// Ties take the left run's item first: the sort stays stable.
				if (b >= right.length || (a < left.length && compare(left[a], right[b]) <= 0)) out.push(left[a++]);
				else out.push(right[b++]);
				if (slices.due()) yield;
			}
			merged.push(out);
		}
		runs = merged;
	}
	return runs[0] ?? [];
}
