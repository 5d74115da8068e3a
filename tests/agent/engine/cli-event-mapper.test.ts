import { CliEventMapper } from "../../../src/agent/engine/cli-event-mapper";

// Shapes as CLI 2.1.330 prints them (trimmed to the fields that matter).
const init = {
	type: "system",
	subtype: "init",
	session_id: "s-1",
	model: "claude-opus-5-5",
	slash_commands: ["compact", "init", 3],
	claude_code_version: "2.1.330",
};

function delta(messageId: string, index: number, text: string): Record<string, unknown> {
	return {
		type: "stream_event",
		event: { type: "content_block_delta", index, delta: { type: "text_delta", text } },
		parent_tool_use_id: null,
		api_message_id: messageId,
	};
}

function result(fields: Record<string, unknown>): Record<string, unknown> {
	return {
		type: "result",
		subtype: "success",
		is_error: false,
		duration_ms: 681,
		usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 5 },
		...fields,
	};
}

describe("CliEventMapper", () => {
	it("reports ready once per session and model, with the slash commands and version", () => {
		const mapper = new CliEventMapper();
		expect(mapper.map(init)).toEqual([
			{
				kind: "ready",
				sessionId: "s-1",
				model: "claude-opus-5-5",
				slashCommands: ["compact", "init"],
				cliVersion: "2.1.330",
			},
		]);
		expect(mapper.map(init)).toEqual([]);
		expect(mapper.map({ ...init, model: "claude-sonnet" })).toEqual([
			expect.objectContaining({ kind: "ready", model: "claude-sonnet" }),
		]);
	});

	it("streams text deltas grouped by message and block, and does not repeat them from the assistant message", () => {
		const mapper = new CliEventMapper();
		const events = [
			...mapper.map(delta("msg_1", 0, "Hello ")),
			...mapper.map(delta("msg_1", 0, "there")),
			...mapper.map(delta("msg_1", 2, "More")),
			...mapper.map({
				type: "assistant",
				parent_tool_use_id: null,
				message: { id: "msg_1", content: [{ type: "text", text: "Hello there" }] },
			}),
		];
		expect(events).toEqual([
			{ kind: "text-delta", blockId: "msg_1:0", text: "Hello " },
			{ kind: "text-delta", blockId: "msg_1:0", text: "there" },
			{ kind: "text-delta", blockId: "msg_1:2", text: "More" },
		]);
	});

	it("ends a streamed reply block when the model closes it, before the turn ends", () => {
		const mapper = new CliEventMapper();
		mapper.map(delta("msg_1", 0, "Done."));
		expect(
			mapper.map({
				type: "stream_event",
				event: { type: "content_block_stop", index: 0 },
				parent_tool_use_id: null,
				api_message_id: "msg_1",
			}),
		).toEqual([{ kind: "text-end", blockId: "msg_1:0" }]);
	});

	it("gives an assistant message's text whole when nothing streamed it, and its tool calls", () => {
		const mapper = new CliEventMapper();
		const message = {
			type: "assistant",
			message: {
				id: "msg_2",
				content: [
					{ type: "text", text: "Let me look." },
					{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } },
				],
			},
		};
		expect(mapper.map(message)).toEqual([
			{ kind: "text-delta", blockId: "msg_2:0", text: "Let me look." },
			{ kind: "text-end", blockId: "msg_2:0" },
			{ kind: "tool-call", toolUseId: "toolu_1", toolName: "Bash", input: { command: "ls" } },
		]);
	});

	it("maps tool results, string or blocks, with their error flag", () => {
		const mapper = new CliEventMapper();
		const message = {
			type: "user",
			message: {
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "toolu_1", content: "User said no", is_error: true },
					{
						type: "tool_result",
						tool_use_id: "toolu_2",
						content: [{ type: "text", text: "pong" }, { type: "image" }],
					},
				],
			},
		};
		expect(mapper.map(message)).toEqual([
			{ kind: "tool-result", toolUseId: "toolu_1", isError: true, text: "User said no" },
			{ kind: "tool-result", toolUseId: "toolu_2", isError: false, text: "pong" },
		]);
		expect(
			mapper.map({
				type: "user",
				message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
			}),
		).toEqual([]);
	});

	it("leaves out subagents' messages", () => {
		expect(new CliEventMapper().map({ ...delta("msg_9", 0, "inner"), parent_tool_use_id: "toolu_task" })).toEqual(
			[],
		);
	});

	it("ends a turn with its usage and its own share of the session's cost", () => {
		const mapper = new CliEventMapper();
		const first = mapper.map(result({ total_cost_usd: 0.25 }));
		const second = mapper.map(result({ total_cost_usd: 0.75 }));
		const third = mapper.map(
			result({
				total_cost_usd: 1.5,
				model_usage_since_last_result: { opus: { costUSD: 0.5 }, haiku: { costUSD: 0.25 } },
			}),
		);
		expect(first).toEqual([
			{
				kind: "turn-end",
				outcome: "done",
				usage: {
					inputTokens: 100,
					outputTokens: 10,
					cacheReadTokens: 0,
					cacheCreationTokens: 5,
					durationMs: 681,
					costUsd: 0.25,
				},
			},
		]);
		expect(second[0]).toMatchObject({ usage: { costUsd: 0.5 } });
		expect(third[0]).toMatchObject({ usage: { costUsd: 0.75 } });
	});

	it("tells an interrupted turn from a failed one", () => {
		const mapper = new CliEventMapper();
		const aborted = result({
			subtype: "error_during_execution",
			is_error: true,
			terminal_reason: "aborted_streaming",
			errors: ["[ede_diagnostic] x"],
		});
		expect(mapper.map(aborted)[0]).toMatchObject({ kind: "turn-end", outcome: "interrupted" });
		const failed = result({
			subtype: "error_during_execution",
			is_error: true,
			terminal_reason: "api_error",
			errors: ["API Error: 500\nmore"],
		});
		expect(mapper.map(failed)[0]).toMatchObject({ kind: "turn-end", outcome: "error", error: "API Error: 500" });
		expect(mapper.map(failed, true)[0]).toMatchObject({ outcome: "interrupted" });
	});

	it("reports the permission mode the CLI switched to itself (an approved plan leaves plan mode), and no other status", () => {
		const mapper = new CliEventMapper();
		expect(
			mapper.map({
				type: "system",
				subtype: "status",
				status: null,
				permissionMode: "default",
				session_id: "s-1",
			}),
		).toEqual([{ kind: "permission-mode", mode: "default" }]);
		expect(mapper.map({ type: "system", subtype: "status", status: "requesting", session_id: "s-1" })).toEqual([]);
		expect(mapper.map({ type: "system", subtype: "compact_boundary", permissionMode: "plan" })).toEqual([]);
	});
});
