import { ErrorCode, JsonRpcError, isJsonObject, type JsonObject } from "../../protocol/json-rpc";
import {
	toolError,
	type TextContent,
	type ToolCallContext,
	type ToolDefinition,
	type ToolResult,
} from "../../protocol/mcp-types";
import { describeError } from "../../shared/describe-error";
import { RelayClosedError, type RelayConnection } from "./relay-connection";

export interface RelayedToolsOptions {
	/** The same tools answered from the folder: their definitions are what `tools/list` shows either way. */
	local: readonly ToolDefinition[];
	/** The bridge to forward to, when one runs. */
	relay: { current(): Promise<RelayConnection | undefined> };
	/** The relay method that runs one `tools/call` on the bridge. */
	callMethod: string;
	log: (message: string) => void;
}

/**
 * The vault tools as the stdio server lists them: each call goes to the vault's running bridge (Obsidian's index,
 * link-safe rename, review view), and to the folder when there is none. A read whose bridge goes away mid-call is
 * answered from the folder; a write is not retried, since the bridge may already have made it.
 */
export function relayedTools(options: RelayedToolsOptions): ToolDefinition[] {
	return options.local.map((local) => ({
		name: local.name,
		description: local.description,
		inputSchema: local.inputSchema,
		...(local.annotations ? { annotations: local.annotations } : {}),
		call: (args, context) => callRelayed(local, args, context, options),
	}));
}

async function callRelayed(
	local: ToolDefinition,
	args: JsonObject,
	context: ToolCallContext,
	options: RelayedToolsOptions,
): Promise<ToolResult> {
	const connection = await options.relay.current();
	if (!connection) return local.call(args, context);
	const readOnly = local.annotations?.readOnlyHint === true;
	try {
		const result = await connection.request(
			options.callMethod,
			{ name: local.name, arguments: args },
			context.signal,
		);
		return toolResultFrom(result, local.name);
	} catch (error) {
		if (error instanceof RelayClosedError) {
			if (readOnly || !error.sent) {
				options.log(`${local.name}: ${error.message}; answering from the folder`);
				return local.call(args, context);
			}
			return toolError(
				`${local.name}: the connection to the vault's bridge was lost during the call (${error.message}), so it is not known whether the change was made. Check the note with read_note before trying again.`,
			);
		}
		if (error instanceof JsonRpcError && error.code === ErrorCode.MethodNotFound) {
			options.log(`${local.name}: the running bridge does not serve vault tools (${error.message})`);
			if (readOnly) return local.call(args, context);
			return toolError(
				`${local.name}: the bridge running for this vault does not serve the vault tools (they are turned off in its settings, or it is an older version), and writes need it.`,
			);
		}
		return toolError(`${local.name}: the vault's bridge could not run the call: ${describeError(error)}`);
	}
}

/** The bridge's answer, checked: text blocks only, as every vault tool answers. */
function toolResultFrom(value: unknown, name: string): ToolResult {
	if (!isJsonObject(value) || !Array.isArray(value.content))
		return toolError(`${name}: the vault's bridge gave an answer that is not a tool result`);
	const content: TextContent[] = value.content.map((block: unknown) =>
		isJsonObject(block) && block.type === "text" && typeof block.text === "string"
			? { type: "text", text: block.text }
			: { type: "text", text: JSON.stringify(block) },
	);
	return value.isError === true ? { content, isError: true } : { content };
}
