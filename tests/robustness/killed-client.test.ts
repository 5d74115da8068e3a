import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PendingReviews } from "../../src/review/pending-reviews";
import { DiffReviewTools } from "../../src/ide/tools/diff-review-tools";
import { VaultPaths } from "../../src/vault/vault-paths";
import type { MethodHandler } from "../../src/protocol/mcp-session";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { FakeReviewPort } from "../review/fake-review-port";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** A client that dies with requests in flight (socket destroyed, or its process SIGKILLed) leaves nothing behind. */
let bridge: BridgeFixture;
let port: FakeReviewPort;
let reviews: PendingReviews;
/** Lets a test hold `openDiff` inside its read of the note, to kill the client at that moment. */
let readGate: Promise<void> | undefined;
let readsStarted = 0;
const slowCalls: { signal: AbortSignal; settled: boolean }[] = [];
const clients: TestClient[] = [];

const methods = new Map<string, MethodHandler>([
	[
		"test/slow",
		(_params, context) => {
			const call = { signal: context.signal, settled: false };
			slowCalls.push(call);
			return new Promise((resolveCall) =>
				context.signal.addEventListener("abort", () => {
					call.settled = true;
					resolveCall({ aborted: true });
				}),
			);
		},
	],
]);

beforeEach(async () => {
	const registry = new ToolRegistry();
	bridge = await startBridge({ tools: registry, methods });
	writeFileSync(join(bridge.vault, "note.md"), "# Note\n\nOld words.\n");
	port = new FakeReviewPort();
	readGate = undefined;
	readsStarted = 0;
	slowCalls.length = 0;
	const paths = new VaultPaths(bridge.vault);
	reviews = new PendingReviews({ paths, port });
	new DiffReviewTools(registry, {
		paths,
		reviews,
		readText: async () => {
			readsStarted++;
			await readGate;
			return "# Note\n\nOld words.\n";
		},
	}).setEnabled(true);
}, FIXTURE_TIMEOUT_MS);

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	reviews?.dispose();
	await bridge?.stop();
});

async function client(): Promise<TestClient> {
	const opened = await connectOrThrow(bridge.port, { token: bridge.token });
	clients.push(opened);
	await opened.initialize();
	return opened;
}

function openDiff(c: TestClient, id: number, tabName: string): void {
	const path = join(bridge.vault, "note.md");
	c.send({
		jsonrpc: "2.0",
		id,
		method: "tools/call",
		params: {
			name: "openDiff",
			arguments: { old_file_path: path, new_file_path: path, new_file_contents: "new", tab_name: tabName },
		},
	});
}

const noClients = (): boolean => bridge.host.status().clients.length === 0;

describe("a client killed mid-request", () => {
	it("destroyed while openDiff is pending: its review is rejected and closed, the other client's stays", async () => {
		const doomed = await client();
		const other = await client();
		openDiff(doomed, 10, "doomed tab");
		openDiff(other, 11, "other tab");
		await waitUntil(() => port.views.size === 2, "both reviews to show");
		doomed.ws.terminate();
		await waitUntil(() => reviews.list().length === 1, "the doomed review to go");
		expect(reviews.list().map((review) => review.title)).toEqual(["other tab"]);
		expect(port.closed).toEqual(["doomed tab"]);
		expect(bridge.host.status().clients.map((c) => c.id)).toEqual([2]);
		// The survivor is still served and its review can still be decided.
		expect(reviews.accept("other tab")).toEqual({ kind: "accepted" });
		expect(((await other.waitForAnswer(11)).result as { content: { text: string }[] }).content[0]?.text).toBe(
			"FILE_SAVED",
		);
	});

	it("destroyed while openDiff is still reading the note: no review is ever shown or left pending", async () => {
		let release = (): void => undefined;
		readGate = new Promise((resolveGate) => (release = resolveGate));
		const doomed = await client();
		openDiff(doomed, 20, "racing tab");
		await waitUntil(() => readsStarted === 1, "openDiff to start reading the note");
		doomed.ws.terminate();
		await waitUntil(noClients, "the session to close");
		release();
		// What openDiff does after its read is synchronous, so it is over before the next turn of the event loop.
		await new Promise((resolveTurn) => setImmediate(resolveTurn));
		expect(reviews.list()).toEqual([]);
		expect(port.views.size).toBe(0);
	});

	it("destroyed during a slow request: the handler is aborted and the session is gone", async () => {
		const doomed = await client();
		doomed.send({ jsonrpc: "2.0", id: 30, method: "test/slow" });
		doomed.send({ jsonrpc: "2.0", id: 31, method: "test/slow" });
		await waitUntil(() => slowCalls.length === 2, "both calls to start");
		doomed.ws.terminate();
		await waitUntil(noClients, "the session to close");
		expect(slowCalls.map((call) => [call.signal.aborted, call.settled])).toEqual([
			[true, true],
			[true, true],
		]);
		expect(doomed.messages.filter((message) => message.id === 30 || message.id === 31)).toEqual([]);
	});

	it("whose process is SIGKILLed with an openDiff pending: the review is rejected and no client is listed", async () => {
		const script = `
			const WebSocket = require("ws");
			const ws = new WebSocket("ws://127.0.0.1:" + process.env.BRIDGE_PORT, ["mcp"], { headers: { "X-Claude-Code-Ide-Authorization": process.env.BRIDGE_TOKEN } });
			ws.on("open", () => {
				ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "doomed" } } }));
				ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "openDiff", arguments: { old_file_path: "note.md", new_file_path: "note.md", new_file_contents: "x", tab_name: "killed tab" } } }));
			});
			setInterval(() => undefined, 1000);
		`;
		const child = spawn(process.execPath, ["-e", script], {
			cwd: resolve(__dirname, "../.."),
			env: { PATH: process.env.PATH ?? "", BRIDGE_PORT: String(bridge.port), BRIDGE_TOKEN: bridge.token },
			stdio: "ignore",
		});
		const exited = new Promise<NodeJS.Signals | null>((resolveExit) =>
			child.once("exit", (_code, signal) => resolveExit(signal)),
		);
		try {
			await waitUntil(() => port.views.has("killed tab"), "the review to show");
			expect(bridge.host.status().clients).toMatchObject([{ clientName: "doomed" }]);
		} finally {
			child.kill("SIGKILL");
		}
		expect(await exited).toBe("SIGKILL");
		await waitUntil(noClients, "the session to close");
		await waitUntil(() => reviews.list().length === 0, "the review to go");
		expect(port.closed).toEqual(["killed tab"]);
	});
});
