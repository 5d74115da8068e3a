import type { JsonObject } from "./json-rpc";

/** MCP protocol versions this server speaks, newest first. The CLI 2.1.330 asks for the first. */
export const SUPPORTED_PROTOCOL_VERSIONS = [
	"2025-11-25",
	"2025-06-18",
	"2025-03-26",
	"2024-11-05",
	"2024-10-07",
] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

export interface TextContent {
	type: "text";
	text: string;
}

export interface ToolResult {
	content: TextContent[];
	isError?: boolean;
}

export interface ToolCallContext {
	/** The session (connection) that made the call. */
	sessionId: number;
	/** Aborted when the client cancels the request or disconnects. */
	signal: AbortSignal;
	/** The call's id in the activity journal, when it is recorded; a write it makes is filed under it. */
	journalId?: string;
}

/** MCP tool annotations; the CLI uses `readOnlyHint` (plan mode, parallel calls). */
export interface ToolAnnotations {
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

export interface ToolDefinition {
	name: string;
	description: string;
	inputSchema: JsonObject;
	/** Listed in `tools/list` when present. */
	annotations?: ToolAnnotations;
	call(args: JsonObject, context: ToolCallContext): Promise<ToolResult>;
}

export interface ServerInfo {
	name: string;
	version: string;
}

export interface ClientInfo {
	name?: string;
	version?: string;
}

export function textResult(text: string): ToolResult {
	return { content: [{ type: "text", text }] };
}

export function toolError(message: string): ToolResult {
	return { content: [{ type: "text", text: message }], isError: true };
}
