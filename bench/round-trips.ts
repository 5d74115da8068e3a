import type { RpcClient } from "./rpc-client";
import { elapsedMs, summarize, type Summary } from "./stats";

/** Milliseconds for one request and its answer; an error answer fails the benchmark. */
export async function timedRequest(client: RpcClient, method: string, params?: object): Promise<number> {
	const start = performance.now();
	const answer = await client.request(method, params);
	const ms = elapsedMs(start);
	if (answer.error) throw new Error(`${method} failed: ${answer.error.code} ${answer.error.message}`);
	return ms;
}

/**
 * The tool's own work, called in process without the wire: what no raw floor can do. With `pauseMs`, each call
 * comes after an idle pause, as in a round trip where the server sleeps between requests: a call after a pause
 * takes about twice as long as one in a tight loop (caches gone cold), and subtracting the tight-loop figure
 * would leave part of the tool's work in "the protocol's share".
 */
export async function measureToolWork(call: () => Promise<unknown>, runs: number, pauseMs = 0): Promise<Summary> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) {
		if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
		const start = performance.now();
		await call();
		samples.push(elapsedMs(start));
	}
	return summarize(samples);
}
