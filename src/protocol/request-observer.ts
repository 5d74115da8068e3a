import type { JsonObject } from "./json-rpc";
import type { ClientInfo } from "./mcp-types";

/** Who made a request: the session as `McpSession` knows it. */
export interface ObservedSession {
	/** The session id tools see (a connection id; 0 for stateless HTTP). */
	id: number;
	/** From `initialize`, once the client sent it in this session. */
	client?: ClientInfo;
	/** The CLI's process id, from `ide_connected`. */
	pid?: number;
}

/** One request a session is about to run. */
export interface ObservedRequest {
	method: string;
	params: JsonObject;
	session: ObservedSession;
}

/** How a request ended: its result (or JSON-RPC error) and the size of the answer written, in UTF-8 bytes. */
export type ObservedOutcome =
	| { kind: "result"; result: unknown; bytes: number }
	| { kind: "error"; code: number; message: string; bytes: number };

/** An observer's hold on one request: `id` reaches the handler as `RequestContext.journalId`. */
export interface RequestObservation {
	id?: string;
	finished(outcome: ObservedOutcome): void;
}

/**
 * Sees every request a session runs, before its handler starts and once its answer is written (e.g. the activity
 * journal). Returns undefined for a request it does not follow. It must not throw; if it does, the request runs anyway.
 */
export interface RequestObserver {
	started(request: ObservedRequest): RequestObservation | undefined;
}
