/**
 * The floor, run as its own process (`node raw-server.cjs`, bundled by scripts/run-bench.mjs): a bare `ws` server on
 * 127.0.0.1 that parses each JSON-RPC request and answers it with bytes prepared in advance — the bridge's own answer
 * to the same request, captured once by the benchmark, with only the request id patched in. It does nothing else.
 *
 * Control lines on stdin (one JSON object per line):
 *   {"can": {"method": "…", "params": …, "answer": "<the bridge's answer text>"}}  → replies "canned"
 *   {"notification": "<text>"}  → keeps a canned notification; replies "kept"
 *   "push" (a bare line)        → sends the kept notification to every client (the raw side of a push), then
 *                                 prints one line, as the headless host prints one after each command
 * It prints `Listening on ws://127.0.0.1:<port>` once ready and stops on "quit" or when stdin ends.
 */
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { describeError } from "../src/shared/describe-error";

const LOOPBACK = "127.0.0.1";
const ANSWER_HEAD = Buffer.from('{"jsonrpc":"2.0","id":');

/** A canned answer: everything after the id, encoded once. */
const answers = new Map<string, Buffer>();
let notificationBytes: Buffer | undefined;
const sockets = new Set<WebSocket>();

function keyOf(method: unknown, params: unknown): string {
	return `${String(method)}\n${params === undefined ? "" : JSON.stringify(params)}`;
}

/** Splits the bridge's answer at its id: the floor sends the same bytes with another id. */
function can(method: string, params: unknown, answer: string): void {
	const parsed = JSON.parse(answer) as { id?: unknown };
	const head = `{"jsonrpc":"2.0","id":${JSON.stringify(parsed.id)}`;
	if (!answer.startsWith(head)) throw new Error(`The answer to ${method} does not start with ${head}`);
	answers.set(keyOf(method, params), Buffer.from(answer.slice(head.length)));
}

function text(data: RawData): string {
	if (Buffer.isBuffer(data)) return data.toString("utf8");
	if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
	return Buffer.from(data).toString("utf8");
}

function answer(ws: WebSocket, data: RawData): void {
	const request = JSON.parse(text(data)) as { id?: unknown; method?: unknown; params?: unknown };
	if (typeof request.id !== "number" && typeof request.id !== "string") return;
	const rest = answers.get(keyOf(request.method, request.params));
	if (!rest) {
		ws.send(
			JSON.stringify({
				jsonrpc: "2.0",
				id: request.id,
				error: { code: -32601, message: `No canned answer for ${String(request.method)}` },
			}),
		);
		return;
	}
	ws.send(Buffer.concat([ANSWER_HEAD, Buffer.from(JSON.stringify(request.id)), rest]), { binary: false });
}

function control(line: string, server: ReturnType<typeof createServer>): void {
	if (line === "push") {
		if (notificationBytes) for (const ws of sockets) ws.send(notificationBytes, { binary: false });
		// The headless host answers each stdin command with a line; so does the floor, so the client reads as much.
		process.stdout.write(
			`Pushed ${notificationBytes?.length ?? 0} bytes to ${sockets.size} clients (the raw floor's canned notification)\n`,
		);
		return;
	}
	if (line === "quit") {
		stop(server);
		return;
	}
	const message = JSON.parse(line) as {
		can?: { method: string; params?: unknown; answer: string };
		notification?: string;
	};
	if (message.can) {
		can(message.can.method, message.can.params, message.can.answer);
		process.stdout.write("canned\n");
	} else if (message.notification !== undefined) {
		notificationBytes = Buffer.from(message.notification);
		process.stdout.write("kept\n");
	}
}

function stop(server: ReturnType<typeof createServer>): void {
	for (const ws of sockets) ws.terminate();
	server.close(() => process.exit(0));
}

function main(): void {
	const server = createServer();
	const wss = new WebSocketServer({
		noServer: true,
		perMessageDeflate: false,
		clientTracking: false,
		handleProtocols: () => "mcp",
	});
	server.on("upgrade", (request, socket, head) =>
		wss.handleUpgrade(request, socket, head, (ws) => {
			sockets.add(ws);
			ws.once("close", () => sockets.delete(ws));
			ws.on("message", (data) => answer(ws, data));
		}),
	);
	server.listen(0, LOOPBACK, () => {
		const address = server.address();
		const port = typeof address === "object" && address ? address.port : 0;
		process.stdout.write(`Listening on ws://${LOOPBACK}:${port}\n`);
		const lines = createInterface({ input: process.stdin, terminal: false });
		lines.on("line", (line) => {
			try {
				control(line, server);
			} catch (error) {
				process.stderr.write(`raw-server: ${describeError(error)}\n`);
			}
		});
		lines.on("close", () => stop(server));
	});
}

main();
