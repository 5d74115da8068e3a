import { ErrorCode, JsonRpcError, isJsonObject, type JsonObject } from "../../protocol/json-rpc";
import { McpSession, type MethodHandler, type RequestContext, type SessionEvents } from "../../protocol/mcp-session";
import { EncodedJson } from "../../protocol/encoded-json";
import type { RequestObserver } from "../../protocol/request-observer";
import type { ServerInfo } from "../../protocol/mcp-types";
import type { ToolRegistry } from "../../protocol/tool-registry";
import { MAX_OUTGOING_MESSAGE_BYTES } from "../../server/limits";

/** How the vault tools introduce themselves to an MCP client (not the IDE server's name: this is another server). */
export const VAULT_TOOLS_SERVER_INFO: ServerInfo = { name: "obsidian-vault-tools", version: "0.1.0" };

export interface VaultToolServerOptions {
	registry: ToolRegistry;
	serverInfo?: ServerInfo;
	/** Further MCP methods of this server (e.g. resources/list, prompts/get); every transport serves them. */
	methods?: ReadonlyMap<string, MethodHandler>;
	/** Capabilities advertised beside `tools`, e.g. `{ resources: {}, prompts: {} }`. */
	capabilities?: JsonObject;
	/** MCP `instructions` for the model, in every transport's `initialize` answer. */
	instructions?: string;
	log?: (message: string) => void;
	maxOutgoingBytes?: number;
	/**
	 * Sees the requests of each session (the activity journal), by the transport that carries them: a kept
	 * session (`session()`), stateless HTTP (`answer()`) or the relay (`request()`, with the IDE connection's id).
	 */
	observer?: (transport: "session" | "http" | "relay", sessionId: number) => RequestObserver | undefined;
}

export interface VaultToolSessionOptions {
	/** The session id tools see (`ToolCallContext.sessionId`). */
	id: number;
	/** Writes one JSON-RPC message text to the client. */
	send: (text: string) => void;
	events?: SessionEvents;
	/** Overrides the server's observer for this session. */
	observer?: RequestObserver;
}

/**
 * The vault tools as one MCP server, whatever carries it: a long-lived session per connection (stdio), one
 * answer per message (stateless HTTP), or one method call relayed over the IDE channel. All three run the same
 * `McpSession`, so every transport answers exactly what `tools/list` and `tools/call` answer.
 */
export class VaultToolServer {
	constructor(private readonly options: VaultToolServerOptions) {}

	get registry(): ToolRegistry {
		return this.options.registry;
	}

	/** A session for a transport that keeps a connection (stdio, a test's in-memory pair). */
	session(options: VaultToolSessionOptions): McpSession {
		return this.newSession(options, options.observer ?? this.options.observer?.("session", options.id));
	}

	private newSession(options: VaultToolSessionOptions, observer: RequestObserver | undefined): McpSession {
		return new McpSession({
			id: options.id,
			send: options.send,
			serverInfo: this.options.serverInfo ?? VAULT_TOOLS_SERVER_INFO,
			tools: this.options.registry,
			methods: this.options.methods,
			capabilities: this.options.capabilities,
			instructions: this.options.instructions,
			maxOutgoingBytes: this.options.maxOutgoingBytes ?? MAX_OUTGOING_MESSAGE_BYTES,
			events: options.events ?? (this.options.log ? { onLog: this.options.log } : undefined),
			...(observer ? { observer } : {}),
		});
	}

	/**
	 * Answers one JSON-RPC message text, as stateless HTTP needs: the answer's text, or undefined when the message
	 * needs none (a notification or a response). Aborting `signal` cancels the request as `notifications/cancelled`
	 * would: the tool still answers (a write waiting for review says it was withdrawn and wrote nothing).
	 */
	async answer(text: string, sessionId: number, signal: AbortSignal): Promise<string | undefined> {
		let reply: string | undefined;
		const session = this.newSession(
			{ id: sessionId, send: (out) => (reply ??= out) },
			this.options.observer?.("http", sessionId),
		);
		const id = requestIdOf(text);
		const cancel = (): void => {
			if (id !== undefined) void session.handleMessage(cancelledNotification(id, "the HTTP request was aborted"));
		};
		signal.addEventListener("abort", cancel, { once: true });
		try {
			const answered = session.handleMessage(text);
			if (signal.aborted) cancel();
			await answered;
			return reply;
		} finally {
			signal.removeEventListener("abort", cancel);
			session.dispose();
		}
	}

	/**
	 * Runs one method of this server for a relay (`vaultTools/*` on the IDE channel): its result, as the JSON text
	 * this server wrote (never decoded and encoded again: a relayed note can be large, and in Obsidian this runs on
	 * the main thread), or the same JsonRpcError a direct client would get. The caller's cancellation is passed on as
	 * `notifications/cancelled`, so a tool finishes with its own answer (a withdrawn review writes nothing).
	 */
	async request(method: string, params: JsonObject, context: RequestContext): Promise<EncodedJson> {
		let reply: string | undefined;
		// Only the answer to the relayed request (id 1): a notification the session sends meanwhile is no answer.
		const session = this.newSession(
			{ id: context.sessionId, send: (out) => (reply ??= out.startsWith(ANSWER_HEAD) ? out : undefined) },
			this.options.observer?.("relay", context.sessionId),
		);
		const id = 1;
		const cancel = (): void =>
			void session.handleMessage(cancelledNotification(id, "the relayed request was cancelled"));
		const signal = context.signal;
		signal.addEventListener("abort", cancel, { once: true });
		try {
			const answered = session.handleMessage(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
			if (signal.aborted) cancel();
			await answered;
		} finally {
			signal.removeEventListener("abort", cancel);
			session.dispose();
		}
		// A result answer as the session writes it (`successResponse` encoded, or an EncodedJson result joined).
		if (reply?.startsWith(RESULT_HEAD) === true && reply.endsWith("}"))
			return EncodedJson.ofJsonText(reply.slice(RESULT_HEAD.length, -1));
		return EncodedJson.ofJsonText(JSON.stringify(readAnswer(reply, method)));
	}
}

/** How this server's answer to the relayed request (id 1) starts, and how it starts when it is a result. */
const ANSWER_HEAD = '{"jsonrpc":"2.0","id":1,';
const RESULT_HEAD = `${ANSWER_HEAD}"result":`;

function readAnswer(reply: string | undefined, method: string): unknown {
	if (reply === undefined)
		throw new JsonRpcError(ErrorCode.InternalError, `Internal error: ${method} gave no answer`);
	const message: unknown = JSON.parse(reply);
	if (!isJsonObject(message))
		throw new JsonRpcError(ErrorCode.InternalError, `Internal error: ${method} gave no answer`);
	const error = message.error;
	if (isJsonObject(error)) {
		const code = typeof error.code === "number" ? error.code : ErrorCode.InternalError;
		throw new JsonRpcError(code, typeof error.message === "string" ? error.message : "Unknown error", error.data);
	}
	if (message.result === undefined)
		throw new JsonRpcError(ErrorCode.InternalError, `Internal error: ${method} gave no answer`);
	return message.result;
}

function cancelledNotification(requestId: string | number, reason: string): string {
	return JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } });
}

/** The id of a request message; undefined for anything else. */
function requestIdOf(text: string): string | number | undefined {
	try {
		const message: unknown = JSON.parse(text);
		if (!isJsonObject(message) || typeof message.method !== "string") return undefined;
		return typeof message.id === "string" || typeof message.id === "number" ? message.id : undefined;
	} catch {
		return undefined;
	}
}
