import type {
	AgentEvent,
	InProcessMcpServers,
	ToolGate,
	ToolUseRequest,
	UserMessage,
} from "../../../src/agent/agent-session";
import type { CliProcess, CliProcessEvents } from "../../../src/agent/claude-cli/cli-process";
import type { JsonRecord } from "../../../src/agent/claude-cli/json-lines";
import { StreamJsonSession } from "../../../src/agent/engine/stream-json-session";
import { pollUntil } from "../../helpers/wait-until";

/** A stand-in for the `claude` process: records what the session writes, and plays the CLI's side. */
class FakeCli implements CliProcess {
	readonly written: JsonRecord[] = [];
	readonly signals: string[] = [];
	inputEnded = false;
	events!: CliProcessEvents;
	pid = 4242;

	write(record: JsonRecord): void {
		this.written.push(record);
	}
	endInput(): void {
		this.inputEnded = true;
	}
	kill(signal: NodeJS.Signals): void {
		this.signals.push(signal);
	}
	say(record: JsonRecord): void {
		this.events.message(record);
	}
	ofType(type: string): JsonRecord[] {
		return this.written.filter((record) => record["type"] === type);
	}
	controlRequest(subtype: string): JsonRecord | undefined {
		return this.ofType("control_request").find(
			(record) => (record["request"] as JsonRecord)["subtype"] === subtype,
		);
	}
	answer(request: JsonRecord | undefined, response: JsonRecord = {}): void {
		this.say({
			type: "control_response",
			response: { subtype: "success", request_id: request?.["request_id"], response },
		});
	}
	responseTo(requestId: string): JsonRecord | undefined {
		const found = this.ofType("control_response").find(
			(record) => (record["response"] as JsonRecord)["request_id"] === requestId,
		);
		return found?.["response"] as JsonRecord | undefined;
	}
}

const allowAll: ToolGate = {
	decide: (request) => Promise.resolve({ behavior: "allow", updatedInput: { ...request.input } }),
};
const message = (text: string): UserMessage => ({ text, attachments: [] });
/** A `hook_callback` request as the CLI sends it for the session's PreToolUse hook. */
const hookCallback = (toolName: string, toolInput: JsonRecord, toolUseId: string): JsonRecord => ({
	subtype: "hook_callback",
	callback_id: "obsidian_tool_gate",
	input: {
		hook_event_name: "PreToolUse",
		session_id: "s-1",
		cwd: "/v",
		tool_name: toolName,
		tool_input: toolInput,
		tool_use_id: toolUseId,
	},
	tool_use_id: toolUseId,
});
const result = { type: "result", subtype: "success", is_error: false, usage: { input_tokens: 1, output_tokens: 2 } };

function session(
	ports: { gate?: ToolGate; mcp?: InProcessMcpServers; closeGraceMs?: number } = {},
	resume?: string,
): { session: StreamJsonSession; cli: FakeCli; events: AgentEvent[] } {
	const cli = new FakeCli();
	const started = new StreamJsonSession(
		{
			gate: ports.gate ?? allowAll,
			mcp: ports.mcp,
			closeGraceMs: ports.closeGraceMs,
			start: (events) => ((cli.events = events), cli),
		},
		resume,
	);
	const events: AgentEvent[] = [];
	started.onEvent((event) => events.push(event));
	return { session: started, cli, events };
}

/** The CLI answers `initialize`: its hook is in place, and the session may send messages. */
async function gated(cli: FakeCli): Promise<void> {
	cli.answer(cli.controlRequest("initialize"));
	await Promise.resolve();
	await Promise.resolve();
}

describe("StreamJsonSession", () => {
	it("initializes with the in-process servers and sends the prompt the panel built, never a mention for the CLI to read", async () => {
		const mcp: InProcessMcpServers = { names: () => ["obsidian"], handle: () => Promise.resolve(undefined) };
		const { session: started, cli, events } = session({ mcp }, "earlier-id");
		await gated(cli);
		expect(cli.controlRequest("initialize")?.["request"]).toEqual({
			subtype: "initialize",
			hooks: {
				PreToolUse: [
					{ matcher: "*", hookCallbackIds: ["obsidian_tool_gate"], timeout: 86_400, onFailure: "block" },
				],
			},
			sdkMcpServers: ["obsidian"],
		});
		const prompt = [
			{ type: "text" as const, text: "Summarise" },
			{
				type: "document" as const,
				title: "Notes/A.md",
				context: "A note",
				source: { type: "text" as const, media_type: "text/plain" as const, data: "two\nthree" },
			},
		];
		started.send({ text: "Summarise", attachments: [{ path: "Notes/A.md", lines: { from: 2, to: 3 } }], prompt });
		// Without a prompt built by the panel, an attachment is not handed over and an @ in the text is inert.
		started.send({ text: "See @Notes/A.md", attachments: [{ path: "Notes/A.md" }] });
		expect(cli.ofType("user")).toEqual([
			{
				type: "user",
				message: { role: "user", content: prompt },
				parent_tool_use_id: null,
				session_id: "earlier-id",
				uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
			},
		]);
		// The message's id in the CLI's record: the panel names the turn by it.
		expect(events).toEqual([
			{
				kind: "user-message",
				message: {
					text: "Summarise",
					attachments: [{ path: "Notes/A.md", lines: { from: 2, to: 3 } }],
					prompt,
				},
				id: cli.ofType("user")[0]?.["uuid"],
			},
		]);
		expect(started.busy).toBe(true);
		expect(started.sessionId).toBe("earlier-id");
		cli.say(result);
		expect(cli.ofType("user")[1]?.["message"]).toEqual({ role: "user", content: "See \u2060@Notes/A.md" });
	});

	it("holds the first message until the CLI has taken the hook every tool use passes through, showing the turn as running", async () => {
		const { session: started, cli, events } = session();
		started.send(message("first"));
		expect(cli.ofType("user")).toEqual([]);
		expect(events.map((event) => event.kind)).toEqual(["user-message"]);
		expect(started.busy).toBe(true);
		await gated(cli);
		expect(cli.ofType("user")).toHaveLength(1);
	});

	it("queues a message sent during a turn and sends it when the turn ends", async () => {
		const { session: started, cli, events } = session();
		await gated(cli);
		started.send(message("first"));
		started.send(message("second"));
		expect(cli.ofType("user")).toHaveLength(1);
		cli.say({ type: "system", subtype: "init", session_id: "s-9", model: "m" });
		cli.say(result);
		expect(cli.ofType("user").map((record) => (record["message"] as JsonRecord)["content"])).toEqual([
			"first",
			"second",
		]);
		expect(events.map((event) => event.kind)).toEqual(["user-message", "ready", "turn-end", "user-message"]);
		expect(started.sessionId).toBe("s-9");
		cli.say(result);
		expect(started.busy).toBe(false);
	});

	it("is no longer busy when a listener hears the turn end, so the panel leaves its running state", () => {
		const { session: started, cli } = session();
		const busyAtTurnEnd: boolean[] = [];
		started.onEvent((event) => {
			if (event.kind === "turn-end") busyAtTurnEnd.push(started.busy);
		});
		started.send(message("hello"));
		cli.say(result);
		expect(busyAtTurnEnd).toEqual([false]);
	});

	it("stops the session with a clear failure when the CLI refuses the initialize request that installs the gate's hook", async () => {
		const { cli, events } = session();
		const initialize = cli.controlRequest("initialize");
		cli.say({
			type: "control_response",
			response: { subtype: "error", request_id: initialize?.["request_id"], error: "unknown hook option" },
		});
		const failed = await pollUntil(() => events.find((event) => event.kind === "failed"), "a failed event");
		expect(failed).toMatchObject({
			kind: "failed",
			message: expect.stringContaining("unknown hook option") as unknown,
		});
		expect(cli.signals).toEqual(["SIGTERM"]);
	});

	it("interrupts with a control request and reports the turn as interrupted", async () => {
		const { session: started, cli, events } = session();
		started.send(message("long"));
		const stopping = started.interrupt();
		cli.answer(cli.controlRequest("interrupt"), { still_queued: [] });
		await stopping;
		cli.say({
			type: "result",
			subtype: "error_during_execution",
			is_error: true,
			errors: ["[ede_diagnostic] stopped"],
		});
		expect(events.at(-1)).toMatchObject({ kind: "turn-end", outcome: "interrupted" });
	});

	it("sets the permission mode and the model through control requests", async () => {
		const { session: started, cli } = session();
		const mode = started.setPermissionMode("plan");
		cli.answer(cli.controlRequest("set_permission_mode"));
		await mode;
		const model = started.setModel(undefined);
		const request = cli.controlRequest("set_model");
		cli.say({
			type: "control_response",
			response: { subtype: "error", request_id: request?.["request_id"], error: "unknown model" },
		});
		await expect(model).rejects.toThrow("set_model: unknown model");
		expect(cli.controlRequest("set_permission_mode")?.["request"]).toEqual({
			subtype: "set_permission_mode",
			mode: "plan",
		});
		expect(request?.["request"]).toEqual({ subtype: "set_model", model: null });
	});

	it("hands can_use_tool to the gate, whose question reaches the panel, and answers the CLI with the decision", async () => {
		const gate: ToolGate = {
			decide: async (request, asking) => {
				const answer = await asking.ask({
					id: "q1",
					toolName: request.toolName,
					input: request.input,
					summary: "Bash: touch x",
				});
				return answer.kind === "allow"
					? { behavior: "allow", updatedInput: { ...request.input } }
					: { behavior: "deny", message: answer.reason ?? "denied" };
			},
		};
		const { session: started, cli, events } = session({ gate });
		cli.say({
			type: "control_request",
			request_id: "cli-1",
			request: {
				subtype: "can_use_tool",
				tool_name: "Bash",
				input: { command: "touch x" },
				tool_use_id: "toolu_7",
			},
		});
		const asked = await pollUntil(
			() => events.find((event) => event.kind === "permission-request"),
			"the permission request",
		);
		expect(asked).toEqual({
			kind: "permission-request",
			request: { id: "q1", toolName: "Bash", input: { command: "touch x" }, summary: "Bash: touch x" },
		});
		started.answerPermission("q1", { kind: "deny", reason: "Not in my vault" });
		const response = await pollUntil(() => cli.responseTo("cli-1"), "the answer to can_use_tool");
		expect(response).toEqual({
			subtype: "success",
			request_id: "cli-1",
			response: { behavior: "deny", message: "Not in my vault", toolUseID: "toolu_7" },
		});
	});

	it("tells the gate when a tool it allowed has finished, and hands it the signal that withdraws a question", async () => {
		const finished: [string, boolean][] = [];
		const signals: (AbortSignal | undefined)[] = [];
		const gate: ToolGate = {
			decide: (request, _asking, signal) => {
				signals.push(signal);
				return Promise.resolve({ behavior: "allow", updatedInput: { ...request.input } });
			},
			toolFinished: (toolUseId, isError) => void finished.push([toolUseId, isError]),
		};
		const { cli } = session({ gate });
		cli.say({
			type: "control_request",
			request_id: "cli-3",
			request: {
				subtype: "can_use_tool",
				tool_name: "Edit",
				input: { file_path: "/v/a.md" },
				tool_use_id: "toolu_8",
			},
		});
		await pollUntil(() => cli.responseTo("cli-3"), "the answer to can_use_tool");
		expect(signals).toHaveLength(1);
		expect(signals[0]).toBeInstanceOf(AbortSignal);
		cli.say({
			type: "user",
			message: {
				role: "user",
				content: [{ type: "tool_result", tool_use_id: "toolu_8", content: "ok", is_error: false }],
			},
		});
		cli.say({
			type: "user",
			message: {
				role: "user",
				content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "no such file", is_error: true }],
			},
		});
		expect(finished).toEqual([
			["toolu_8", false],
			["toolu_9", true],
		]);
	});

	it("answers the PreToolUse hook with the gate's decision, so a write is reviewed whatever the permission mode", async () => {
		const seen: { request: ToolUseRequest; signal: AbortSignal | undefined }[] = [];
		const gate: ToolGate = {
			decide: (request, _asking, signal) => {
				seen.push({ request, signal });
				return Promise.resolve(
					request.toolName === "Write"
						? { behavior: "deny", message: "The user rejected this change." }
						: { behavior: "allow", updatedInput: { ...request.input, new_string: "accepted" } },
				);
			},
		};
		const { cli } = session({ gate });
		cli.say({
			type: "control_request",
			request_id: "h1",
			request: hookCallback("Edit", { file_path: "/v/a.md", old_string: "x", new_string: "y" }, "toolu_1"),
		});
		cli.say({
			type: "control_request",
			request_id: "h2",
			request: hookCallback("Write", { file_path: "/v/b.md", content: "z" }, "toolu_2"),
		});
		const denied = await pollUntil(() => cli.responseTo("h2"), "the answer to the second hook");
		expect(cli.responseTo("h1")?.["response"]).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "allow",
				permissionDecisionReason: "Allowed by the Obsidian agent panel.",
				updatedInput: { file_path: "/v/a.md", old_string: "x", new_string: "accepted" },
			},
		});
		expect(denied["response"]).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: "The user rejected this change.",
			},
		});
		expect(seen.map(({ request }) => request)).toEqual([
			{
				toolName: "Edit",
				input: { file_path: "/v/a.md", old_string: "x", new_string: "y" },
				toolUseId: "toolu_1",
				cwd: "/v",
			},
			{ toolName: "Write", input: { file_path: "/v/b.md", content: "z" }, toolUseId: "toolu_2", cwd: "/v" },
		]);
		expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
	});

	it("decides a tool use once: a can_use_tool after the hook allowed it gets the hook's decision without a second review", async () => {
		let decided = 0;
		const gate: ToolGate = {
			decide: (request) => {
				decided += 1;
				return Promise.resolve({ behavior: "allow", updatedInput: { ...request.input, content: "reviewed" } });
			},
		};
		const { cli } = session({ gate });
		cli.say({
			type: "control_request",
			request_id: "h1",
			request: hookCallback("Write", { file_path: "/v/a.md", content: "draft" }, "toolu_5"),
		});
		const hook = await pollUntil(() => cli.responseTo("h1"), "the answer to the hook");
		expect(hook["response"]).toMatchObject({ hookSpecificOutput: { permissionDecision: "allow" } });
		cli.say({
			type: "control_request",
			request_id: "c1",
			request: {
				subtype: "can_use_tool",
				tool_name: "Write",
				input: { file_path: "/v/a.md", content: "reviewed" },
				tool_use_id: "toolu_5",
			},
		});
		const response = await pollUntil(() => cli.responseTo("c1"), "the answer to can_use_tool");
		expect(response["response"]).toEqual({
			behavior: "allow",
			updatedInput: { file_path: "/v/a.md", content: "reviewed" },
			toolUseID: "toolu_5",
		});
		expect(decided).toBe(1);
		// Once the tool has reported, the same id is no longer remembered.
		cli.say({
			type: "user",
			message: {
				role: "user",
				content: [{ type: "tool_result", tool_use_id: "toolu_5", content: "ok", is_error: false }],
			},
		});
		cli.say({
			type: "control_request",
			request_id: "c2",
			request: {
				subtype: "can_use_tool",
				tool_name: "Write",
				input: { file_path: "/v/a.md", content: "again" },
				tool_use_id: "toolu_5",
			},
		});
		await pollUntil(() => cli.responseTo("c2"), "the answer to the second can_use_tool");
		expect(decided).toBe(2);
	});

	it("leaves leaving plan mode to the CLI's permission request, where the gate asks and an edited plan takes; tells the gate the mode", async () => {
		const seen: ToolUseRequest[] = [];
		const gate: ToolGate = {
			decide: (request) => {
				seen.push(request);
				return Promise.resolve({ behavior: "allow", updatedInput: { ...request.input, plan: "edited" } });
			},
		};
		const { cli } = session({ gate });
		const planning = (toolName: string, input: JsonRecord, id: string): JsonRecord => {
			const request = hookCallback(toolName, input, id);
			return { ...request, input: { ...(request["input"] as JsonRecord), permission_mode: "plan" } };
		};
		cli.say({
			type: "control_request",
			request_id: "h1",
			request: planning("ExitPlanMode", { plan: "draft", planFilePath: "/p.md" }, "toolu_7"),
		});
		cli.say({
			type: "control_request",
			request_id: "h2",
			request: planning("Write", { file_path: "/p.md", content: "draft" }, "toolu_6"),
		});
		await pollUntil(() => cli.responseTo("h2"), "the answer to the plan file's hook");
		expect(cli.responseTo("h1")?.["response"]).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "ask",
				permissionDecisionReason: "The Obsidian agent panel asks the user.",
			},
		});
		expect(seen).toEqual([
			{
				toolName: "Write",
				input: { file_path: "/p.md", content: "draft" },
				toolUseId: "toolu_6",
				cwd: "/v",
				permissionMode: "plan",
			},
		]);
		cli.say({
			type: "control_request",
			request_id: "c1",
			request: {
				subtype: "can_use_tool",
				tool_name: "ExitPlanMode",
				input: { plan: "draft", planFilePath: "/p.md" },
				tool_use_id: "toolu_7",
			},
		});
		const response = await pollUntil(() => cli.responseTo("c1"), "the answer to can_use_tool");
		expect(response["response"]).toEqual({
			behavior: "allow",
			updatedInput: { plan: "edited", planFilePath: "/p.md" },
			toolUseID: "toolu_7",
		});
	});

	it("answers a hook callback it did not register with an error, which the CLI's onFailure block turns into a refusal", async () => {
		let decided = 0;
		const { cli } = session({
			gate: {
				decide: (request) => (
					(decided += 1),
					Promise.resolve({ behavior: "allow", updatedInput: { ...request.input } })
				),
			},
		});
		cli.say({
			type: "control_request",
			request_id: "h9",
			request: { ...hookCallback("Edit", {}, "toolu_9"), callback_id: "someone_else" },
		});
		const response = await pollUntil(() => cli.responseTo("h9"), "the answer to the hook");
		expect(response).toEqual({ subtype: "error", request_id: "h9", error: "unknown hook callback: someone_else" });
		expect(decided).toBe(0);
	});

	it("denies the tool use when the gate fails", async () => {
		const { cli } = session({ gate: { decide: () => Promise.reject(new Error("rules unreadable")) } });
		cli.say({
			type: "control_request",
			request_id: "cli-2",
			request: { subtype: "can_use_tool", tool_name: "Bash", input: {} },
		});
		const response = await pollUntil(() => cli.responseTo("cli-2"), "the answer to can_use_tool");
		expect(response?.["response"]).toEqual({
			behavior: "deny",
			message: "The permission check failed: rules unreadable",
		});
	});

	it("forwards mcp_message to the named in-process server and answers a notification too", async () => {
		const handled: [string, JsonRecord][] = [];
		const mcp: InProcessMcpServers = {
			names: () => ["obsidian"],
			handle: (server, wire) => {
				handled.push([server, { ...wire }]);
				return Promise.resolve(
					wire["id"] === undefined ? undefined : { jsonrpc: "2.0", id: wire["id"], result: { tools: [] } },
				);
			},
		};
		const { cli } = session({ mcp });
		cli.say({
			type: "control_request",
			request_id: "m1",
			request: {
				subtype: "mcp_message",
				server_name: "obsidian",
				message: { jsonrpc: "2.0", id: 1, method: "tools/list" },
			},
		});
		cli.say({
			type: "control_request",
			request_id: "m2",
			request: {
				subtype: "mcp_message",
				server_name: "obsidian",
				message: { jsonrpc: "2.0", method: "notifications/initialized" },
			},
		});
		cli.say({
			type: "control_request",
			request_id: "m3",
			request: {
				subtype: "mcp_message",
				server_name: "elsewhere",
				message: { jsonrpc: "2.0", id: 2, method: "tools/list" },
			},
		});
		const third = await pollUntil(() => cli.responseTo("m3"), "the answer to m3");
		expect(cli.responseTo("m1")?.["response"]).toEqual({
			mcp_response: { jsonrpc: "2.0", id: 1, result: { tools: [] } },
		});
		expect(cli.responseTo("m2")?.["response"]).toEqual({ mcp_response: { jsonrpc: "2.0", result: {}, id: 0 } });
		expect(third).toEqual({
			subtype: "error",
			request_id: "m3",
			error: "no in-process MCP server named elsewhere",
		});
		expect(handled.map(([server, wire]) => [server, wire["method"]])).toEqual([
			["obsidian", "tools/list"],
			["obsidian", "notifications/initialized"],
		]);
	});

	it("names every turn by a new id for its message, and tells the gate and the in-process servers the turn a tool use belongs to", async () => {
		const turns: (string | undefined)[] = [];
		const gate: ToolGate = {
			decide: (request, asking) => {
				turns.push(asking.turn);
				return Promise.resolve({ behavior: "allow", updatedInput: { ...request.input } });
			},
		};
		const mcp: InProcessMcpServers = {
			names: () => ["obsidian"],
			handle: (_server, wire, turn) => {
				turns.push(turn);
				return Promise.resolve({ jsonrpc: "2.0", id: wire["id"], result: {} });
			},
		};
		const { session: started, cli, events } = session({ gate, mcp });
		await gated(cli);
		started.send(message("first"));
		cli.say({
			type: "control_request",
			request_id: "h1",
			request: hookCallback("Read", { file_path: "/v/a.md" }, "toolu_1"),
		});
		await pollUntil(() => cli.responseTo("h1"), "the hook's answer");
		cli.say(result);
		started.send(message("second"));
		cli.say({
			type: "control_request",
			request_id: "m1",
			request: {
				subtype: "mcp_message",
				server_name: "obsidian",
				message: { jsonrpc: "2.0", id: 1, method: "tools/call" },
			},
		});
		await pollUntil(() => cli.responseTo("m1"), "the server's answer");
		const ids = events.flatMap((event) => (event.kind === "user-message" ? [event.id] : []));
		expect(ids).toEqual(cli.ofType("user").map((record) => record["uuid"]));
		expect(new Set(ids).size).toBe(2);
		expect(turns).toEqual(ids);
	});

	it("when the process dies mid-turn: ends the turn with the error, denies open questions, reports failed and closed", async () => {
		const gate: ToolGate = {
			decide: async (_request, asking) =>
				(await asking.ask({ id: "q", toolName: "Bash", input: {}, summary: "Bash" })).kind === "allow"
					? { behavior: "allow", updatedInput: {} }
					: { behavior: "deny", message: "no" },
		};
		const { session: started, cli, events } = session({ gate });
		started.send(message("go"));
		cli.say({
			type: "control_request",
			request_id: "c",
			request: { subtype: "can_use_tool", tool_name: "Bash", input: {} },
		});
		await pollUntil(() => events.find((event) => event.kind === "permission-request"), "the question");
		cli.events.exit({ failure: "Claude Code exited with code 1: boom" });
		expect(events.slice(-4)).toEqual([
			{ kind: "permission-settled", id: "q", outcome: "denied" },
			{ kind: "turn-end", outcome: "error", usage: {}, error: "Claude Code exited with code 1: boom" },
			{ kind: "failed", message: "Claude Code exited with code 1: boom" },
			{ kind: "closed" },
		]);
		await expect(started.interrupt()).resolves.toBeUndefined();
		await expect(started.setModel("x")).rejects.toThrow("set_model: Claude Code exited with code 1: boom");
		started.send(message("too late"));
		expect(events.at(-1)).toEqual({
			kind: "failed",
			message: "This session has ended; start a new one to send a message.",
		});
	});

	it("closes by ending the input, and kills a CLI that does not exit in time", async () => {
		const { session: started, cli, events } = session({ closeGraceMs: 20 });
		const closing = started.close();
		expect(cli.inputEnded).toBe(true);
		await pollUntil(() => (cli.signals.length > 0 ? cli.signals : undefined), "a kill");
		expect(cli.signals[0]).toBe("SIGTERM");
		cli.events.exit({ failure: "Claude Code was stopped by SIGTERM." });
		await closing;
		expect(events).toEqual([{ kind: "closed" }]);
	});
});

describe("StreamJsonSession listeners", () => {
	it("a listener that throws neither stops the other listeners nor loses the CLI's next lines", () => {
		const reported: unknown[] = [];
		const cli = new FakeCli();
		const started = new StreamJsonSession({
			gate: allowAll,
			reportError: (error) => reported.push(error),
			start: (events) => ((cli.events = events), cli),
		});
		const events: AgentEvent[] = [];
		started.onEvent(() => {
			throw new Error("the view broke");
		});
		started.onEvent((event) => events.push(event));
		started.send(message("hi"));
		cli.say({ type: "system", subtype: "init", session_id: "s", model: "m" });
		cli.say(result);
		expect(events.map((event) => event.kind)).toEqual(["user-message", "ready", "turn-end"]);
		expect(started.busy).toBe(false);
		expect(reported).toHaveLength(3);
	});
});
