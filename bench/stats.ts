/** Summaries of timing samples. */

export interface Summary {
	median: number;
	p99: number;
	max: number;
	samples: number;
}

/** Fewer samples than this and a p99 is just the largest few: the table prints "max" instead. */
export const P99_MIN_SAMPLES = 1000;

export function summarize(samples: readonly number[]): Summary {
	const sorted = [...samples].sort((a, b) => a - b);
	return {
		median: round(quantile(sorted, 0.5), 4),
		p99: round(quantile(sorted, 0.99), 4),
		max: round(sorted[sorted.length - 1] ?? Number.NaN, 4),
		samples: sorted.length,
	};
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], fraction: number): number {
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
	return sorted[rank] ?? Number.NaN;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function ratio(value: number, floor: number): number {
	return value / floor;
}

export function round(value: number, digits = 3): number {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
}

/** Milliseconds since `start` (a performance.now() reading). */
export function elapsedMs(start: number): number {
	return performance.now() - start;
}
