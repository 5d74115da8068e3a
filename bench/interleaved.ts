import { compare, type Comparison } from "./alternation";
import { median, round, summarize } from "./stats";

/** How the hosts of two arms take turns (see `interleave`). */
export interface InterleavePlan {
	/** Batches timed: in each, every host answers `callsPerBatch` calls in a row. */
	batches: number;
	callsPerBatch: number;
	/** Batches run first and thrown away. */
	warmUpBatches: number;
}

/** One host of an arm: one call, timed in ms; and how it is held still while other hosts are timed. */
export interface InterleavedHost {
	call: () => Promise<number>;
	/** Stops the host's process (SIGSTOP), so it runs nothing (timers, deferred writes, GC helpers) meanwhile. */
	pause?: () => void;
	/** Lets it run again (SIGCONT). */
	resume?: () => void;
}

/** A comparison of two arms whose `medianRatio` is the ratio of the medians of their per-batch means. */
export interface InterleavedComparison extends Comparison {
	batches: number;
	callsPerBatch: number;
	hostsPerArm: number;
	/** The arms' medians of per-batch means, in ms. */
	batchMeans: { raw: number; bridge: number };
	/** The spread of `medianRatio` within the run: the same ratio over each quarter of the batches, in time order. */
	quarters: number[];
	/** The same ratio for each pair of hosts (the i-th host of each arm), so a host unlike its twin shows. */
	pairs: number[];
	/** The ratio of the arms' mean round trips over every timed call: the work a call leaves for later counted in. */
	meanRatio: number;
}

/**
 * Times two arms (`raw` and `bridge`, each one or more hosts in their own processes) in many short interleaved
 * batches: in each batch every host answers `callsPerBatch` calls in a row, the hosts' order turning from batch to
 * batch (`turningOrder`), so that each arm goes first as often as the other and a burst
 * of load from other processes, a few milliseconds long, falls on both arms of the same batch. Each arm's figure
 * for a batch is the mean of its calls there (a garbage collection or a write of the journal in a batch counts in
 * it); the result is the ratio of the medians of those means, with its spread over the run's quarters and over the
 * pairs of hosts. The per-call summaries (median, p99) are kept for the report's columns. Hosts that can be paused
 * run only in their own batches: work one leaves for later (a timed write, its garbage collector's helpers) would
 * otherwise run, on the core the hosts share, while another host is timed, and be counted in the other arm.
 */
export async function interleave(
	plan: InterleavePlan,
	raw: readonly InterleavedHost[],
	bridge: readonly InterleavedHost[],
): Promise<InterleavedComparison> {
	if (raw.length === 0 || raw.length !== bridge.length) throw new Error("Each arm needs the same number of hosts");
	const hosts = [...raw.map((host) => ({ ...host, arm: 0 })), ...bridge.map((host) => ({ ...host, arm: 1 }))];
	for (const host of hosts) host.pause?.();
	try {
		return await interleaveHosts(plan, hosts, raw.length);
	} finally {
		for (const host of hosts) host.resume?.();
	}
}

async function interleaveHosts(
	plan: InterleavePlan,
	hosts: readonly (InterleavedHost & { arm: number })[],
	hostsPerArm: number,
): Promise<InterleavedComparison> {
	const raw = hosts.slice(0, hostsPerArm);
	const order = turningOrder(hostsPerArm);
	const perHost: number[][] = hosts.map(() => []);
	const samples: number[][] = [[], []];
	let running: InterleavedHost | undefined;
	for (let batch = -plan.warmUpBatches; batch < plan.batches; batch++) {
		const turn = ((batch % order.length) + order.length) % order.length;
		const turned = [...order.slice(turn), ...order.slice(0, turn)];
		for (const index of turned) {
			const host = hosts[index];
			if (!host) continue;
			if (running !== host) {
				running?.pause?.();
				host.resume?.();
				running = host;
			}
			let sum = 0;
			for (let call = 0; call < plan.callsPerBatch; call++) {
				const ms = await host.call();
				sum += ms;
				if (batch >= 0) samples[host.arm]?.push(ms);
			}
			if (batch >= 0) perHost[index]?.push(sum / plan.callsPerBatch);
		}
	}
	const armMeans = (arm: number): number[] => {
		const members = perHost.filter((_means, index) => hosts[index]?.arm === arm);
		return Array.from({ length: plan.batches }, (_unused, batch) => {
			let sum = 0;
			for (const means of members) sum += means[batch] ?? 0;
			return sum / members.length;
		});
	};
	const rawMeans = armMeans(0);
	const bridgeMeans = armMeans(1);
	const ratioOf = (bridgeSide: readonly number[], rawSide: readonly number[]): number =>
		round(median(bridgeSide) / median(rawSide));
	const quarter = Math.max(1, Math.floor(plan.batches / 4));
	const quarters = [0, 1, 2, 3]
		.map((index) => [index * quarter, index === 3 ? plan.batches : (index + 1) * quarter] as const)
		.filter(([from, to]) => to > from)
		.map(([from, to]) => ratioOf(bridgeMeans.slice(from, to), rawMeans.slice(from, to)));
	const pairs = raw.map((_call, index) => ratioOf(perHost[raw.length + index] ?? [], perHost[index] ?? []));
	const comparison = compare(summarize(samples[0] ?? []), summarize(samples[1] ?? []));
	const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
	return {
		...comparison,
		medianRatio: ratioOf(bridgeMeans, rawMeans),
		batches: plan.batches,
		callsPerBatch: plan.callsPerBatch,
		hostsPerArm,
		batchMeans: { raw: round(median(rawMeans), 4), bridge: round(median(bridgeMeans), 4) },
		quarters,
		pairs,
		meanRatio: round(mean(samples[1] ?? []) / mean(samples[0] ?? [])),
	};
}

/**
 * The order turning starts from, as indexes into raw hosts then bridge hosts: raw0, bridge0, bridge1, raw1, raw2,
 * bridge2, ... (pairs alternately raw-first and bridge-first). Turned by one each batch, every host takes every place
 * in a batch equally often, each arm follows itself and the other as often as the other arm does, and from two hosts
 * per arm no host runs twice in a row. The order raw0, bridge0, raw1, bridge1, turned and run backwards every other
 * batch, as before, kept the raw hosts in the batches' even places and the bridge hosts in the odd ones, each always
 * right after a host of the other arm: a difference between places was counted as the journal's.
 */
export function turningOrder(hostsPerArm: number): number[] {
	return Array.from({ length: hostsPerArm }, (_unused, index) =>
		index % 2 === 0 ? [index, hostsPerArm + index] : [hostsPerArm + index, index],
	).flat();
}
