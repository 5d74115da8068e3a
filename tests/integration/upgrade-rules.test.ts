import { request } from "node:http";
import { CLOSE_MESSAGE_TOO_BIG, MAX_CONNECTIONS, MAX_INCOMING_MESSAGE_BYTES } from "../../src/server/limits";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connect, connectOrThrow, type TestClient } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

let bridge: BridgeFixture;
const clients: TestClient[] = [];

beforeEach(async () => {
	bridge = await startBridge();
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	await bridge?.stop();
});

async function open(options: Parameters<typeof connect>[1] = {}): Promise<TestClient> {
	const client = await connectOrThrow(bridge.port, { token: bridge.token, ...options });
	clients.push(client);
	return client;
}

describe("authentication on the upgrade", () => {
	it("accepts the token from the lock file and selects the mcp subprotocol", async () => {
		const client = await open();
		expect(client.protocol).toBe("mcp");
		expect((await client.request("ping")).result).toEqual({});
	});

	it.each([
		["no header", undefined],
		["an empty header", ""],
		["a wrong token of the same length", "0".repeat(64)],
		["the token with one character changed", "x"],
		["a prefix of the token", "prefix"],
		["the token plus a suffix", "suffix"],
		["a very long value", "a".repeat(10_000)],
	])("refuses %s with 401 and opens no socket", async (_label, variant) => {
		const token =
			variant === "x"
				? `${bridge.token.slice(0, -1)}${bridge.token.endsWith("a") ? "b" : "a"}`
				: variant === "prefix"
					? bridge.token.slice(0, 16)
					: variant === "suffix"
						? `${bridge.token}0`
						: variant;
		const outcome = await connect(bridge.port, { token });
		expect(outcome).toMatchObject({ kind: "refused", status: 401 });
		expect(bridge.host.status().clients).toHaveLength(0);
	});

	it("refuses any Origin with 403, even with the right token", async () => {
		for (const origin of ["https://evil.example", "http://127.0.0.1", "null"]) {
			const outcome = await connect(bridge.port, { token: bridge.token, origin });
			expect(outcome).toMatchObject({ kind: "refused", status: 403 });
		}
	});

	it("refuses a Host header that is not loopback (DNS rebinding)", async () => {
		const outcome = await connect(bridge.port, { token: bridge.token, host: `attacker.example:${bridge.port}` });
		expect(outcome).toMatchObject({ kind: "refused", status: 403 });
		await open({ host: `localhost:${bridge.port}` });
	});

	it("does not select a subprotocol the client did not offer", async () => {
		const client = await open({ protocols: [] });
		expect(client.protocol).toBe("");
		expect((await client.request("ping")).result).toEqual({});
	});

	it("answers plain HTTP requests with 426 and no data", async () => {
		const status = await new Promise<number>((resolve, reject) => {
			request({ host: "127.0.0.1", port: bridge.port, path: "/sse" }, (response) => {
				response.resume();
				resolve(response.statusCode ?? 0);
			})
				.on("error", reject)
				.end();
		});
		expect(status).toBe(426);
	});
});

describe("limits", () => {
	it(`refuses the connection after ${MAX_CONNECTIONS} with 503 and serves the others`, async () => {
		const first = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open()));
		const outcome = await connect(bridge.port, { token: bridge.token });
		expect(outcome).toMatchObject({ kind: "refused", status: 503 });
		expect(bridge.host.status().clients).toHaveLength(MAX_CONNECTIONS);
		for (const client of first) expect((await client.request("ping")).result).toEqual({});

		const leaving = first[0];
		if (!leaving) throw new Error("no client");
		await leaving.close();
		clients.splice(clients.indexOf(leaving), 1);
		await waitUntil(() => bridge.host.status().clients.length === MAX_CONNECTIONS - 1, "a session to close");
		await open();
	});

	it("closes a socket that sends a message of 1 MiB + 1 byte with 1009, and nothing else", async () => {
		const victim = await open();
		const bystander = await open();
		victim.sendRaw(Buffer.alloc(MAX_INCOMING_MESSAGE_BYTES + 1, 0x20));
		const closed = await victim.closed;
		expect(closed.code).toBe(CLOSE_MESSAGE_TOO_BIG);
		expect(victim.messages).toHaveLength(0);
		expect((await bystander.request("ping")).result).toEqual({});
		expect((await open()).protocol).toBe("mcp");
	});

	it("accepts a message of exactly 1 MiB", async () => {
		const client = await open();
		const prefix = '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"';
		const suffix = '"}}';
		const padding = "x".repeat(MAX_INCOMING_MESSAGE_BYTES - prefix.length - suffix.length);
		client.sendRaw(prefix + padding + suffix);
		expect((await client.waitForAnswer(7)).result).toEqual({});
	});
});

describe("shutdown", () => {
	it("closes sockets with 1001, closes the port and removes the lock file", async () => {
		const client = await open();
		const { existsSync } = await import("node:fs");
		await bridge.host.stop();
		expect((await client.closed).code).toBe(1001);
		expect(existsSync(bridge.lockFilePath)).toBe(false);
		const outcome = await connect(bridge.port, { token: bridge.token }).catch(
			(error: NodeJS.ErrnoException) => error.code,
		);
		expect(outcome).toBe("ECONNREFUSED");
	});
});
