import fc from "fast-check";
import { classify, parseMessage, type JsonObject, type JsonRpcId } from "../../src/protocol/json-rpc";
import { McpSession, type MethodHandler } from "../../src/protocol/mcp-session";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { textResult } from "../../src/protocol/mcp-types";
import {
	frame,
	idKey,
	messageText,
	receivedText,
	PROTOTYPE_KEYS,
	wellFormedNotification,
	wellFormedRequest,
	wellFormedResponse,
} from "./frames";

/** Runs per property (whole numbers: fast-check never ends a run count like 666.67). */
const NUM_RUNS = 2000;
const SESSION_RUNS = 700;
/** Well-formed messages exercise fewer paths than random frames: fewer runs. */
const WELL_FORMED_RUNS = 400;

interface Answer {
	jsonrpc: unknown;
	id: JsonRpcId | null;
	result?: unknown;
	error?: { code: unknown; message: unknown };
}

/** Handlers that return what they were given (so the reply holds client data), fail, or take a turn of the event loop. */
const methods = new Map<string, MethodHandler>([
	["test/echo", (params) => params],
	[
		"test/throws",
		() => {
			throw new Error("boom");
		},
	],
	["test/later", () => new Promise((resolve) => setImmediate(() => resolve({ late: true })))],
	["test/bigint", () => ({ value: BigInt(1) })],
	[
		"test/cycle",
		() => {
			const cycle: JsonObject = {};
			cycle.self = cycle;
			return cycle;
		},
	],
]);

function newSession(sent: string[]): McpSession {
	const tools = new ToolRegistry();
	tools.register({
		name: "echo",
		description: "echo",
		inputSchema: { type: "object" },
		call: (args) => Promise.resolve(textResult(JSON.stringify(args))),
	});
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

/** The answers (not notifications) the session sent while handling one message; handling never throws. */
async function answersTo(session: McpSession, sent: string[], text: string): Promise<Answer[]> {
	const before = sent.length;
	await expect(session.handleMessage(text)).resolves.toBeUndefined();
	return parseAnswers(sent.slice(before)).filter((message) => !("method" in message));
}

/** The message's own "id" member, if the text is a JSON object that has one. */
function ownIdOf(text: string): { present: boolean; value?: unknown } {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { present: false };
	}
	if (
		typeof value !== "object" ||
		value === null ||
		Array.isArray(value) ||
		!Object.prototype.hasOwnProperty.call(value, "id")
	)
		return { present: false };
	return { present: true, value: (value as { id: unknown }).id };
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
	it("parseMessage never throws, and never invents an id: a request keeps its own, an error has its own or null", () => {
		fc.assert(
			fc.property(frame, (sent) => {
				const text = receivedText(sent);
				const parsed = parseMessage(text);
				const ownId = ownIdOf(text);
				if (parsed.kind === "request") expect(Object.is(parsed.message.id, ownId.value)).toBe(true);
				if (parsed.kind === "invalid" && parsed.id !== null)
					expect(Object.is(parsed.id, ownId.value)).toBe(true);
				if (parsed.kind === "notification") expect(ownId.present).toBe(false);
			}),
			{ numRuns: NUM_RUNS },
		);
	});

	it("parses well-formed requests, notifications and responses (built from the specs' definitions) as such", () => {
		fc.assert(
			fc.property(wellFormedRequest, wellFormedNotification, wellFormedResponse, (request, note, response) => {
				const asRequest = parseMessage(request.text);
				expect(asRequest.kind).toBe("request");
				if (asRequest.kind === "request") expect(Object.is(asRequest.message.id, request.id)).toBe(true);
				expect(parseMessage(note).kind).toBe("notification");
				expect(parseMessage(response).kind).toBe("response");
			}),
			{ numRuns: WELL_FORMED_RUNS },
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
	it("never throws, answers any frame at most once with its own id or null, and keeps serving", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 8 }), async (frames) => {
				const sent: string[] = [];
				const session = newSession(sent);
				for (const one of frames) {
					const text = receivedText(one);
					const answers = await answersTo(session, sent, text);
					expect(answers.length).toBeLessThanOrEqual(1);
					answers.forEach(expectWellFormed);
					const ownId = ownIdOf(text);
					// `===`, not Object.is: JSON has no -0, so an id sent as -0 comes back as 0.
					for (const answer of answers) expect(answer.id === null || answer.id === ownId.value).toBe(true);
				}
				expect(
					(await answersTo(session, sent, '{"jsonrpc":"2.0","id":"still serving","method":"ping"}')).map(
						(answer) => answer.id,
					),
				).toEqual(["still serving"]);
				session.dispose();
			}),
			{ numRuns: SESSION_RUNS },
		);
	});

	it("answers each well-formed request exactly once with its id, and no notification or response, among random frames", async () => {
		const mixed = fc.oneof(
			wellFormedRequest.map((request) => ({ text: request.text, answerIds: [idKey(request.id)] })),
			wellFormedNotification.map((text) => ({ text, answerIds: [] as string[] })),
			wellFormedResponse.map((text) => ({ text, answerIds: [] as string[] })),
			frame.map((one) => ({ text: receivedText(one), answerIds: undefined })),
		);
		await fc.assert(
			fc.asyncProperty(fc.array(mixed, { minLength: 1, maxLength: 8 }), async (messages) => {
				const sent: string[] = [];
				const session = newSession(sent);
				for (const message of messages) {
					const answers = await answersTo(session, sent, message.text);
					if (message.answerIds !== undefined)
						expect(answers.map((answer) => idKey(answer.id))).toEqual(message.answerIds);
				}
				session.dispose();
			}),
			{ numRuns: WELL_FORMED_RUNS },
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
