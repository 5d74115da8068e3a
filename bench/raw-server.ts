import { createServer } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { rawDataToText } from "../src/server/connection-manager";
import { LOOPBACK_HOST, MCP_SUBPROTOCOL } from "../src/server/limits";

/** Requests of this method are answered with their own params. */
export const ECHO_METHOD = "echo";

/**
 * The floor: a bare `ws` server on the same loopback that parses each JSON-RPC request and answers it with a
 * canned result (`{}` for ping, or the same result the bridge gave for that method) or, for `echo`, with the
 * request's params; nothing else.
 */
export class RawServer {
	private readonly sockets = new Set<WebSocket>();
	private readonly answers = new Map<string, unknown>();

	private constructor(
		private readonly server: ReturnType<typeof createServer>,
		readonly port: number,
	) {
		const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: () => MCP_SUBPROTOCOL });
		server.on("upgrade", (request, socket, head) => wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws)));
	}

	static start(): Promise<RawServer> {
		const server = createServer();
		return new Promise((resolve) => {
			server.listen(0, LOOPBACK_HOST, () => {
				const address = server.address();
				resolve(new RawServer(server, typeof address === "object" && address ? address.port : 0));
			});
		});
	}

	/** Answers every later `method` request with `result` (stringified per answer, as the bridge does). */
	answer(method: string, result: unknown): void {
		this.answers.set(method, result);
	}

	/** Sends a notification to every connected client. */
	broadcast(method: string, params: object): void {
		const text = JSON.stringify({ jsonrpc: "2.0", method, params });
		for (const ws of this.sockets) ws.send(text);
	}

	async stop(): Promise<void> {
		for (const ws of this.sockets) ws.terminate();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private accept(ws: WebSocket): void {
		this.sockets.add(ws);
		ws.once("close", () => this.sockets.delete(ws));
		ws.on("message", (data) => {
			const request = JSON.parse(rawDataToText(data)) as { id?: unknown; method?: unknown; params?: unknown };
			if (typeof request.id !== "number" && typeof request.id !== "string") return;
			const result = request.method === ECHO_METHOD ? request.params : typeof request.method === "string" ? (this.answers.get(request.method) ?? {}) : {};
			ws.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }));
		});
	}
}
