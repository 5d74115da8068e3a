import type { MethodHandler } from "../../src/protocol/mcp-session";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow, type JsonRpcAnswer, type TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

// How the bridge answers each example of the JSON-RPC 2.0 specification's "Examples" section
// (jsonrpc.org/specification), plus MCP's stricter rules, written down by hand from the two specifications
// rather than from the code. Where MCP departs from JSON-RPC, the row says so.
//
// MCP's rules used here (MCP 2025-06-18 and later, "Base protocol" and schema.ts):
// - a request's id is a string or an integer, never null;
// - a request's params, when present, are an object (by-name), never an array;
// - no batches: 2025-06-18 removed JSON-RPC batching, so a JSON array is not an MCP message at all.
//   The bridge answers it as JSON-RPC answers any invalid Request object: one -32600 error with id null
//   (one object, not an array of answers), and runs none of the calls inside it.

type Expected =
	{ none: true } | { id: string | number | null; result: unknown } | { id: string | number | null; code: number };

interface Example {
	name: string;
	send: string;
	expect: Expected;
}

const answered = (id: string | number | null, result: unknown): Expected => ({ id, result });
const failed = (id: string | number | null, code: number): Expected => ({ id, code });
const noAnswer: Expected = { none: true };

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const SPEC_EXAMPLES: Example[] = [
	// "rpc call with positional parameters": JSON-RPC answers 19 and -19; MCP's params are an object.
	{
		name: "positional params [42, 23] (MCP: params are an object)",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
		expect: failed(1, INVALID_PARAMS),
	},
	{
		name: "positional params [23, 42] (MCP: params are an object)",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
		expect: failed(2, INVALID_PARAMS),
	},
	// "rpc call with named parameters"
	{
		name: "named params, subtrahend first",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
		expect: answered(3, 19),
	},
	{
		name: "named params, minuend first",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}',
		expect: answered(4, 19),
	},
	// "a Notification": never answered, whatever the method.
	{
		name: "notification with positional params",
		send: '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}',
		expect: noAnswer,
	},
	{ name: "notification without params", send: '{"jsonrpc": "2.0", "method": "foobar"}', expect: noAnswer },
	// "rpc call of non-existent method"
	{
		name: "non-existent method",
		send: '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
		expect: failed("1", METHOD_NOT_FOUND),
	},
	// "rpc call with invalid JSON"
	{
		name: "invalid JSON",
		send: '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
		expect: failed(null, PARSE_ERROR),
	},
	// "rpc call with invalid Request object"
	{
		name: "invalid Request object",
		send: '{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
		expect: failed(null, INVALID_REQUEST),
	},
	// "rpc call Batch, invalid JSON": not JSON, so a parse error whatever it would have been.
	{
		name: "batch that is not valid JSON",
		send: '[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]',
		expect: failed(null, PARSE_ERROR),
	},
	// "rpc call with an empty Array": the same answer in JSON-RPC and MCP.
	{ name: "empty array", send: "[]", expect: failed(null, INVALID_REQUEST) },
	// "rpc call with an invalid Batch (but not empty)" and "rpc call with invalid Batch": JSON-RPC answers an
	// array of one and of three errors; MCP has no batches (see the top).
	{ name: "invalid batch [1] (MCP: no batches)", send: "[1]", expect: failed(null, INVALID_REQUEST) },
	{ name: "invalid batch [1,2,3] (MCP: no batches)", send: "[1,2,3]", expect: failed(null, INVALID_REQUEST) },
	// "rpc call Batch": JSON-RPC answers an array of five; MCP has no batches, so none of the calls runs.
	{
		name: "mixed batch (MCP: no batches)",
		send: '[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, {"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": "2"}, {"foo": "boo"}, {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}, {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]',
		expect: failed(null, INVALID_REQUEST),
	},
	// "rpc call Batch (all notifications)": JSON-RPC returns nothing; to MCP the array is not a message.
	{
		name: "batch of notifications only (MCP: no batches)",
		send: '[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]',
		expect: failed(null, INVALID_REQUEST),
	},
];

const MCP_ID_RULES: Example[] = [
	{
		name: "a string id",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 1, "subtrahend": 1}, "id": "abc"}',
		expect: answered("abc", 0),
	},
	{
		name: "the integer id 0",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 1, "subtrahend": 1}, "id": 0}',
		expect: answered(0, 0),
	},
	{
		name: "a negative integer id",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 1, "subtrahend": 1}, "id": -7}',
		expect: answered(-7, 0),
	},
	// JSON-RPC would answer with id null; MCP: "the ID MUST NOT be null". The id cannot be echoed, so null.
	{
		name: "a null id (MCP: never null)",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 1, "subtrahend": 1}, "id": null}',
		expect: failed(null, INVALID_REQUEST),
	},
	// JSON-RPC: ids "SHOULD NOT contain fractional parts"; MCP: an integer.
	{
		name: "a fractional id (MCP: integer)",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 1, "subtrahend": 1}, "id": 1.5}',
		expect: failed(null, INVALID_REQUEST),
	},
	// JSON-RPC: a String, Number or Null.
	{
		name: "a boolean id",
		send: '{"jsonrpc": "2.0", "method": "subtract", "id": true}',
		expect: failed(null, INVALID_REQUEST),
	},
	{
		name: "an object id",
		send: '{"jsonrpc": "2.0", "method": "subtract", "id": {"n": 1}}',
		expect: failed(null, INVALID_REQUEST),
	},
	// A request object that is invalid for another reason, but whose id is readable: JSON-RPC asks for id null
	// only "if there was an error in detecting the id", so the error carries the id and the client can match it.
	{
		name: "no jsonrpc member, readable id",
		send: '{"method": "subtract", "params": {"minuend": 1, "subtrahend": 1}, "id": 8}',
		expect: failed(8, INVALID_REQUEST),
	},
	{
		name: 'jsonrpc "1.0", readable id',
		send: '{"jsonrpc": "1.0", "method": "subtract", "id": 9}',
		expect: failed(9, INVALID_REQUEST),
	},
	{
		name: "params that are a string, readable id",
		send: '{"jsonrpc": "2.0", "method": "subtract", "params": "bar", "id": 10}',
		expect: failed(10, INVALID_REQUEST),
	},
	// Response objects (result or error, no method) are the answers to a peer's requests: never answered.
	{ name: "a result response", send: '{"jsonrpc": "2.0", "result": 19, "id": 1}', expect: noAnswer },
	{
		name: "an error response",
		send: '{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}',
		expect: noAnswer,
	},
];

let bridge: BridgeFixture;
let client: TestClient;
let subtractCalls = 0;

const methods = new Map<string, MethodHandler>([
	[
		"subtract",
		(params) => {
			subtractCalls += 1;
			return Number(params["minuend"]) - Number(params["subtrahend"]);
		},
	],
]);

beforeAll(async () => {
	bridge = await startBridge({ methods });
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
	await bridge?.stop();
});
beforeEach(async () => {
	subtractCalls = 0;
	client = await connectOrThrow(bridge.port, { token: bridge.token });
}, FIXTURE_TIMEOUT_MS);
afterEach(async () => {
	await client?.close();
});

const MARKER = "after-the-example";

/**
 * Everything the server sent back for one message. A ping sent right after it is the fence: the server
 * handles a socket's messages in order, so by the ping's answer anything the example caused was sent.
 */
async function answersTo(text: string): Promise<JsonRpcAnswer[]> {
	client.sendRaw(text);
	const fence = await client.request("ping", undefined, MARKER);
	expect(fence.result).toEqual({});
	return client.messages.filter((message) => message.id !== MARKER);
}

/** The error message is the bridge's own wording; the specs fix only the code. */
const ANY_MESSAGE: unknown = expect.any(String);

function expectedAnswers(expected: Expected): unknown[] {
	if ("none" in expected) return [];
	if ("code" in expected)
		return [{ jsonrpc: "2.0", id: expected.id, error: { code: expected.code, message: ANY_MESSAGE } }];
	return [{ jsonrpc: "2.0", id: expected.id, result: expected.result }];
}

describe("the JSON-RPC 2.0 specification's examples, as MCP narrows them", () => {
	it.each(SPEC_EXAMPLES.map((example) => [example.name, example] as const))("%s", async (_name, example) => {
		expect(await answersTo(example.send)).toEqual(expectedAnswers(example.expect));
		if (example.send.startsWith("[")) expect(subtractCalls).toBe(0);
	});
});

describe("MCP's id rule and the other request-object rules", () => {
	it.each(MCP_ID_RULES.map((example) => [example.name, example] as const))("%s", async (_name, example) => {
		expect(await answersTo(example.send)).toEqual(expectedAnswers(example.expect));
	});
});
