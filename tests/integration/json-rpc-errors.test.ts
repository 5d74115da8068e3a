import { JsonRpcError } from "../../src/protocol/json-rpc";
import type { MethodHandler } from "../../src/protocol/mcp-session";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

let bridge: BridgeFixture;
let client: TestClient;

const methods = new Map<string, MethodHandler>([
	[
		"test/throws",
		() => {
			throw new Error("boom");
		},
	],
	["test/rejects", () => Promise.reject(new TypeError("async boom"))],
	[
		"test/typed-error",
		() => {
			throw new JsonRpcError(-32602, "Invalid params: path is outside the vault");
		},
	],
	["test/echo", (params) => params],
]);

beforeEach(async () => {
	bridge = await startBridge({ methods });
	client = await connectOrThrow(bridge.port, { token: bridge.token });
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await client?.close();
	await bridge?.stop();
});

async function lastAnswerAfter(send: () => void): Promise<{ id: unknown; error?: { code: number; message: string } }> {
	const before = client.messages.length;
	send();
	return client.waitFor(() => client.messages[before], "an answer");
}

describe("JSON-RPC errors over the wire", () => {
	it("-32700 for text that is not JSON, with id null, and the socket stays open", async () => {
		const answer = await lastAnswerAfter(() => client.sendRaw('{"jsonrpc":"2.0","id":1,"method":'));
		expect(answer).toMatchObject({ id: null, error: { code: -32700 } });
		expect((await client.request("ping")).result).toEqual({});
	});

	it.each([
		["an array (batch)", "[]"],
		["a number", "42"],
		["a string", '"ping"'],
		["null", "null"],
		["no jsonrpc field", '{"id":1,"method":"ping"}'],
		["a wrong jsonrpc version", '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
		["a non-string method", '{"jsonrpc":"2.0","id":1,"method":5}'],
		["params that are a string", '{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}'],
		["an id that is an object", '{"jsonrpc":"2.0","id":{},"method":"ping"}'],
		["an id that is null", '{"jsonrpc":"2.0","id":null,"method":"ping"}'],
		["no method and no result", '{"jsonrpc":"2.0","id":1}'],
	])("-32600 for %s", async (_label, text) => {
		const answer = await lastAnswerAfter(() => client.sendRaw(text));
		expect(answer.error?.code).toBe(-32600);
		expect(answer.error?.message).toMatch(/^Invalid request/);
	});

	it("-32601 for an unknown method, with the id echoed exactly", async () => {
		for (const id of [0, -1, 2 ** 53 - 1, "abc", "", "✻ ünïcode ⧉"]) {
			const answer = await client.request("no/such/method", undefined, id);
			expect(answer).toMatchObject({
				jsonrpc: "2.0",
				id,
				error: { code: -32601, message: "Method not found: no/such/method" },
			});
		}
	});

	it("-32602 for params of the wrong shape", async () => {
		expect((await client.request("tools/call", { name: 42 })).error?.code).toBe(-32602);
		expect((await client.request("tools/call", { name: "x", arguments: [] })).error?.code).toBe(-32602);
		expect((await client.request("test/echo", [1, 2])).error?.code).toBe(-32602);
		expect((await client.request("initialize", { protocolVersion: 5 })).error?.code).toBe(-32602);
	});

	it("-32602 with a clear message for an unknown tool", async () => {
		const answer = await client.request("tools/call", { name: "executeCode", arguments: { code: "1" } });
		expect(answer.error).toEqual({
			code: -32602,
			message: "Unknown tool: executeCode; this server lists no tools",
		});
	});

	it("-32603 when a handler throws or rejects, and the server keeps serving", async () => {
		expect((await client.request("test/throws")).error).toEqual({ code: -32603, message: "Internal error: boom" });
		expect((await client.request("test/rejects")).error).toEqual({
			code: -32603,
			message: "Internal error: async boom",
		});
		expect((await client.request("test/typed-error")).error).toEqual({
			code: -32602,
			message: "Invalid params: path is outside the vault",
		});
		expect((await client.request("ping")).result).toEqual({});
	});

	it("never answers notifications, known or unknown", async () => {
		client.notify("notifications/initialized");
		client.notify("ide_connected", { pid: 4242 });
		client.notify("test/throws");
		client.notify("no/such/notification", { x: 1 });
		client.notify("notifications/cancelled", { requestId: 99 });
		const answer = await client.request("ping", undefined, "marker");
		expect(answer.result).toEqual({});
		expect(client.messages).toEqual([answer]);
	});

	it("ignores responses sent by the client", async () => {
		client.send({ jsonrpc: "2.0", id: 5, result: {} });
		client.send({ jsonrpc: "2.0", id: 6, error: { code: 1, message: "x" } });
		const answer = await client.request("ping", undefined, "marker");
		expect(client.messages).toEqual([answer]);
	});
});
