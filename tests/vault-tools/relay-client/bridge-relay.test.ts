import type { BridgeEndpoint } from "../../../src/vault-tools/relay-client/bridge-locator";
import { BridgeRelay, RELAY_RETRY_AFTER_MS } from "../../../src/vault-tools/relay-client/bridge-relay";
import type { RelayConnection } from "../../../src/vault-tools/relay-client/relay-connection";

const ENDPOINT: BridgeEndpoint = {
	port: 4000,
	authToken: "t",
	pid: 1,
	ideName: "Obsidian",
	lockFile: "/home/.claude/ide/4000.lock",
	writtenAt: 1,
};

/** The part of a connection BridgeRelay uses, standing in for a socket. */
function fakeConnection(endpoint: BridgeEndpoint = ENDPOINT): RelayConnection {
	const fake = {
		isOpen: true,
		endpoint,
		request: () => Promise.resolve({}),
		onClose: () => () => undefined,
		close: () => {
			fake.isOpen = false;
		},
	};
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
				return attempts.length === 1
					? Promise.reject(new Error("the bridge on port 4000 refused the connection (HTTP 503)"))
					: Promise.resolve(connection);
			},
		});
		expect(await relay.current()).toBeUndefined();
		expect(logs).toEqual([
			expect.stringMatching(
				/^Could not use the bridge "Obsidian" \(port 4000, .*HTTP 503.*Answering without it for 10 s/,
			) as unknown,
		]);
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

describe("BridgeRelay: admitting a bridge (its privacy is checked before any call is forwarded)", () => {
	const OTHER: BridgeEndpoint = {
		...ENDPOINT,
		port: 4001,
		lockFile: "/home/.claude/ide/4001.lock",
		ideName: "Other",
	};

	it("does not use a bridge that admit refuses, logs why once, tries the next one, and says why when none is used", async () => {
		const logs: string[] = [];
		const refusedOne = fakeConnection();
		const relay = new BridgeRelay({
			find: () => Promise.resolve([ENDPOINT]),
			clientName: "relay",
			clientVersion: "1",
			log: (message) => logs.push(message),
			connect: () => Promise.resolve(refusedOne),
			admit: () => Promise.resolve('it does not keep private the folder "Extra"'),
		});
		expect(await relay.current()).toBeUndefined();
		expect(await relay.current()).toBeUndefined();
		expect(refusedOne.isOpen).toBe(false);
		expect(relay.refusal()).toBe('it does not keep private the folder "Extra"');
		expect(logs).toEqual([
			'Not relaying to the bridge "Obsidian" (pid 1, port 4000): it does not keep private the folder "Extra". Read tools answer from the folder; write tools are refused.',
		]);

		const admitted = fakeConnection(OTHER);
		const second = new BridgeRelay({
			find: () => Promise.resolve([ENDPOINT, OTHER]),
			clientName: "relay",
			clientVersion: "1",
			log: () => undefined,
			connect: (endpoint) => Promise.resolve(endpoint === OTHER ? admitted : fakeConnection()),
			admit: (connection) => Promise.resolve(connection.endpoint === OTHER ? undefined : "weaker"),
		});
		expect(await second.current()).toBe(admitted);
		expect(second.refusal()).toBeUndefined();
		relay.dispose();
		second.dispose();
	});

	it("asks admit again before the next call once the admission key changed, and drops the bridge it now refuses", async () => {
		let revision = 1;
		let verdict: string | undefined;
		let asked = 0;
		let connects = 0;
		const relay = new BridgeRelay({
			find: () => Promise.resolve([ENDPOINT]),
			clientName: "relay",
			clientVersion: "1",
			log: () => undefined,
			connect: () => {
				connects++;
				return Promise.resolve(fakeConnection());
			},
			admit: () => {
				asked++;
				return Promise.resolve(verdict);
			},
			admissionKey: () => String(revision),
		});
		const first = await relay.current();
		expect(first).toBeDefined();
		expect(await relay.current()).toBe(first);
		expect(asked).toBe(1);
		// The settings on this side changed (the revision): the same connection is checked again, and still fits.
		revision = 2;
		expect(await relay.current()).toBe(first);
		expect(asked).toBe(2);
		// They changed again, and now the bridge keeps less than this side would: it is dropped, not forwarded to.
		revision = 3;
		verdict = 'it does not keep private the folder "New"';
		expect(await relay.current()).toBeUndefined();
		expect(first?.isOpen).toBe(false);
		expect(relay.refusal()).toBe(verdict);
		// A further change on this side lets the bridge be tried again at once (no waiting out the retry delay).
		revision = 4;
		verdict = undefined;
		const again = await relay.current();
		expect(again).toBeDefined();
		expect(again).not.toBe(first);
		expect(connects).toBe(2);
		relay.dispose();
	});
});
