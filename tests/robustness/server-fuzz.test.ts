import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { JsonRpcId } from "../../src/protocol/json-rpc";
import { MAX_INCOMING_MESSAGE_BYTES } from "../../src/server/limits";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { frame, idKey, receivedText, wellFormedNotification, wellFormedRequest, type Frame } from "./frames";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const RUNS = 60;
const FRAMES_PER_RUN = 100;

let fixture: AssembledBridge;

// The bridge as the headless host assembles it: every IDE tool (openDiff waits for a person, so random frames
// that call it with valid arguments would wait; they are vanishingly rare, and it is tested elsewhere).
beforeAll(async () => {
	fixture = await startAssembledBridge({
		populate: (vault) => {
			writeFileSync(join(vault, "note.md"), "# Note\n\nSee [[Nowhere]].\n");
			mkdirSync(join(vault, "Folder with spaces"));
			writeFileSync(join(vault, "Folder with spaces", "ünïcode 📝.md"), "text\n");
		},
	});
}, FIXTURE_TIMEOUT_MS);

afterAll(async () => {
	await fixture?.stop();
});

async function open(): Promise<TestClient> {
	return connectOrThrow(fixture.port, { token: fixture.token });
}

function send(client: TestClient, sent: Frame): void {
	if (sent.kind === "text") client.ws.send(sent.text);
	else client.ws.send(sent.bytes, { binary: true });
}

function count(keys: readonly string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
	return counts;
}

/** One message of a run: a random frame, or a well-formed request or notification (built from the specs' definitions). */
interface Sent {
	frame: Frame;
	/** Set for a well-formed request: it must get exactly one answer with this id. */
	requestId?: JsonRpcId;
}

const sentMessage: fc.Arbitrary<Sent> = fc.oneof(
	{ arbitrary: frame.map((one): Sent => ({ frame: one })), weight: 3 },
	{
		arbitrary: wellFormedRequest.map(({ id, text }): Sent => ({ frame: { kind: "text", text }, requestId: id })),
		weight: 1,
	},
	{ arbitrary: wellFormedNotification.map((text): Sent => ({ frame: { kind: "text", text } })), weight: 1 },
);

/** The message's own "id" member, if its text is a JSON object that has one. */
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

/**
 * Sends the messages, then a ping, and waits for the ping's answer and one answer to every well-formed request.
 * Then checks what holds whatever a frame is: every answer is a JSON-RPC response whose id is null or the own id
 * of something sent; no more answers than messages; and each well-formed request whose id nothing else used
 * was answered exactly once.
 */
async function expectAnswersFor(client: TestClient, messages: readonly Sent[], marker: string): Promise<void> {
	// Ids that can come back (strings and numbers), as keys; anything else (arrays 12k deep…) cannot be an answer's id.
	const ownIds = messages
		.map((message) => ownIdOf(receivedText(message.frame)))
		.filter((id) => id.present && (typeof id.value === "string" || typeof id.value === "number"));
	const keyOf = (value: unknown): string => JSON.stringify(value);
	const ownIdCounts = count(ownIds.map((id) => keyOf(id.value)));
	const due = messages
		.filter((message) => message.requestId !== undefined && ownIdCounts.get(keyOf(message.requestId)) === 1)
		.map((message) => idKey(message.requestId ?? null));
	for (const message of messages) send(client, message.frame);
	expect((await client.request("ping", undefined, marker)).result).toEqual({});
	const answered = () => new Set(client.messages.map((answer) => idKey(answer.id)));
	await waitUntil(
		() => due.every((key) => answered().has(key)),
		() =>
			`answers to the well-formed requests ${JSON.stringify(due.filter((key) => !answered().has(key)))} of ${JSON.stringify(messages.filter((m) => m.requestId !== undefined).map((m) => receivedText(m.frame)))}`,
	);
	const answers = client.messages.filter((answer) => answer.id !== marker);
	expect(answers.length).toBeLessThanOrEqual(messages.length);
	const sentIds = new Set(ownIds.map((id) => keyOf(id.value)));
	for (const answer of client.messages) {
		expect(answer.jsonrpc).toBe("2.0");
		expect(answer.result === undefined).toBe(answer.error !== undefined);
		// JSON has no -0: an id sent as -0 comes back as 0.
		if (answer.id !== null && answer.id !== marker)
			expect(sentIds.has(JSON.stringify(answer.id)) || (answer.id === 0 && sentIds.has("0"))).toBe(true);
	}
	const answerCounts = count(answers.map((answer) => idKey(answer.id)));
	for (const key of due) expect([key, answerCounts.get(key)]).toEqual([key, 1]);
}

describe("the live server under random frames", () => {
	it(`answers ${RUNS} runs of up to ${FRAMES_PER_RUN} random frames and well-formed messages: well-formed answers only, each well-formed request exactly once, and still answers ping`, async () => {
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(sentMessage, { minLength: 1, maxLength: FRAMES_PER_RUN }), async (messages) => {
				const client = await open();
				try {
					await expectAnswersFor(client, messages, `end of run ${run++}`);
					expect(client.ws.readyState).toBe(client.ws.OPEN);
				} finally {
					await client.close();
				}
			}),
			{ numRuns: RUNS },
		);
		await waitUntil(() => fixture.bridge.host.status().clients.length === 0, "every session to close");
		const last = await open();
		expect((await last.request("ping")).result).toEqual({});
		await last.close();
	}, 60_000);

	it("answers frames near the 1 MiB cap: padding, a huge method name, a huge id, a huge path", async () => {
		const client = await open();
		const fill = (overhead: string): string => "x".repeat(MAX_INCOMING_MESSAGE_BYTES - Buffer.byteLength(overhead));
		const hugeId = fill('{"jsonrpc":"2.0","id":"","method":"ping"}');
		const frames: Frame[] = [
			{
				kind: "text",
				text: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${fill('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""}}')}"}}`,
			},
			{
				kind: "text",
				text: `{"jsonrpc":"2.0","id":2,"method":"${fill('{"jsonrpc":"2.0","id":2,"method":""}')}"}`,
			},
			{ kind: "text", text: `{"jsonrpc":"2.0","id":"${hugeId}","method":"ping"}` },
			{
				kind: "text",
				text: `{"jsonrpc":"2.0","id":4,"method":"files/read","params":{"path":"${fill('{"jsonrpc":"2.0","id":4,"method":"files/read","params":{"path":""}}')}"}}`,
			},
			{
				kind: "text",
				text: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"getDiagnostics","arguments":{"uri":"file:///${fill('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"getDiagnostics","arguments":{"uri":"file:///"}}}')}"}}}`,
			},
			{
				kind: "binary",
				bytes: Buffer.from(
					`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"${"é".repeat((MAX_INCOMING_MESSAGE_BYTES - 60) / 2)}"}}`,
				),
			},
		];
		for (const one of frames)
			expect(one.kind === "text" ? Buffer.byteLength(one.text) : one.bytes.byteLength).toBeLessThanOrEqual(
				MAX_INCOMING_MESSAGE_BYTES,
			);
		// Each is a request with a valid id: each gets exactly one answer.
		const ids: JsonRpcId[] = [1, 2, hugeId, 4, 5, 6];
		await expectAnswersFor(
			client,
			frames.map((one, index) => ({ frame: one, requestId: ids[index] })),
			"after huge frames",
		);
		expect(client.messages.map((answer) => answer.id)).toEqual(expect.arrayContaining(ids));
		expect(client.messages.find((answer) => answer.id === hugeId)?.result).toEqual({});
		expect(client.messages.find((answer) => answer.id === 2)?.error?.code).toBe(-32601);
		await client.close();
	});

	it("answers 12k-deep nesting in every position without closing the socket", async () => {
		const client = await open();
		const deepArray = "[".repeat(12_000) + "]".repeat(12_000);
		const deepObject = '{"a":'.repeat(12_000) + "1" + "}".repeat(12_000);
		const frames: Frame[] = [
			deepArray,
			deepObject,
			`{"jsonrpc":"2.0","id":${deepArray},"method":"ping"}`,
			`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${deepObject}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"openFile","arguments":{"filePath":"note.md","startLine":${deepArray}}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":${deepObject}}}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deepArray}}}`,
			`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":${deepObject},"capabilities":${deepArray}}}`,
		].map((text): Frame => ({ kind: "text", text }));
		// Requests with ids 1-4 are each answered once; the three frames without a valid id get one error with id null each.
		const requestIds: (JsonRpcId | undefined)[] = [undefined, undefined, undefined, 1, 2, 3, undefined, 4];
		await expectAnswersFor(
			client,
			frames.map((one, index) => ({ frame: one, requestId: requestIds[index] })),
			"after deep frames",
		);
		expect(client.messages.filter((answer) => answer.id === null).map((answer) => answer.error?.code)).toHaveLength(
			3,
		);
		expect(client.ws.readyState).toBe(client.ws.OPEN);
		await client.close();
	});

	it("closes only the socket that sends a text frame of invalid UTF-8 (1007); others keep being answered", async () => {
		const victim = await open();
		const bystander = await open();
		victim.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
		expect((await victim.closed).code).toBe(1007);
		expect((await bystander.request("ping")).result).toEqual({});
		await bystander.close();
		await waitUntil(() => fixture.bridge.host.status().clients.length === 0, "every session to close");
	});
});
