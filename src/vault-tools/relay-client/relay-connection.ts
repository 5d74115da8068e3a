import WebSocket from "ws";
import { JsonRpcError, isJsonObject, type JsonObject } from "../../protocol/json-rpc";
import { rawDataToText } from "../../server/connection-manager";
import { AUTH_HEADER, LOOPBACK_HOST, MAX_OUTGOING_MESSAGE_BYTES, MCP_SUBPROTOCOL } from "../../server/limits";
import type { BridgeEndpoint } from "./bridge-locator";

/** The bridge went away (or could not be reached) before it answered. */
export class RelayClosedError extends Error {
	/** @param sent whether the request had been sent (the bridge may have acted on it) */
	constructor(
		message: string,
		readonly sent: boolean,
	) {
		super(message);
		this.name = "RelayClosedError";
	}
}

interface Pending {
	resolve: (result: unknown) => void;
	reject: (error: Error) => void;
}

/** How long the WebSocket handshake with a bridge may take before the vault counts as having none. */
export const RELAY_CONNECT_TIMEOUT_MS = 5_000;

/**
 * One authenticated WebSocket to a running bridge, connecting as the CLI does (`mcp` subprotocol, the lock file's
 * token in the IDE auth header), used to send requests and read their answers. It never sends `initialize`: the
 * bridge counts initialized sessions as Claude clients (they get selection broadcasts and tags that would
 * otherwise wait in the queue), and the relay methods do not need it.
 */
export class RelayConnection {
	private readonly pending = new Map<number, Pending>();
	private nextId = 1;
	private closedReason: string | undefined;
	private readonly closeListeners = new Set<(reason: string) => void>();

	private constructor(
		private readonly socket: WebSocket,
		readonly endpoint: BridgeEndpoint,
	) {
		socket.on("message", (data: WebSocket.RawData) => this.receive(rawDataToText(data)));
		socket.on("close", (code: number) => this.closed(`the bridge closed the connection (code ${code})`));
		socket.on("error", (error: Error) => this.closed(`the connection to the bridge failed: ${error.message}`));
	}

	static connect(
		endpoint: BridgeEndpoint,
		timeoutMs = endpoint.connectTimeoutMs ?? RELAY_CONNECT_TIMEOUT_MS,
	): Promise<RelayConnection> {
		return new Promise((resolve, reject) => {
			const socket = new WebSocket(`ws://${LOOPBACK_HOST}:${endpoint.port}`, [MCP_SUBPROTOCOL], {
				headers: { [AUTH_HEADER]: endpoint.authToken },
				handshakeTimeout: timeoutMs,
				maxPayload: MAX_OUTGOING_MESSAGE_BYTES,
				perMessageDeflate: false,
			});
			const fail = (message: string): void => {
				socket.removeAllListeners();
				socket.on("error", () => undefined);
				socket.terminate();
				reject(new RelayClosedError(message, false));
			};
			socket.once("open", () => {
				socket.removeAllListeners();
				resolve(new RelayConnection(socket, endpoint));
			});
			socket.once("unexpected-response", (_request, response) =>
				fail(`the bridge on port ${endpoint.port} refused the connection (HTTP ${response.statusCode ?? "?"})`),
			);
			socket.once("error", (error: Error) =>
				fail(`could not connect to the bridge on port ${endpoint.port}: ${error.message}`),
			);
		});
	}

	get isOpen(): boolean {
		return this.closedReason === undefined;
	}

	/** Sends a request; resolves with its result, rejects with a JsonRpcError answer or a RelayClosedError. */
	request(method: string, params: JsonObject, signal?: AbortSignal): Promise<unknown> {
		if (this.closedReason !== undefined) return Promise.reject(new RelayClosedError(this.closedReason, false));
		const id = this.nextId++;
		// The bridge's tool sees the cancellation (a review is withdrawn) and still answers; that answer is awaited.
		const onAbort = (): void =>
			this.sendFrame({
				jsonrpc: "2.0",
				method: "notifications/cancelled",
				params: { requestId: id, reason: "the client cancelled the call" },
			});
		return new Promise((resolve, reject) => {
			const done = (): void => signal?.removeEventListener("abort", onAbort);
			this.pending.set(id, {
				resolve: (value) => {
					done();
					resolve(value);
				},
				reject: (error) => {
					done();
					reject(error);
				},
			});
			this.sendFrame({ jsonrpc: "2.0", id, method, params });
			if (signal?.aborted) onAbort();
			else signal?.addEventListener("abort", onAbort, { once: true });
		});
	}

	onClose(listener: (reason: string) => void): () => void {
		this.closeListeners.add(listener);
		return () => this.closeListeners.delete(listener);
	}

	close(): void {
		this.closed("the relay was closed");
		this.socket.close();
	}

	private sendFrame(message: JsonObject): void {
		if (this.closedReason !== undefined) return;
		this.socket.send(JSON.stringify(message), (error) => {
			if (error) this.closed(`could not send to the bridge: ${error.message}`);
		});
	}

	private receive(text: string): void {
		let message: unknown;
		try {
			message = JSON.parse(text);
		} catch {
			return;
		}
		// Notifications (e.g. tools/list_changed) and requests from the bridge are not for the relay.
		if (!isJsonObject(message) || typeof message.id !== "number" || "method" in message) return;
		const pending = this.pending.get(message.id);
		if (!pending) return;
		this.pending.delete(message.id);
		const error = message.error;
		if (isJsonObject(error)) {
			const code = typeof error.code === "number" ? error.code : -32603;
			pending.reject(
				new JsonRpcError(
					code,
					typeof error.message === "string" ? error.message : "the bridge answered with an error",
				),
			);
		} else {
			pending.resolve(message.result);
		}
	}

	private closed(reason: string): void {
		if (this.closedReason !== undefined) return;
		this.closedReason = reason;
		for (const { reject } of this.pending.values()) reject(new RelayClosedError(reason, true));
		this.pending.clear();
		for (const listener of this.closeListeners) listener(reason);
		this.closeListeners.clear();
	}
}
