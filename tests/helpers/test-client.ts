import WebSocket from "ws";
import { rawDataToText } from "../../src/server/connection-manager";
import { WAIT_TIMEOUT_MS } from "./fixture-timeout";

export interface ConnectOptions {
	token?: string;
	origin?: string;
	host?: string;
	protocols?: string[];
	/** false: the client does not answer WebSocket pings (a half-dead peer). */
	autoPong?: boolean;
}

export type ConnectOutcome = { kind: "open"; client: TestClient } | { kind: "refused"; status: number; body: string };

export interface JsonRpcAnswer {
	jsonrpc: string;
	id: string | number | null;
	result?: unknown;
	error?: { code: number; message: string; data?: unknown };
}

export interface ReceivedNotification {
	method: string;
	params?: Record<string, unknown>;
	receivedAt: number;
}

/** Opens a WebSocket to the bridge the way the CLI does (subprotocol mcp, token header) unless told otherwise. */
export function connect(port: number, options: ConnectOptions = {}): Promise<ConnectOutcome> {
	const headers: Record<string, string> = {};
	if (options.token !== undefined) headers["X-Claude-Code-Ide-Authorization"] = options.token;
	if (options.origin !== undefined) headers.Origin = options.origin;
	if (options.host !== undefined) headers.Host = options.host;
	const ws = new WebSocket(`ws://127.0.0.1:${port}`, options.protocols ?? ["mcp"], {
		headers,
		autoPong: options.autoPong ?? true,
		perMessageDeflate: false,
	});
	return new Promise((resolve, reject) => {
		ws.once("open", () => resolve({ kind: "open", client: new TestClient(ws) }));
		ws.once("unexpected-response", (_request, response) => {
			let body = "";
			response.setEncoding("utf8");
			response.on("data", (chunk: string) => (body += chunk));
			response.on("end", () => resolve({ kind: "refused", status: response.statusCode ?? 0, body }));
			response.on("error", () => resolve({ kind: "refused", status: response.statusCode ?? 0, body }));
		});
		ws.once("error", (error) => reject(error));
	});
}

export async function connectOrThrow(port: number, options: ConnectOptions): Promise<TestClient> {
	const outcome = await connect(port, options);
	if (outcome.kind !== "open") throw new Error(`Connection refused: ${outcome.status} ${outcome.body}`);
	return outcome.client;
}

/** A raw JSON-RPC client over ws that records every message it receives. */
export class TestClient {
	readonly messages: JsonRpcAnswer[] = [];
	readonly notifications: ReceivedNotification[] = [];
	readonly closed: Promise<{ code: number; reason: string }>;
	private nextId = 1;
	private readonly waiters = new Set<() => void>();

	constructor(readonly ws: WebSocket) {
		ws.on("message", (data: WebSocket.RawData) => {
			const parsed = JSON.parse(rawDataToText(data)) as Record<string, unknown>;
			if (typeof parsed.method === "string" && !("id" in parsed)) {
				this.notifications.push({
					method: parsed.method,
					params: parsed.params as Record<string, unknown> | undefined,
					receivedAt: Date.now(),
				});
			} else {
				this.messages.push(parsed as unknown as JsonRpcAnswer);
			}
			for (const waiter of this.waiters) waiter();
		});
		this.closed = new Promise((resolve) =>
			ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
		);
	}

	get protocol(): string {
		return this.ws.protocol;
	}

	sendRaw(text: string | Buffer): void {
		this.ws.send(text);
	}

	send(message: unknown): void {
		this.ws.send(JSON.stringify(message));
	}

	async request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<JsonRpcAnswer> {
		this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
		return this.waitForAnswer(id);
	}

	notify(method: string, params?: unknown): void {
		this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
	}

	async initialize(protocolVersion = "2025-11-25"): Promise<JsonRpcAnswer> {
		const answer = await this.request("initialize", {
			protocolVersion,
			capabilities: {},
			clientInfo: { name: "test-client", version: "1.0.0" },
		});
		this.notify("notifications/initialized");
		return answer;
	}

	waitForAnswer(id: string | number | null, timeoutMs = WAIT_TIMEOUT_MS): Promise<JsonRpcAnswer> {
		return this.waitFor(
			() => this.messages.find((message) => message.id === id),
			`an answer to id ${String(id)}`,
			timeoutMs,
		);
	}

	waitForNotification(method: string, timeoutMs = WAIT_TIMEOUT_MS, after = 0): Promise<ReceivedNotification> {
		return this.waitFor(
			() => this.notifications.slice(after).find((n) => n.method === method),
			`a ${method} notification`,
			timeoutMs,
		);
	}

	waitFor<T>(find: () => T | undefined, what: string, timeoutMs = WAIT_TIMEOUT_MS): Promise<T> {
		return new Promise((resolve, reject) => {
			const check = (): boolean => {
				const found = find();
				if (found === undefined) return false;
				cleanup();
				resolve(found);
				return true;
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				this.waiters.delete(waiter);
			};
			const waiter = () => void check();
			if (!check()) this.waiters.add(waiter);
		});
	}

	async close(): Promise<void> {
		if (this.ws.readyState === WebSocket.CLOSED) return;
		this.ws.close();
		await this.closed;
	}
}
