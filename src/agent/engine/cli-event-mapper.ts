/**
 * What the CLI prints in stream-json mode (2.1.330), turned into the panel's events:
 * - `system`/`init` → ready (session id, model, slash commands, version);
 * - `system`/`status` with a `permissionMode` → permission-mode (the CLI left plan mode when a plan was approved);
 * - `stream_event` text deltas → text-delta, one `blockId` per message and content block;
 * - `assistant` → tool-call per `tool_use` block (and its text, when no delta streamed it);
 * - `user` with `tool_result` blocks → tool-result;
 * - `result` → turn-end with usage and cost.
 * Subagents' messages (`parent_tool_use_id` set) are left out: the panel shows the main conversation.
 */
import type { AgentEvent, TurnUsage } from "../agent-session";
import { isJsonRecord, type JsonRecord } from "../claude-cli/json-lines";

export class CliEventMapper {
	private readonly streamedMessages = new Set<string>();
	private lastReady: string | undefined;
	private totalCostUsd = 0;

	/** `interrupted`: the session asked the CLI to stop this turn (an aborted result then counts as interrupted). */
	map(message: JsonRecord, interrupted = false): AgentEvent[] {
		if (message["parent_tool_use_id"] !== undefined && message["parent_tool_use_id"] !== null) return [];
		switch (message["type"]) {
			case "system":
				return message["subtype"] === "init" ? this.ready(message) : modeChange(message);
			case "stream_event":
				return this.streamEvent(message);
			case "assistant":
				return this.assistant(message);
			case "user":
				return toolResults(message);
			case "result":
				return [this.turnEnd(message, interrupted)];
			default:
				return [];
		}
	}

	private ready(message: JsonRecord): AgentEvent[] {
		const sessionId = stringField(message, "session_id");
		if (sessionId === undefined) return [];
		const model = stringField(message, "model");
		const key = `${sessionId} ${model ?? ""}`;
		if (key === this.lastReady) return [];
		this.lastReady = key;
		const commands = Array.isArray(message["slash_commands"])
			? message["slash_commands"].filter((name): name is string => typeof name === "string")
			: [];
		const cliVersion = stringField(message, "claude_code_version");
		return [
			{
				kind: "ready",
				sessionId,
				slashCommands: commands,
				...(model !== undefined && { model }),
				...(cliVersion !== undefined && { cliVersion }),
			},
		];
	}

	private turnEnd(message: JsonRecord, interrupted: boolean): AgentEvent {
		const event = turnEnd(message, interrupted);
		const total = message["total_cost_usd"];
		if (typeof total !== "number" || !Number.isFinite(total)) return event;
		// `total_cost_usd` adds up the whole process; the turn's own share is the model usage since the last result.
		const costUsd = costSinceLastResult(message) ?? total - this.totalCostUsd;
		this.totalCostUsd = total;
		return { ...event, usage: { ...event.usage, costUsd } };
	}

	private streamEvent(message: JsonRecord): AgentEvent[] {
		const event = message["event"];
		if (!isJsonRecord(event)) return [];
		const messageId = stringField(message, "api_message_id") ?? "message";
		const blockId = `${messageId}:${String(event["index"])}`;
		if (event["type"] === "content_block_stop") return [{ kind: "text-end", blockId }];
		if (event["type"] !== "content_block_delta") return [];
		const delta = event["delta"];
		if (!isJsonRecord(delta) || delta["type"] !== "text_delta" || typeof delta["text"] !== "string") return [];
		this.streamedMessages.add(messageId);
		return [{ kind: "text-delta", blockId, text: delta["text"] }];
	}

	private assistant(message: JsonRecord): AgentEvent[] {
		const body = message["message"];
		if (!isJsonRecord(body) || !Array.isArray(body["content"])) return [];
		const messageId = stringField(body, "id") ?? stringField(message, "uuid") ?? "message";
		const streamed = this.streamedMessages.has(messageId);
		return body["content"].filter(isJsonRecord).flatMap((block, index): AgentEvent[] => {
			if (block["type"] === "tool_use" && typeof block["id"] === "string" && typeof block["name"] === "string") {
				return [
					{
						kind: "tool-call",
						toolUseId: block["id"],
						toolName: block["name"],
						input: isJsonRecord(block["input"]) ? block["input"] : {},
					},
				];
			}
			if (block["type"] === "text" && !streamed && typeof block["text"] === "string" && block["text"] !== "") {
				const blockId = `${messageId}:${index}`;
				return [
					{ kind: "text-delta", blockId, text: block["text"] },
					{ kind: "text-end", blockId },
				];
			}
			return [];
		});
	}
}

function modeChange(message: JsonRecord): AgentEvent[] {
	const mode = message["subtype"] === "status" ? stringField(message, "permissionMode") : undefined;
	return mode === undefined ? [] : [{ kind: "permission-mode", mode }];
}

function toolResults(message: JsonRecord): AgentEvent[] {
	const body = message["message"];
	if (!isJsonRecord(body) || !Array.isArray(body["content"])) return [];
	return body["content"].filter(isJsonRecord).flatMap((block): AgentEvent[] =>
		block["type"] === "tool_result" && typeof block["tool_use_id"] === "string"
			? [
					{
						kind: "tool-result",
						toolUseId: block["tool_use_id"],
						isError: block["is_error"] === true,
						text: contentText(block["content"]),
					},
				]
			: [],
	);
}

/** A tool result's content: a string, or blocks of which the text ones count. */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter(isJsonRecord)
		.flatMap((block) => (typeof block["text"] === "string" ? [block["text"]] : []))
		.join("\n");
}

type TurnEndEvent = Extract<AgentEvent, { kind: "turn-end" }>;

function turnEnd(message: JsonRecord, interrupted: boolean): TurnEndEvent {
	const usage = turnUsage(message);
	if (message["subtype"] === "success" && message["is_error"] !== true)
		return { kind: "turn-end", outcome: "done", usage };
	const terminal = stringField(message, "terminal_reason") ?? "";
	if (interrupted || terminal.startsWith("aborted")) return { kind: "turn-end", outcome: "interrupted", usage };
	return { kind: "turn-end", outcome: "error", usage, error: resultError(message) };
}

function resultError(message: JsonRecord): string {
	const errors = Array.isArray(message["errors"])
		? message["errors"].filter((error): error is string => typeof error === "string")
		: [];
	const result = stringField(message, "result");
	const text = errors[0] ?? result ?? stringField(message, "subtype") ?? "the turn failed";
	return text.split("\n")[0] ?? text;
}

function turnUsage(message: JsonRecord): TurnUsage {
	const usage = isJsonRecord(message["usage"]) ? message["usage"] : {};
	const entries: [keyof TurnUsage, unknown][] = [
		["inputTokens", usage["input_tokens"]],
		["outputTokens", usage["output_tokens"]],
		["cacheReadTokens", usage["cache_read_input_tokens"]],
		["cacheCreationTokens", usage["cache_creation_input_tokens"]],
		["durationMs", message["duration_ms"]],
	];
	return Object.fromEntries(
		entries.filter(([, value]) => typeof value === "number" && Number.isFinite(value)),
	) as TurnUsage;
}

function costSinceLastResult(message: JsonRecord): number | undefined {
	const byModel = message["model_usage_since_last_result"];
	if (!isJsonRecord(byModel)) return undefined;
	const costs = Object.values(byModel).map((usage) => (isJsonRecord(usage) ? usage["costUSD"] : undefined));
	return costs.every((cost): cost is number => typeof cost === "number")
		? costs.reduce((sum, cost) => sum + cost, 0)
		: undefined;
}

function stringField(record: JsonRecord, key: string): string | undefined {
	const value = record[key];
	return typeof value === "string" ? value : undefined;
}
