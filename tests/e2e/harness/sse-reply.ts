import type { ServerResponse } from "node:http";
import type { JsonObject } from "./messages-request";

export type ScriptedBlock =
	/** `parts`: the text's deltas, one SSE event each (default: the whole text in one). */
	| { type: "text"; text: string; parts?: string[] }
	| { type: "tool_use"; name: string; input: JsonObject; id?: string };

export interface ScriptedTurn {
	content: ScriptedBlock[];
	/** A slow model: this pause before each event after `message_start`; writing stops when the client hangs up. */
	eventIntervalMs?: number;
}

export function textTurn(text: string): ScriptedTurn {
	return { content: [{ type: "text", text }] };
}

/** A text reply streamed as these deltas, `eventIntervalMs` apart (a turn long enough to interrupt). */
export function slowTextTurn(parts: string[], eventIntervalMs: number): ScriptedTurn {
	return { content: [{ type: "text", text: parts.join(""), parts }], eventIntervalMs };
}

export function toolUseTurn(name: string, input: JsonObject, leadingText?: string): ScriptedTurn {
	const toolUse: ScriptedBlock = { type: "tool_use", name, input };
	return { content: leadingText === undefined ? [toolUse] : [{ type: "text", text: leadingText }, toolUse] };
}

let toolUseCounter = 0;

function contentBlock(block: ScriptedBlock): JsonObject {
	if (block.type === "text") return { type: "text", text: block.text };
	toolUseCounter += 1;
	return { type: "tool_use", id: block.id ?? `toolu_mock_${toolUseCounter}`, name: block.name, input: block.input };
}

function stopReason(turn: ScriptedTurn): string {
	return turn.content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
}

function usage(outputTokens: number): JsonObject {
	return {
		input_tokens: 100,
		output_tokens: outputTokens,
		cache_creation_input_tokens: 0,
		cache_read_input_tokens: 0,
	};
}

export function messageJson(id: string, model: string, turn: ScriptedTurn): JsonObject {
	return {
		id,
		type: "message",
		role: "assistant",
		model,
		content: turn.content.map(contentBlock),
		stop_reason: stopReason(turn),
		stop_sequence: null,
		usage: usage(10),
	};
}

type SseEvent = [type: string, data: JsonObject];

function writeEvent(response: ServerResponse, [type, data]: SseEvent): void {
	response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function blockEvents(block: ScriptedBlock, index: number): SseEvent[] {
	if (block.type === "text") {
		const deltas = (block.parts ?? [block.text]).map((text): SseEvent => [
			"content_block_delta",
			{ index, delta: { type: "text_delta", text } },
		]);
		return [
			["content_block_start", { index, content_block: { type: "text", text: "" } }],
			...deltas,
			["content_block_stop", { index }],
		];
	}
	const partialJson = JSON.stringify(block.input);
	return [
		["content_block_start", { index, content_block: { ...contentBlock(block), input: {} } }],
		["content_block_delta", { index, delta: { type: "input_json_delta", partial_json: partialJson } }],
		["content_block_stop", { index }],
	];
}

/** Streams a turn with the Messages API's server-sent events, in the order the real API sends them. */
export function streamMessage(
	response: ServerResponse,
	id: string,
	model: string,
	turn: ScriptedTurn,
	onFirstEventWritten?: () => void,
): void {
	response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const message = { ...messageJson(id, model, turn), content: [], stop_reason: null, usage: usage(1) };
	writeEvent(response, ["message_start", { message }]);
	onFirstEventWritten?.();
	const events: SseEvent[] = [
		...turn.content.flatMap(blockEvents),
		[
			"message_delta",
			{ delta: { stop_reason: stopReason(turn), stop_sequence: null }, usage: { output_tokens: 10 } },
		],
		["message_stop", {}],
	];
	if (turn.eventIntervalMs === undefined) {
		events.forEach((event) => writeEvent(response, event));
		response.end();
		return;
	}
	const interval = turn.eventIntervalMs;
	const next = (): void => {
		const event = events.shift();
		if (response.destroyed || response.writableEnded) return;
		if (event === undefined) {
			response.end();
			return;
		}
		writeEvent(response, event);
		setTimeout(next, interval);
	};
	setTimeout(next, interval);
}
