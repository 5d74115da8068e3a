import { ratio, round, summarize, type Summary } from "./stats";

/** The same measurement against the raw `ws` floor and the bridge. */
export interface Comparison {
	raw: Summary;
	bridge: Summary;
	/** bridge ÷ raw, of the medians and of the p99s. */
	medianRatio: number;
	p99Ratio: number;
}

export interface AlternationPlan {
	rounds: number;
	samplesPerRound: number;
	/** Samples taken from each side before the first round and thrown away (JIT, caches). */
	warmUp: number;
}

/**
 * Takes `samplesPerRound` samples from one side, then the other, for `rounds` rounds, swapping which side goes
 * first each round so that drift on a shared machine falls on both.
 */
export async function alternate(
	plan: AlternationPlan,
	raw: () => Promise<number>,
	bridge: () => Promise<number>,
): Promise<Comparison> {
	for (let i = 0; i < plan.warmUp; i++) {
		await raw();
		await bridge();
	}
	const samples = { raw: [] as number[], bridge: [] as number[] };
	for (let roundIndex = 0; roundIndex < plan.rounds; roundIndex++) {
		const order = roundIndex % 2 === 0 ? (["raw", "bridge"] as const) : (["bridge", "raw"] as const);
		for (const side of order) {
			const measure = side === "raw" ? raw : bridge;
			for (let i = 0; i < plan.samplesPerRound; i++) samples[side].push(await measure());
		}
	}
	return compare(summarize(samples.raw), summarize(samples.bridge));
}

export function compare(raw: Summary, bridge: Summary): Comparison {
	return {
		raw,
		bridge,
		medianRatio: round(ratio(bridge.median, raw.median)),
		p99Ratio: round(ratio(bridge.p99, raw.p99)),
	};
}
