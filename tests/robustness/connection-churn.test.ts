import { connect as tcpConnect, type Socket } from "node:net";
import { MAX_CONNECTIONS } from "../../src/server/limits";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connect, connectOrThrow, type TestClient } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const CYCLES = 200;
const AT_ONCE = 8;
let bridge: BridgeFixture;
const counts: number[] = [];

beforeAll(async () => {
	bridge = await startBridge({ onStatusChange: (status) => counts.push(status.clients.length) });
}, FIXTURE_TIMEOUT_MS);

afterAll(async () => {
	await bridge?.stop();
});

function upgradeRequest(token: string): string {
	return [
		"GET / HTTP/1.1",
		`Host: 127.0.0.1:${bridge.port}`,
		"Upgrade: websocket",
		"Connection: Upgrade",
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
		"Sec-WebSocket-Version: 13",
		"Sec-WebSocket-Protocol: mcp",
		`X-Claude-Code-Ide-Authorization: ${token}`,
		"",
		"",
	].join("\r\n");
}

/** A raw TCP client that writes `text` and then vanishes, or waits for the first bytes back and then vanishes. */
function rawThenDestroy(text: string, waitForReply: boolean): Promise<void> {
	return new Promise((resolve) => {
		const socket: Socket = tcpConnect(bridge.port, "127.0.0.1", () => {
			socket.write(text);
			if (!waitForReply) socket.destroy();
		});
		socket.once("data", () => socket.destroy());
		socket.once("error", () => undefined);
		socket.once("close", () => resolve());
	});
}

async function closeAfter(client: TestClient, how: "close" | "terminate"): Promise<void> {
	if (how === "close") await client.close();
	else {
		client.ws.terminate();
		await client.closed;
	}
}

/** One connect/disconnect cycle of a kind picked by its number. */
async function cycle(index: number): Promise<string> {
	switch (index % 8) {
		case 0: {
			const client = await connectOrThrow(bridge.port, { token: bridge.token });
			await client.initialize();
			client.notify("ide_connected", { pid: 4242 });
			await closeAfter(client, "close");
			return "initialized, closed";
		}
		case 1: {
			const client = await connectOrThrow(bridge.port, { token: bridge.token });
			client.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
			await closeAfter(client, "terminate");
			return "initialize in flight, terminated";
		}
		case 2: {
			const client = await connectOrThrow(bridge.port, { token: bridge.token });
			await closeAfter(client, "close");
			return "never initialized, closed";
		}
		case 3:
			await rawThenDestroy(upgradeRequest(bridge.token), false);
			return "aborted right after sending the upgrade";
		case 4:
			await rawThenDestroy(upgradeRequest(bridge.token).slice(0, 60), false);
			return "aborted mid-headers";
		case 5:
			await rawThenDestroy(upgradeRequest(bridge.token), true);
			return "aborted after the 101";
		case 6: {
			const outcome = await connect(bridge.port, { token: `${bridge.token.slice(1)}x` });
			expect(outcome).toMatchObject({ kind: "refused", status: 401 });
			return "refused: wrong token";
		}
		default: {
			const outcome = await connect(bridge.port, { token: bridge.token, origin: "https://evil.example" });
			expect(outcome).toMatchObject({ kind: "refused", status: 403 });
			return "refused: origin";
		}
	}
}

describe(`${CYCLES} rapid connect/disconnect cycles`, () => {
	it("leave no session and no reserved upgrade slot behind, and the server answering", async () => {
		const kinds = new Map<string, number>();
		for (let start = 0; start < CYCLES; start += AT_ONCE) {
			const batch = Array.from({ length: Math.min(AT_ONCE, CYCLES - start) }, (_, offset) =>
				cycle(start + offset),
			);
			for (const kind of await Promise.all(batch)) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
		}
		expect([...kinds.values()].reduce((a, b) => a + b, 0)).toBe(CYCLES);
		expect(kinds.size).toBe(8);
		await waitUntil(() => bridge.host.status().clients.length === 0, "every session to close");
		expect(counts.at(-1)).toBe(0);
		expect(Math.max(...counts)).toBeLessThanOrEqual(AT_ONCE);

		// Every slot is free again: the full number of clients can connect, and one more is refused.
		const full = await Promise.all(
			Array.from({ length: MAX_CONNECTIONS }, () => connectOrThrow(bridge.port, { token: bridge.token })),
		);
		expect(await connect(bridge.port, { token: bridge.token })).toMatchObject({ kind: "refused", status: 503 });
		for (const client of full) expect((await client.request("ping")).result).toEqual({});
		await Promise.all(full.map((client) => client.close()));
		await waitUntil(() => bridge.host.status().clients.length === 0, "the last sessions to close");
	});
});
