import fc from "fast-check";
import { classify, parseMessage, type JsonObject, type JsonRpcId } from "../../src/protocol/json-rpc";
import { McpSession, type MethodHandler } from "../../src/protocol/mcp-session";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { textResult } from "../../src/protocol/mcp-types";
import { expectedAnswer, frame, idKey, messageText, receivedText, PROTOTYPE_KEYS } from "./frames";

/** Runs per property (whole numbers: fast-check never ends a run count like 666.67). */
const NUM_RUNS = 2000;
const SESSION_RUNS = 700;

interface Answer {
	jsonrpc: unknown;
	id: JsonRpcId | null;
	result?: unknown;
	error?: { code: unknown; message: unknown };
}

/** Handlers that return what they were given (so the reply holds client data), fail, or take a turn of the event loop. */
const methods = new Map<string, MethodHandler>([
	["test/echo", (params) => params],
	["test/throws", () => {
		throw new Error("boom");
	}],
	["test/later", () => new Promise((resolve) => setImmediate(() => resolve({ late: true })))],
	["test/bigint", () => ({ value: BigInt(1) })],
	["test/cycle", () => {
		const cycle: JsonObject = {};
		cycle.self = cycle;
		return cycle;
	}],
]);

function newSession(sent: string[]): McpSession {
	const tools = new ToolRegistry();
	tools.register({ name: "echo", description: "echo", inputSchema: { type: "object" }, call: (args) => Promise.resolve(textResult(JSON.stringify(args))) });
	return new McpSession({
		id: 1,
		send: (text) => sent.push(text),
		serverInfo: { name: "fuzz", version: "0" },
		tools,
		methods,
		maxOutgoingBytes: 1024 * 1024,
	});
}

function parseAnswers(sent: readonly string[]): Answer[] {
	return sent.map((text) => JSON.parse(text) as Answer);
}

function expectWellFormed(answer: Answer): void {
	expect(answer.jsonrpc).toBe("2.0");
	expect("result" in answer !== "error" in answer).toBe(true);
	if (answer.error) {
		expect(typeof answer.error.code).toBe("number");
		expect(typeof answer.error.message).toBe("string");
	}
}

describe("JSON-RPC parsing under fuzzing", () => {
	it("parseMessage never throws, and classifies exactly as the spec says", () => {
		fc.assert(
			fc.property(frame, (sent) => {
				const text = receivedText(sent);
				const parsed = parseMessage(text);
				const expected = expectedAnswer(text);
				if (!expected.answered) {
					expect(["notification", "response"]).toContain(parsed.kind);
					return;
				}
				if (parsed.kind === "request") {
					expect(Object.is(parsed.message.id, expected.id)).toBe(true);
				} else {
					expect(parsed.kind).toBe("invalid");
					if (parsed.kind === "invalid") expect(parsed.id).toBe(expected.id);
				}
			}),
			{ numRuns: NUM_RUNS },
		);
	});

	it("classify keeps the method and params of a request as sent and never reads them from the prototype", () => {
		fc.assert(
			fc.property(messageText, (text) => {
				let value: unknown;
				try {
					value = JSON.parse(text);
				} catch {
					return;
				}
				const parsed = classify(value);
				if (parsed.kind !== "request" && parsed.kind !== "notification") return;
				const record = value as Record<string, unknown>;
				expect(Object.prototype.hasOwnProperty.call(record, "method")).toBe(true);
				expect(parsed.message.method).toBe(record.method);
				expect(parsed.message.params).toBe(record.params);
				expect(Object.getPrototypeOf(parsed.message)).toBe(Object.prototype);
			}),
			{ numRuns: NUM_RUNS },
		);
	});

	it("prototype keys in method, id and params are plain data", () => {
		for (const key of PROTOTYPE_KEYS) {
			const asMethod = parseMessage(JSON.stringify({ jsonrpc: "2.0", id: 1, method: key }));
			expect(asMethod).toEqual({ kind: "request", message: { jsonrpc: "2.0", id: 1, method: key } });
			const asId = parseMessage(`{"jsonrpc":"2.0","id":${JSON.stringify(key)},"method":"ping"}`);
			expect(asId).toEqual({ kind: "request", message: { jsonrpc: "2.0", id: key, method: "ping" } });
			// A "__proto__" member holding an id does not make a request out of a notification.
			const hidden = parseMessage(`{"jsonrpc":"2.0","${key}":{"id":1,"method":"x"},"method":"ping"}`);
			expect(hidden.kind).toBe("notification");
		}
		expect(({} as Record<string, unknown>).id).toBeUndefined();
	});
});

describe("McpSession under fuzzing", () => {
	it("answers every request with a valid id exactly once with that id, never a notification, and never throws", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 8 }), async (frames) => {
				const sent: string[] = [];
				const session = newSession(sent);
				for (const one of frames) {
					const text = receivedText(one);
					const before = sent.length;
					await expect(session.handleMessage(text)).resolves.toBeUndefined();
					const answers = parseAnswers(sent.slice(before)).filter((message) => !("method" in message));
					const expected = expectedAnswer(text);
					if (!expected.answered) {
						expect(answers).toEqual([]);
					} else {
						expect(answers.map((answer) => idKey(answer.id))).toEqual([idKey(expected.id)]);
						answers.forEach(expectWellFormed);
					}
				}
				session.dispose();
			}),
			{ numRuns: SESSION_RUNS },
		);
	});

	it("answers an echo of deeply nested params, and results that cannot be serialized, with one error each", async () => {
		const sent: string[] = [];
		const session = newSession(sent);
		const deep = "[".repeat(12_000) + "]".repeat(12_000);
		const cases: [JsonRpcId, string][] = [
			[1, `{"jsonrpc":"2.0","id":1,"method":"test/echo","params":{"deep":${deep}}}`],
			[2, '{"jsonrpc":"2.0","id":2,"method":"test/bigint"}'],
			[3, '{"jsonrpc":"2.0","id":3,"method":"test/cycle"}'],
			[4, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"deep":${deep}}}}`],
		];
		for (const [id, text] of cases) {
			const before = sent.length;
			await expect(session.handleMessage(text)).resolves.toBeUndefined();
			const answers = parseAnswers(sent.slice(before));
			expect(answers.map((answer) => answer.id)).toEqual([id]);
			answers.forEach(expectWellFormed);
		}
		await session.handleMessage('{"jsonrpc":"2.0","id":"after","method":"ping"}');
		expect(JSON.parse(sent.at(-1) ?? "")).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
	});

	it("answers a request that is in flight when the same id arrives again, twice, and drops answers after dispose", async () => {
		const sent: string[] = [];
		const session = newSession(sent);
		const first = session.handleMessage('{"jsonrpc":"2.0","id":7,"method":"test/later"}');
		const second = session.handleMessage('{"jsonrpc":"2.0","id":7,"method":"test/later"}');
		await Promise.all([first, second]);
		expect(parseAnswers(sent).map((answer) => answer.id)).toEqual([7, 7]);
		const late = session.handleMessage('{"jsonrpc":"2.0","id":8,"method":"test/later"}');
		session.dispose();
		await late;
		expect(sent).toHaveLength(2);
	});
});
