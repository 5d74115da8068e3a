import type { BridgeEndpoint } from "../../../src/vault-tools/relay-client/bridge-locator";
import { BridgeRelay, RELAY_RETRY_AFTER_MS } from "../../../src/vault-tools/relay-client/bridge-relay";
import type { RelayConnection } from "../../../src/vault-tools/relay-client/relay-connection";

const ENDPOINT: BridgeEndpoint = { port: 4000, authToken: "t", pid: 1, ideName: "Obsidian", lockFile: "/home/.claude/ide/4000.lock", writtenAt: 1 };

/** The part of a connection BridgeRelay uses, standing in for a socket. */
function fakeConnection(): RelayConnection {
	const fake = { isOpen: true, request: () => Promise.resolve({}), onClose: () => () => undefined, close: () => undefined };
	return fake as unknown as RelayConnection;
}

describe("BridgeRelay: when to try a bridge again", () => {
	it("skips a bridge that refused for a while, then tries it again (a bridge at its connection limit recovers)", async () => {
		let clock = 0;
		const attempts: number[] = [];
		const logs: string[] = [];
		const connection = fakeConnection();
		const relay = new BridgeRelay({
			find: () => Promise.resolve([ENDPOINT]),
			clientName: "relay",
			clientVersion: "1",
			log: (message) => logs.push(message),
			now: () => clock,
			connect: () => {
				attempts.push(clock);
				return attempts.length === 1 ? Promise.reject(new Error("the bridge on port 4000 refused the connection (HTTP 503)")) : Promise.resolve(connection);
			},
		});
		expect(await relay.current()).toBeUndefined();
		expect(logs).toEqual([expect.stringMatching(/^Could not use the bridge "Obsidian" \(port 4000, .*HTTP 503.*Answering without it for 10 s/) as unknown]);
		clock = RELAY_RETRY_AFTER_MS - 1;
		expect(await relay.current()).toBeUndefined();
		expect(attempts).toEqual([0]);
		clock = RELAY_RETRY_AFTER_MS;
		expect(await relay.current()).toBe(connection);
		expect(attempts).toEqual([0, RELAY_RETRY_AFTER_MS]);
		relay.dispose();
	});

	it("opens one connection for calls that arrive together", async () => {
		let attempts = 0;
		const connection = fakeConnection();
		const relay = new BridgeRelay({
			find: () => Promise.resolve([ENDPOINT]),
			clientName: "relay",
			clientVersion: "1",
			log: () => undefined,
			connect: () => {
				attempts++;
				return Promise.resolve(connection);
			},
		});
		const answers = await Promise.all([relay.current(), relay.current(), relay.current()]);
		expect(answers).toEqual([connection, connection, connection]);
		expect(attempts).toBe(1);
		relay.dispose();
	});
});
