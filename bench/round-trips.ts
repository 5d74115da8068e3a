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

/** The tool's own work, called in process in a tight loop without the wire: warm caches, so a lower bound. */
export async function measureToolWork(call: () => Promise<unknown>, runs: number): Promise<Summary> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) {
		const start = performance.now();
		await call();
		samples.push(elapsedMs(start));
	}
	return summarize(samples);
}
