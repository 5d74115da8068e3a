import { alternate, type AlternationPlan, type Comparison } from "./alternation";
import { ECHO_METHOD, type RawServer } from "./raw-server";
import type { RpcClient } from "./rpc-client";
import { elapsedMs, summarize, type Summary } from "./stats";

export interface Sides {
	raw: RpcClient;
	bridge: RpcClient;
	rawServer: RawServer;
}

/** Milliseconds for one request and its answer; an error answer fails the benchmark. */
export async function timedRequest(client: RpcClient, method: string, params?: object): Promise<number> {
	const start = performance.now();
	const answer = await client.request(method, params);
	const ms = elapsedMs(start);
	if (answer.error) throw new Error(`${method} failed: ${answer.error.code} ${answer.error.message}`);
	return ms;
}

/** ping: the bridge's whole per-message path against a server that only parses and answers. */
export function measurePing(sides: Sides, plan: AlternationPlan): Promise<Comparison> {
	return alternate(
		plan,
		() => timedRequest(sides.raw, "ping"),
		() => timedRequest(sides.bridge, "ping"),
	);
}

/**
 * A request whose answer the raw floor gives back canned: the bridge's first answer is handed to the raw server,
 * so both send the same bytes and the ratio is the bridge's own work (dispatch, tool, file I/O).
 */
export async function measureAgainstCannedAnswer(sides: Sides, method: string, params: object, plan: AlternationPlan): Promise<Comparison> {
	sides.rawServer.answer(method, await sides.bridge.call(method, params));
	return alternate(
		plan,
		() => timedRequest(sides.raw, method, params),
		() => timedRequest(sides.bridge, method, params),
	);
}

/**
 * The bridge's request against the raw server echoing `payload` back: the floor moves the payload through ws both
 * ways (in place of reading it from disk and decoding it), then answers with it.
 */
export function measureAgainstEcho(sides: Sides, method: string, params: object, payload: object, plan: AlternationPlan): Promise<Comparison> {
	return alternate(
		plan,
		() => timedRequest(sides.raw, ECHO_METHOD, payload),
		() => timedRequest(sides.bridge, method, params),
	);
}

/** The tool's own work, called in process without the wire: what no raw floor can do. */
export async function measureToolWork(call: () => Promise<unknown>, runs: number): Promise<Summary> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) {
		const start = performance.now();
		await call();
		samples.push(elapsedMs(start));
	}
	return summarize(samples);
}
