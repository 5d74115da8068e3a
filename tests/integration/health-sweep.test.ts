import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Long enough for a healthy client's pong to arrive before the next sweep on a loaded machine (at 100 ms, a fresh-clone
 * run at load 11 saw the healthy client's pong come late and the client dropped); short enough to keep the test quick.
 */
const SWEEP_MS = 500;
let bridge: BridgeFixture;

beforeEach(async () => {
	bridge = await startBridge({ healthSweepIntervalMs: SWEEP_MS });
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await bridge?.stop();
});

describe("health sweep", () => {
	it("terminates a socket that stops answering pings and keeps one that answers", async () => {
		const silent = await connectOrThrow(bridge.port, { token: bridge.token, autoPong: false });
		const healthy = await connectOrThrow(bridge.port, { token: bridge.token });
		let pingsSeen = 0;
		healthy.ws.on("ping", () => pingsSeen++);

		const closed = await silent.closed;
		// terminate() sends no close frame: the client sees an abnormal closure.
		expect(closed.code).toBe(1006);
		// Two more sweeps after the silent socket went: the healthy one was pinged and kept through both.
		const pingsWhenSilentWent = pingsSeen;
		await waitUntil(() => pingsSeen >= pingsWhenSilentWent + 2, "two more sweeps to ping the healthy client");
		expect((await healthy.request("ping")).result).toEqual({});
		expect(bridge.host.status().clients.map((client) => client.id)).toHaveLength(1);
		await healthy.close();
	});
});
