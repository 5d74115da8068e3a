/** JSON-RPC 2.0 message shapes, parsing and the standard error codes. */

import { describeError } from "../shared/describe-error";

export type JsonRpcId = string | number;
export type JsonObject = { [key: string]: unknown };
export type JsonRpcParams = JsonObject | unknown[];

export const ErrorCode = {
	ParseError: -32700,
	InvalidRequest: -32600,
	MethodNotFound: -32601,
	InvalidParams: -32602,
	InternalError: -32603,
} as const;

export interface JsonRpcErrorObject {
	code: number;
	message: string;
	data?: unknown;
}

export interface JsonRpcRequest {
	jsonrpc: "2.0";
	id: JsonRpcId;
	method: string;
	params?: JsonRpcParams;
}

export interface JsonRpcNotification {
	jsonrpc: "2.0";
	method: string;
	params?: JsonRpcParams;
}

export interface JsonRpcSuccessResponse {
	jsonrpc: "2.0";
	id: JsonRpcId;
	result: unknown;
}

export interface JsonRpcErrorResponse {
	jsonrpc: "2.0";
	id: JsonRpcId | null;
	error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;
export type JsonRpcOutgoing = JsonRpcResponse | JsonRpcNotification | JsonRpcRequest;

export type IncomingMessage =
	| { kind: "request"; message: JsonRpcRequest }
	| { kind: "notification"; message: JsonRpcNotification }
	| { kind: "response"; id: JsonRpcId | null }
	| { kind: "invalid"; id: JsonRpcId | null; error: JsonRpcErrorObject };

/** An error a handler throws to answer with a specific JSON-RPC code. */
export class JsonRpcError extends Error {
	constructor(
		readonly code: number,
		message: string,
		readonly data?: unknown,
	) {
		super(message);
		this.name = "JsonRpcError";
	}

	toObject(): JsonRpcErrorObject {
		return this.data === undefined
			? { code: this.code, message: this.message }
			: { code: this.code, message: this.message, data: this.data };
	}
}

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isValidId(value: unknown): value is JsonRpcId {
	return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

function invalid(id: JsonRpcId | null, message: string): IncomingMessage {
	return { kind: "invalid", id, error: { code: ErrorCode.InvalidRequest, message } };
}

/** Parses one WebSocket text message. Never throws. */
export function parseMessage(text: string): IncomingMessage {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const detail = describeError(error);
		return { kind: "invalid", id: null, error: { code: ErrorCode.ParseError, message: `Parse error: ${detail}` } };
	}
	return classify(value);
}

export function classify(value: unknown): IncomingMessage {
	if (Array.isArray(value)) {
		return invalid(
			null,
			"Invalid request: batches are not supported (MCP removed JSON-RPC batching); send one object per message",
		);
	}
	if (!isJsonObject(value)) {
		return invalid(null, "Invalid request: a message must be a JSON object");
	}
	const hasId = Object.prototype.hasOwnProperty.call(value, "id");
	const id = hasId && isValidId(value.id) ? value.id : null;
	if (value.jsonrpc !== "2.0") {
		return invalid(id, 'Invalid request: "jsonrpc" must be "2.0"');
	}
	if (hasId && !isValidId(value.id)) {
		return invalid(null, 'Invalid request: "id" must be a string or a safe integer');
	}
	const hasMethod = Object.prototype.hasOwnProperty.call(value, "method");
	if (!hasMethod) {
		if (
			Object.prototype.hasOwnProperty.call(value, "result") ||
			Object.prototype.hasOwnProperty.call(value, "error")
		) {
			return { kind: "response", id };
		}
		return invalid(id, 'Invalid request: "method" is missing');
	}
	if (typeof value.method !== "string" || value.method.length === 0) {
		return invalid(id, 'Invalid request: "method" must be a non-empty string');
	}
	const params = value.params;
	if (params !== undefined && !isJsonObject(params) && !Array.isArray(params)) {
		return invalid(id, 'Invalid request: "params" must be an object or an array');
	}
	if (hasId && id !== null) {
		const request: JsonRpcRequest = { jsonrpc: "2.0", id, method: value.method };
		if (params !== undefined) request.params = params;
		return { kind: "request", message: request };
	}
	const notification: JsonRpcNotification = { jsonrpc: "2.0", method: value.method };
	if (params !== undefined) notification.params = params;
	return { kind: "notification", message: notification };
}

export function successResponse(id: JsonRpcId, result: unknown): JsonRpcSuccessResponse {
	return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcErrorResponse {
	return { jsonrpc: "2.0", id, error };
}

export function notification(method: string, params?: JsonObject): JsonRpcNotification {
	return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}
