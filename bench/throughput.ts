import { processCpuMs } from "./process-cpu";
import type { RpcClient } from "./rpc-client";
import { elapsedMs, round, summarize } from "./stats";

export interface ThroughputPlan {
	rounds: number;
	roundMs: number;
	/** Requests each client keeps in flight. */
	window: number;
}

export interface Throughput {
	clients: number;
	window: number;
	rounds: number;
	/** Median over rounds of answered pings per second. */
	rawPerSecond: number;
	bridgePerSecond: number;
	ratio: number;
	/** Server CPU time (user + system) per answered ping over the measured rounds, in µs; absent without /proc. */
	rawCpuUsPerRequest?: number;
	bridgeCpuUsPerRequest?: number;
}

/** The process ids of the servers, to read their CPU time around each round. */
export interface ServerPids {
	raw: number;
	bridge: number;
}

/** Every client keeps `window` pings in flight until the time is up; answered requests per second. */
async function pipelinedRate(
	clients: readonly RpcClient[],
	window: number,
	durationMs: number,
): Promise<{ perSecond: number; answered: number }> {
	const start = performance.now();
	const deadline = start + durationMs;
	let answered = 0;
	const lane = async (client: RpcClient): Promise<void> => {
		while (performance.now() < deadline) {
			await client.request("ping");
			answered++;
		}
	};
	await Promise.all(clients.flatMap((client) => Array.from({ length: window }, () => lane(client))));
	return { perSecond: answered / (elapsedMs(start) / 1000), answered };
}

/** Alternates rounds between the raw floor's clients and the bridge's clients. */
export async function measureThroughput(
	raw: readonly RpcClient[],
	bridge: readonly RpcClient[],
	plan: ThroughputPlan,
	pids?: ServerPids,
): Promise<Throughput> {
	await pipelinedRate(raw, plan.window, plan.roundMs / 4);
	await pipelinedRate(bridge, plan.window, plan.roundMs / 4);
	const rates = { raw: [] as number[], bridge: [] as number[] };
	const cpu = { raw: { ms: 0, answered: 0 }, bridge: { ms: 0, answered: 0 } };
	for (let roundIndex = 0; roundIndex < plan.rounds; roundIndex++) {
		const order = roundIndex % 2 === 0 ? (["raw", "bridge"] as const) : (["bridge", "raw"] as const);
		for (const side of order) {
			const pid = pids?.[side];
			const cpuBefore = pid === undefined ? undefined : processCpuMs(pid);
			const rate = await pipelinedRate(side === "raw" ? raw : bridge, plan.window, plan.roundMs);
			const cpuAfter = pid === undefined ? undefined : processCpuMs(pid);
			rates[side].push(rate.perSecond);
			if (cpuBefore !== undefined && cpuAfter !== undefined) {
				cpu[side].ms += cpuAfter - cpuBefore;
				cpu[side].answered += rate.answered;
			}
		}
	}
	const rawPerSecond = Math.round(summarize(rates.raw).median);
	const bridgePerSecond = Math.round(summarize(rates.bridge).median);
	const result: Throughput = {
		clients: bridge.length,
		window: plan.window,
		rounds: plan.rounds,
		rawPerSecond,
		bridgePerSecond,
		ratio: round(bridgePerSecond / rawPerSecond),
	};
	if (cpu.raw.answered > 0 && cpu.bridge.answered > 0) {
		result.rawCpuUsPerRequest = round((cpu.raw.ms * 1000) / cpu.raw.answered, 2);
		result.bridgeCpuUsPerRequest = round((cpu.bridge.ms * 1000) / cpu.bridge.answered, 2);
	}
	return result;
}
