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
}

/** Every client keeps `window` pings in flight until the time is up; answered requests per second. */
async function pipelinedRate(clients: readonly RpcClient[], window: number, durationMs: number): Promise<number> {
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
	return answered / (elapsedMs(start) / 1000);
}

/** Alternates rounds between the raw floor's clients and the bridge's clients. */
export async function measureThroughput(raw: readonly RpcClient[], bridge: readonly RpcClient[], plan: ThroughputPlan): Promise<Throughput> {
	await pipelinedRate(raw, plan.window, plan.roundMs / 4);
	await pipelinedRate(bridge, plan.window, plan.roundMs / 4);
	const rates = { raw: [] as number[], bridge: [] as number[] };
	for (let roundIndex = 0; roundIndex < plan.rounds; roundIndex++) {
		const order = roundIndex % 2 === 0 ? (["raw", "bridge"] as const) : (["bridge", "raw"] as const);
		for (const side of order) rates[side].push(await pipelinedRate(side === "raw" ? raw : bridge, plan.window, plan.roundMs));
	}
	const rawPerSecond = Math.round(summarize(rates.raw).median);
	const bridgePerSecond = Math.round(summarize(rates.bridge).median);
	return { clients: bridge.length, window: plan.window, rounds: plan.rounds, rawPerSecond, bridgePerSecond, ratio: round(bridgePerSecond / rawPerSecond) };
}
