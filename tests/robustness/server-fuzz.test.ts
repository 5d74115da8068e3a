import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { DiagnosticsEngine } from "../../src/bridge/diagnostics/diagnostics-engine";
import { FileSystemNoteSource } from "../../src/bridge/diagnostics/filesystem-note-source";
import { createGetDiagnosticsTool } from "../../src/bridge/tools/get-diagnostics";
import { createWorkspaceTools } from "../../src/bridge/tools/workspace-tools";
import { HeadlessWorkspace } from "../../src/headless/headless-workspace";
import { parseYaml } from "../../src/headless/yaml-parser";
import { MAX_INCOMING_MESSAGE_BYTES } from "../../src/server/limits";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { expectedAnswer, frame, idKey, receivedText, type Frame } from "./frames";

const RUNS = 60;
const FRAMES_PER_RUN = 100;

let fixture: AssembledBridge;
let source: FileSystemNoteSource;

beforeAll(async () => {
	fixture = await startAssembledBridge({
		populate: (vault) => {
			writeFileSync(join(vault, "note.md"), "# Note\n\nSee [[Nowhere]].\n");
			mkdirSync(join(vault, "Folder with spaces"));
			writeFileSync(join(vault, "Folder with spaces", "ünïcode 📝.md"), "text\n");
		},
	});
	// The IDE tools a CLI can call without a person in the loop (openDiff waits for one, so it is tested elsewhere).
	const { paths, tools } = fixture.bridge;
	source = new FileSystemNoteSource({ root: paths.root, parseYaml });
	tools.register(createGetDiagnosticsTool({ diagnostics: new DiagnosticsEngine(source), paths }));
	const workspace = new HeadlessWorkspace(paths, fixture.editor);
	for (const tool of createWorkspaceTools({ paths, workspace, vaultName: "fuzz", latestSelection: () => fixture.bridge.notifier.latestSelection })) tools.register(tool);
});

afterAll(async () => {
	source.dispose();
	await fixture.stop();
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

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

/** Sends the frames, then a ping, and checks that exactly the expected answers arrived, each id as often as it was due. */
async function expectAnswersFor(client: TestClient, frames: readonly Frame[], marker: string): Promise<void> {
	const due: string[] = [];
	for (const one of frames) {
		const expected = expectedAnswer(receivedText(one));
		if (expected.answered) due.push(idKey(expected.id));
		send(client, one);
	}
	expect((await client.request("ping", undefined, marker)).result).toEqual({});
	due.push(idKey(marker));
	await waitUntil(() => client.messages.length >= due.length, `${due.length} answers (have ${client.messages.length})`);
	// Anything extra would have arrived by now: answers are written as soon as each handler settles.
	await new Promise((resolve) => setTimeout(resolve, 20));
	expect(count(client.messages.map((answer) => idKey(answer.id)))).toEqual(count(due));
	for (const answer of client.messages) {
		expect(answer.jsonrpc).toBe("2.0");
		expect(answer.result === undefined).toBe(answer.error !== undefined);
	}
}

describe("the live server under random frames", () => {
	it(`answers each of ${RUNS} × up to ${FRAMES_PER_RUN} random frames as JSON-RPC requires, and still answers ping`, async () => {
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: FRAMES_PER_RUN }), async (frames) => {
				const client = await open();
				try {
					await expectAnswersFor(client, frames, `end of run ${run++}`);
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
	});

	it("answers frames near the 1 MiB cap: padding, a huge method name, a huge id, a huge path", async () => {
		const client = await open();
		const fill = (overhead: string): string => "x".repeat(MAX_INCOMING_MESSAGE_BYTES - Buffer.byteLength(overhead));
		const hugeId = fill('{"jsonrpc":"2.0","id":"","method":"ping"}');
		const frames: Frame[] = [
			{ kind: "text", text: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${fill('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""}}')}"}}` },
			{ kind: "text", text: `{"jsonrpc":"2.0","id":2,"method":"${fill('{"jsonrpc":"2.0","id":2,"method":""}')}"}` },
			{ kind: "text", text: `{"jsonrpc":"2.0","id":"${hugeId}","method":"ping"}` },
			{ kind: "text", text: `{"jsonrpc":"2.0","id":4,"method":"files/read","params":{"path":"${fill('{"jsonrpc":"2.0","id":4,"method":"files/read","params":{"path":""}}')}"}}` },
			{ kind: "text", text: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"getDiagnostics","arguments":{"uri":"file:///${fill('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"getDiagnostics","arguments":{"uri":"file:///"}}}')}"}}}` },
			{ kind: "binary", bytes: Buffer.from(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"${"é".repeat((MAX_INCOMING_MESSAGE_BYTES - 60) / 2)}"}}`) },
		];
		for (const one of frames) expect(one.kind === "text" ? Buffer.byteLength(one.text) : one.bytes.byteLength).toBeLessThanOrEqual(MAX_INCOMING_MESSAGE_BYTES);
		await expectAnswersFor(client, frames, "after huge frames");
		expect(client.messages.find((answer) => answer.id === hugeId)?.result).toEqual({});
		expect(client.messages.find((answer) => answer.id === 2)?.error?.code).toBe(-32601);
		await client.close();
	});

	it("answers 12k-deep nesting in every position without closing the socket", async () => {
		const client = await open();
		const deepArray = "[".repeat(12_000) + "]".repeat(12_000);
		const deepObject = '{"a":'.repeat(12_000) + "1" + "}".repeat(12_000);
		const frames: Frame[] = [deepArray, deepObject, `{"jsonrpc":"2.0","id":${deepArray},"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${deepObject}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"openFile","arguments":{"filePath":"note.md","startLine":${deepArray}}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":${deepObject}}}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deepArray}}}`,
			`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":${deepObject},"capabilities":${deepArray}}}`,
		].map((text): Frame => ({ kind: "text", text }));
		await expectAnswersFor(client, frames, "after deep frames");
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
