import type { IntervalScheduler } from "../../src/server/connection-manager";
import { HEALTH_SWEEP_LATE_FACTOR } from "../../src/server/limits";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * The health sweep's "the machine slept" rule, driven by hand: the sweep is scheduled through an injected
 * scheduler and the clock is Date.now under our control, so no test waits for real intervals.
 */
const INTERVAL_MS = 30_000;
let bridge: BridgeFixture;
let sweep: () => void;
let now: number;
const clients: TestClient[] = [];

const manualScheduler: IntervalScheduler = (callback, intervalMs) => {
	expect(intervalMs).toBe(INTERVAL_MS);
	sweep = callback;
	return () => {
		sweep = () => {
			throw new Error("the sweep was stopped");
		};
	};
};

beforeEach(async () => {
	now = 1_700_000_000_000;
	jest.spyOn(Date, "now").mockImplementation(() => now);
	bridge = await startBridge({ healthSweepIntervalMs: INTERVAL_MS, scheduleInterval: manualScheduler });
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	await bridge?.stop();
	jest.restoreAllMocks();
});

async function open(autoPong: boolean): Promise<TestClient> {
	const client = await connectOrThrow(bridge.port, { token: bridge.token, autoPong });
	clients.push(client);
	return client;
}

/** Runs a sweep `elapsedMs` after the previous one, then lets pings and pongs cross the socket. */
async function sweepAfter(elapsedMs: number, healthy: TestClient): Promise<void> {
	now += elapsedMs;
	sweep();
	// The healthy client's pong precedes its next frame, so once this answer is back the server has the pong.
	expect((await healthy.request("ping")).result).toEqual({});
}

describe("health sweep after the machine slept", () => {
	it("spares a silent client when the sweep fires more than 1.5× late, and drops it at the next on-time sweep", async () => {
		const silent = await open(false);
		const healthy = await open(true);
		let pings = 0;
		silent.ws.on("ping", () => pings++);

		await sweepAfter(INTERVAL_MS, healthy);
		await sweepAfter(INTERVAL_MS * 20, healthy);
		// Still connected and served after a long sleep, although it never answered the first ping.
		expect((await silent.request("ping")).result).toEqual({});
		expect(bridge.host.status().clients).toHaveLength(2);
		expect(pings).toBe(2);

		await sweepAfter(INTERVAL_MS, healthy);
		expect((await silent.closed).code).toBe(1006);
		expect(bridge.host.status().clients.map((client) => client.id)).toEqual([2]);
		expect(bridge.logs).toContain("Connection 1 did not answer a ping; dropping it");
	});

	it("still drops a silent client when the sweep is late but within 1.5×", async () => {
		const silent = await open(false);
		const healthy = await open(true);
		await sweepAfter(INTERVAL_MS, healthy);
		await sweepAfter(Math.floor(INTERVAL_MS * HEALTH_SWEEP_LATE_FACTOR), healthy);
		expect((await silent.closed).code).toBe(1006);
		expect(bridge.host.status().clients).toHaveLength(1);
	});

	it("never drops a client that answers, however the sweeps are spaced", async () => {
		const healthy = await open(true);
		for (const gap of [INTERVAL_MS, INTERVAL_MS * 100, 1, INTERVAL_MS, INTERVAL_MS * 2, 0])
			await sweepAfter(gap, healthy);
		expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
		expect(bridge.host.status().clients).toHaveLength(1);
	});
});
