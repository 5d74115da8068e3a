import WebSocket from "ws";
import { rawDataToText } from "../src/server/connection-manager";
import { AUTH_HEADER, MCP_SUBPROTOCOL } from "../src/server/limits";

export interface RpcAnswer {
	id: number;
	result?: unknown;
	error?: { code: number; message: string };
}

/** A notification's params and the text it came in. */
type Listener = (params: unknown, text: string) => void;

/** The error code of the answer a pending request gets when its connection closes (not a JSON-RPC code). */
export const CONNECTION_CLOSED = 0;

/**
 * A lean JSON-RPC client over `ws`, used the same way against the raw floor and the bridge: it connects like the
 * CLI (subprotocol `mcp`, token header), keeps only pending requests, and never stores traffic.
 */
export class RpcClient {
	private nextId = 1;
	private readonly pending = new Map<number, (answer: RpcAnswer, text: string) => void>();
	private readonly listeners = new Map<string, Set<Listener>>();
	private readonly closed: Promise<void>;

	private constructor(private readonly ws: WebSocket) {
		ws.on("message", (data: WebSocket.RawData) => this.receive(rawDataToText(data)));
		this.closed = new Promise((resolve) =>
			ws.once("close", () => {
				for (const [id, answer] of this.pending)
					answer({ id, error: { code: CONNECTION_CLOSED, message: "The connection closed" } }, "");
				this.pending.clear();
				resolve();
			}),
		);
	}

	static connect(port: number, token: string): Promise<RpcClient> {
		const ws = new WebSocket(`ws://127.0.0.1:${port}`, [MCP_SUBPROTOCOL], {
			headers: { [AUTH_HEADER]: token },
			perMessageDeflate: false,
		});
		return new Promise((resolve, reject) => {
			ws.once("open", () => resolve(new RpcClient(ws)));
			ws.once("error", reject);
		});
	}

	/** Sends a request and resolves with its answer, error answers included. */
	request(method: string, params?: object): Promise<RpcAnswer> {
		const id = this.nextId++;
		const answered = new Promise<RpcAnswer>((resolve) => this.pending.set(id, resolve));
		this.ws.send(
			JSON.stringify(
				params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
			),
		);
		return answered;
	}

	/** Sends a request and resolves with the answer's text exactly as it arrived (to can it for the floor). */
	requestText(method: string, params?: object): Promise<string> {
		const id = this.nextId++;
		const answered = new Promise<string>((resolve) => this.pending.set(id, (_answer, text) => resolve(text)));
		this.ws.send(
			JSON.stringify(
				params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
			),
		);
		return answered;
	}

	/** Sends a request and resolves with its result; an error answer rejects. */
	async call(method: string, params?: object): Promise<unknown> {
		const answer = await this.request(method, params);
		if (answer.error) throw new Error(`${method} failed: ${answer.error.code} ${answer.error.message}`);
		return answer.result;
	}

	notify(method: string, params?: object): void {
		this.ws.send(
			JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }),
		);
	}

	/** Calls `listener` for every notification of `method`; the returned function stops it. */
	onNotification(method: string, listener: Listener): () => void {
		const set = this.listeners.get(method) ?? new Set<Listener>();
		set.add(listener);
		this.listeners.set(method, set);
		return () => set.delete(listener);
	}

	/** Resolves when the next notification of `method` arrives. */
	nextNotification(method: string): Promise<unknown> {
		return new Promise((resolve) => {
			const stop = this.onNotification(method, (params) => {
				stop();
				resolve(params);
			});
		});
	}

	/** Resolves with the text of the next notification of `method`. */
	nextNotificationText(method: string): Promise<string> {
		return new Promise((resolve) => {
			const stop = this.onNotification(method, (_params, text) => {
				stop();
				resolve(text);
			});
		});
	}

	/** initialize + notifications/initialized, as the CLI does first. */
	async initialize(): Promise<void> {
		await this.call("initialize", {
			protocolVersion: "2025-11-25",
			capabilities: {},
			clientInfo: { name: "bench", version: "1.0.0" },
		});
		this.notify("notifications/initialized");
	}

	async close(): Promise<void> {
		if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
		await this.closed;
	}

	private receive(text: string): void {
		const message = JSON.parse(text) as { id?: unknown; method?: unknown; params?: unknown };
		if (typeof message.id === "number") {
			const resolve = this.pending.get(message.id);
			this.pending.delete(message.id);
			resolve?.(message as RpcAnswer, text);
		} else if (typeof message.method === "string") {
			for (const listener of this.listeners.get(message.method) ?? []) listener(message.params, text);
		}
	}
}
