import {
	ErrorCode,
	JsonRpcError,
	errorResponse,
	isJsonObject,
	notification,
	parseMessage,
	successResponse,
	type JsonObject,
	type JsonRpcErrorObject,
	type JsonRpcId,
	type JsonRpcOutgoing,
	type JsonRpcRequest,
} from "./json-rpc";
import { EncodedJson } from "./encoded-json";
import {
	LATEST_PROTOCOL_VERSION,
	SUPPORTED_PROTOCOL_VERSIONS,
	type ClientInfo,
	type ServerInfo,
	type ToolResult,
} from "./mcp-types";
import type { ObservedOutcome, ObservedSession, RequestObservation, RequestObserver } from "./request-observer";
import type { ToolRegistry } from "./tool-registry";
import { describeError } from "../shared/describe-error";

export interface RequestContext {
	sessionId: number;
	signal: AbortSignal;
	/** The request's id in the activity journal, when an observer follows it (writes name it). */
	journalId?: string;
}

/** A JSON-RPC method beyond the MCP lifecycle, e.g. `files/read`. Throw JsonRpcError for a specific code. */
export type MethodHandler = (params: JsonObject, context: RequestContext) => unknown;

export interface TraceEvent {
	sessionId: number;
	direction: "in" | "out";
	kind: "request" | "notification" | "response" | "invalid";
	method?: string;
	id?: JsonRpcId | null;
	errorCode?: number;
}

export interface SessionEvents {
	onInitialize?: (client: ClientInfo, protocolVersion: string) => void;
	onIdeConnected?: (pid: number) => void;
	onTrace?: (event: TraceEvent) => void;
	onLog?: (message: string) => void;
}

export interface McpSessionOptions {
	id: number;
	/** Writes one text message to the socket. */
	send: (text: string) => void;
	/**
	 * Writes one text message given as its UTF-8 bytes (a WebSocket text frame). Without it, an answer a handler
	 * returned already encoded (`EncodedJson`) is decoded and given to `send`.
	 */
	sendBytes?: (utf8: Buffer) => void;
	serverInfo: ServerInfo;
	tools: ToolRegistry;
	methods?: ReadonlyMap<string, MethodHandler>;
	/** Extra capabilities to advertise beside `tools`, e.g. `resources`. */
	capabilities?: JsonObject;
	/** MCP `instructions` in the `initialize` answer: how and when the client's model should use this server. */
	instructions?: string;
	/** A response bigger than this becomes an error; a bigger notification is dropped. */
	maxOutgoingBytes: number;
	events?: SessionEvents;
	/** Sees each request and its answer (the activity journal). */
	observer?: RequestObserver;
}

type Resolution = { result: unknown } | { error: JsonRpcError };

/** One client connection's MCP state: lifecycle, dispatch, answers and notifications. */
export class McpSession {
	readonly id: number;
	private initialized = false;
	private client: ClientInfo | undefined;
	private pid: number | undefined;
	/** Who makes this session's requests, as observers see it: made again when the client or pid becomes known. */
	private observed: ObservedSession | undefined;
	private disposed = false;
	private readonly inFlight = new Map<JsonRpcId, Cancellation>();
	private readonly builtins: ReadonlyMap<string, MethodHandler>;
	private readonly stopWatchingTools: () => void;

	constructor(private readonly options: McpSessionOptions) {
		this.id = options.id;
		this.builtins = new Map<string, MethodHandler>([
			["initialize", (params) => this.initialize(params)],
			["ping", () => ({})],
			["tools/list", () => this.listTools()],
			["tools/call", (params, context) => this.callTool(params, context)],
		]);
		this.stopWatchingTools = options.tools.onChange(() => {
			if (this.initialized) this.notify("notifications/tools/list_changed");
		});
	}

	/** True once `initialize` has been answered. */
	get isInitialized(): boolean {
		return this.initialized;
	}

	/**
	 * Handles one incoming text message. Never throws; every request gets exactly one answer. The promise settles
	 * once the answer is written: at once for synchronous handlers (ping, most lifecycle methods), so they cost no
	 * promise hops.
	 */
	handleMessage(text: string): Promise<void> {
		const incoming = parseMessage(text);
		switch (incoming.kind) {
			case "invalid":
				if (this.tracing)
					this.trace({ direction: "in", kind: "invalid", id: incoming.id, errorCode: incoming.error.code });
				this.write(errorResponse(incoming.id, incoming.error));
				return DONE;
			case "response":
				if (this.tracing) this.trace({ direction: "in", kind: "response", id: incoming.id });
				return DONE;
			case "notification":
				if (this.tracing)
					this.trace({ direction: "in", kind: "notification", method: incoming.message.method });
				this.handleNotification(incoming.message.method, incoming.message.params);
				return DONE;
			case "request":
				if (this.tracing)
					this.trace({
						direction: "in",
						kind: "request",
						method: incoming.message.method,
						id: incoming.message.id,
					});
				return this.handleRequest(incoming.message);
		}
	}

	/** Sends a notification to this client. */
	notify(method: string, params?: JsonObject): void {
		this.write(notification(method, params));
	}

	/**
	 * Sends a notification already encoded as JSON text (undefined: it could not be encoded), e.g. once for every
	 * client of a broadcast, or by a faster encoder of the same bytes. Checked against the size limit like any other.
	 */
	notifyEncoded(method: string, text: string | undefined): void {
		this.writeText(notification(method), text, false);
	}

	/** The socket closed: abort what is still running; later answers are dropped. */
	dispose(): void {
		this.disposed = true;
		this.stopWatchingTools();
		for (const cancellation of this.inFlight.values()) cancellation.abort();
		this.inFlight.clear();
	}

	private handleRequest(request: JsonRpcRequest): Promise<void> {
		const handler = this.builtins.get(request.method) ?? this.options.methods?.get(request.method);
		if (!handler) {
			this.write(
				errorResponse(request.id, {
					code: ErrorCode.MethodNotFound,
					message: `Method not found: ${request.method}`,
				}),
			);
			return DONE;
		}
		if (request.params !== undefined && !isJsonObject(request.params)) {
			this.write(
				errorResponse(request.id, {
					code: ErrorCode.InvalidParams,
					message: `Invalid params for ${request.method}: expected an object`,
				}),
			);
			return DONE;
		}
		const params = request.params ?? {};
		const observation = this.observe(request.method, params);
		const cancellation = new Cancellation(this.id, observation?.id);
		let outcome: unknown;
		let pending: boolean;
		try {
			outcome = handler(params, cancellation);
			pending = isPromiseLike(outcome);
		} catch (error) {
			this.answer(request.id, this.failure(error), observation);
			return DONE;
		}
		if (!pending) {
			this.answer(request.id, { result: outcome }, observation);
			return DONE;
		}
		// Only a request still running can be cancelled (notifications/cancelled) or aborted by dispose().
		this.inFlight.set(request.id, cancellation);
		return Promise.resolve(outcome).then(
			(result: unknown) => this.settle(request.id, cancellation, { result }, observation),
			(error: unknown) => this.settle(request.id, cancellation, this.failure(error), observation),
		);
	}

	private settle(
		id: JsonRpcId,
		cancellation: Cancellation,
		resolution: Resolution,
		observation: RequestObservation | undefined,
	): void {
		if (this.inFlight.get(id) === cancellation) this.inFlight.delete(id);
		this.answer(id, resolution, observation);
	}

	private answer(id: JsonRpcId, resolution: Resolution, observation?: RequestObservation): void {
		let bytes = 0;
		if (this.disposed) {
			// The client is gone: nothing is written, but what the request did still happened.
		} else if ("error" in resolution) {
			bytes = this.write(errorResponse(id, resolution.error.toObject()), observation !== undefined);
		} else if (resolution.result instanceof EncodedJson) {
			bytes = this.writeEncoded(id, resolution.result);
		} else {
			bytes = this.write(successResponse(id, resolution.result), observation !== undefined);
		}
		if (observation) {
			const outcome: ObservedOutcome =
				"error" in resolution
					? { kind: "error", code: resolution.error.code, message: resolution.error.message, bytes }
					: {
							kind: "result",
							result: resolution.result instanceof EncodedJson ? undefined : resolution.result,
							bytes,
						};
			this.safely(() => observation.finished(outcome));
		}
	}

	/** The observer's hold on a request; undefined without an observer, or when it does not follow this one. */
	private observe(method: string, params: JsonObject): RequestObservation | undefined {
		const observer = this.options.observer;
		if (!observer) return undefined;
		let observation: RequestObservation | undefined;
		this.safely(() => {
			const session = (this.observed ??= {
				id: this.id,
				...(this.client ? { client: this.client } : {}),
				...(this.pid !== undefined ? { pid: this.pid } : {}),
			});
			observation = observer.started({ method, params, session });
		});
		return observation;
	}

	private failure(error: unknown): Resolution {
		if (error instanceof JsonRpcError) return { error };
		this.log(`Handler failed: ${describeError(error)}`);
		return { error: new JsonRpcError(ErrorCode.InternalError, `Internal error: ${describeError(error)}`) };
	}

	private handleNotification(method: string, params: unknown): void {
		switch (method) {
			case "ide_connected": {
				const pid = isJsonObject(params) ? params.pid : undefined;
				if (typeof pid === "number" && Number.isSafeInteger(pid) && pid > 0) {
					this.pid = pid;
					this.observed = undefined;
					this.safely(() => this.options.events?.onIdeConnected?.(pid));
				}
				return;
			}
			case "notifications/cancelled": {
				const requestId = isJsonObject(params) ? params.requestId : undefined;
				if (typeof requestId === "string" || typeof requestId === "number")
					this.inFlight.get(requestId)?.abort();
				return;
			}
			default:
				// notifications/initialized, roots/list_changed and anything unknown: nothing to do.
				return;
		}
	}

	private initialize(params: JsonObject): JsonObject {
		if (this.initialized)
			throw new JsonRpcError(ErrorCode.InvalidRequest, "Invalid request: the session is already initialized");
		const requested = params.protocolVersion;
		if (typeof requested !== "string") {
			throw new JsonRpcError(
				ErrorCode.InvalidParams,
				'Invalid params for initialize: "protocolVersion" must be a string',
			);
		}
		const supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
		const protocolVersion = supported.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
		this.initialized = true;
		const client = readClientInfo(params.clientInfo);
		this.client = client;
		this.observed = undefined;
		this.safely(() => this.options.events?.onInitialize?.(client, protocolVersion));
		return {
			protocolVersion,
			capabilities: { tools: { listChanged: true }, ...this.options.capabilities },
			serverInfo: this.options.serverInfo,
			...(this.options.instructions !== undefined ? { instructions: this.options.instructions } : {}),
		};
	}

	private listTools(): JsonObject {
		return {
			tools: this.options.tools.list().map((tool) => ({
				name: tool.name,
				description: tool.description,
				inputSchema: tool.inputSchema,
				...(tool.annotations ? { annotations: tool.annotations } : {}),
			})),
		};
	}

	/** Checks the call and starts the tool; a tool that throws or rejects becomes an `isError` result. */
	private callTool(params: JsonObject, context: RequestContext): Promise<ToolResult> {
		const name = params.name;
		if (typeof name !== "string")
			throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params for tools/call: "name" must be a string');
		const args = params.arguments ?? {};
		if (!isJsonObject(args))
			throw new JsonRpcError(
				ErrorCode.InvalidParams,
				'Invalid params for tools/call: "arguments" must be an object',
			);
		const tool = this.options.tools.find(name);
		if (!tool) {
			const known = this.options.tools.list().map((t) => t.name);
			const hint = known.length > 0 ? `; available tools: ${known.join(", ")}` : "; this server lists no tools";
			throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}${hint}`);
		}
		const failed = (error: unknown): ToolResult => {
			this.log(`Tool ${name} failed: ${describeError(error)}`);
			return { content: [{ type: "text", text: `${name} failed: ${describeError(error)}` }], isError: true };
		};
		try {
			return Promise.resolve(tool.call(args, context)).then(undefined, failed);
		} catch (error) {
			return Promise.resolve(failed(error));
		}
	}

	/** Writes a message; with `measure`, returns its size in UTF-8 bytes (0 when nothing was written). */
	private write(message: JsonRpcOutgoing, measure = false): number {
		return this.writeText(message, encode(message), measure);
	}

	/** Writes a message encoded as `encoded` (undefined: it could not be encoded). */
	private writeText(message: JsonRpcOutgoing, encoded: string | undefined, measure: boolean): number {
		if (this.disposed) return 0;
		const limit = this.options.maxOutgoingBytes;
		let text = encoded;
		if (text === undefined) {
			// A handler returned something JSON cannot hold (a cycle, a BigInt, nesting deeper than the stack).
			if ("method" in message) {
				this.log(`Dropped an outgoing ${message.method} that cannot be encoded as JSON`);
				return 0;
			}
			this.log(`A result for id ${String(message.id)} cannot be encoded as JSON`);
			text = JSON.stringify(
				errorResponse(message.id, {
					code: ErrorCode.InternalError,
					message: "Internal error: the result cannot be encoded as JSON",
				}),
			);
		}
		// A UTF-16 code unit is at most 3 UTF-8 bytes, so short texts need no byte count.
		if (text.length * 3 > limit && Buffer.byteLength(text, "utf8") > limit) {
			if ("method" in message) {
				this.log(`Dropped an outgoing ${message.method} of over ${limit} bytes`);
				return 0;
			}
			text = JSON.stringify(errorResponse(message.id, tooLarge(limit)));
		}
		if (this.tracing) this.traceOutgoing(message);
		this.options.send(text);
		return measure ? Buffer.byteLength(text, "utf8") : 0;
	}

	/** A success answer whose result is already UTF-8 JSON: its bytes go out as they are, never decoded. */
	private writeEncoded(id: JsonRpcId, result: EncodedJson): number {
		const bytes = result.joined(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, "}");
		if (bytes.byteLength > this.options.maxOutgoingBytes) {
			return this.write(errorResponse(id, tooLarge(this.options.maxOutgoingBytes)), true);
		}
		if (this.tracing) this.trace({ direction: "out", kind: "response", id });
		if (this.options.sendBytes) this.options.sendBytes(bytes);
		else this.options.send(bytes.toString("utf8"));
		return bytes.byteLength;
	}

	/** Whether anyone listens to trace events: with tracing off no event object is built. */
	private get tracing(): boolean {
		return this.options.events?.onTrace !== undefined;
	}

	private traceOutgoing(message: JsonRpcOutgoing): void {
		if ("method" in message) {
			this.trace({
				direction: "out",
				kind: "id" in message ? "request" : "notification",
				method: message.method,
			});
		} else {
			this.trace({
				direction: "out",
				kind: "response",
				id: message.id,
				...("error" in message ? { errorCode: message.error.code } : {}),
			});
		}
	}

	private trace(event: Omit<TraceEvent, "sessionId">): void {
		const onTrace = this.options.events?.onTrace;
		if (onTrace) this.safely(() => onTrace({ sessionId: this.id, ...event }));
	}

	private safely(action: () => void): void {
		try {
			action();
		} catch (error) {
			this.log(`Event listener failed: ${describeError(error)}`);
		}
	}

	private log(message: string): void {
		this.options.events?.onLog?.(`[session ${this.id}] ${message}`);
	}
}

/** JSON text of an outgoing message, or undefined when it cannot be encoded. */
function encode(message: JsonRpcOutgoing): string | undefined {
	try {
		return JSON.stringify(message);
	} catch {
		return undefined;
	}
}

const DONE: Promise<void> = Promise.resolve();

function tooLarge(limit: number): JsonRpcErrorObject {
	return {
		code: ErrorCode.InternalError,
		message: `Result too large: it exceeds the ${formatBytes(limit)} message limit; ask for less`,
	};
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
	return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * One request's context and cancellation. The AbortController is made only when the handler reads the signal:
 * creating one costs more than the rest of a ping's handling, and most handlers never look at it.
 */
class Cancellation implements RequestContext {
	private controller: AbortController | undefined;
	private aborted = false;

	constructor(
		readonly sessionId: number,
		readonly journalId?: string,
	) {}

	get signal(): AbortSignal {
		if (!this.controller) {
			this.controller = new AbortController();
			if (this.aborted) this.controller.abort();
		}
		return this.controller.signal;
	}

	abort(): void {
		this.aborted = true;
		this.controller?.abort();
	}
}

function readClientInfo(value: unknown): ClientInfo {
	if (!isJsonObject(value)) return {};
	const info: ClientInfo = {};
	if (typeof value.name === "string") info.name = value.name;
	if (typeof value.version === "string") info.version = value.version;
	return info;
}

function formatBytes(bytes: number): string {
	return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
