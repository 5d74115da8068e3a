import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
	AgentEvent,
	AgentSession,
	InProcessMcpServers,
	McpWireMessage,
	ToolGate,
	ToolUseRequest,
} from "../../src/agent/agent-session";
import { StreamJsonEngine } from "../../src/agent/engine/stream-json-engine";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { useBridgeSessions } from "./harness/bridge-session";
import { claudeBinaryPath } from "./harness/cli-binary";
import { headlessCliEnv, makeClaudeHome } from "./harness/claude-home";
import { lastUserText, requestText } from "./harness/messages-request";
import type { MockAnthropic } from "./harness/mock-anthropic";
import { slowTextTurn, textTurn, toolUseTurn } from "./harness/sse-reply";

/**
 * The agent panel's engine against the pinned real CLI in stream-json mode, with the mock model API: each test
 * has its own vault, HOME and mock.
 */

const TURN_TIMEOUT_MS = 60_000;
const { startMock, onCleanup } = useBridgeSessions(180_000);

/** Asks about every tool but the test's in-process server's, and answers the ask as the test's user does. */
function askingGate(): ToolGate {
	let asked = 0;
	return {
		decide: async (request, session) => {
			if (request.toolName.startsWith("mcp__obsidian__"))
				return { behavior: "allow", updatedInput: { ...request.input } };
			asked += 1;
			const answer = await session.ask({
				id: `ask-${asked}`,
				toolName: request.toolName,
				input: request.input,
				summary: `${request.toolName}: ${JSON.stringify(request.input)}`,
			});
			return answer.kind === "allow"
				? { behavior: "allow", updatedInput: { ...request.input } }
				: { behavior: "deny", message: answer.reason ?? "Denied in the panel." };
		},
	};
}

/**
 * Allows reads, and reviews an Edit as the panel's gate does: each Edit it sees is recorded with the file's text at
 * that moment, and answered with `editAnswer`.
 */
function reviewingGate(
	file: string,
	editAnswer: "allow" | "deny",
): ToolGate & { edits: { request: ToolUseRequest; fileAtReview: string }[] } {
	const edits: { request: ToolUseRequest; fileAtReview: string }[] = [];
	return {
		edits,
		decide: (request) => {
			if (request.toolName === "Edit") {
				edits.push({ request, fileAtReview: readFileSync(file, "utf8") });
				if (editAnswer === "deny")
					return Promise.resolve({
						behavior: "deny",
						message: "The user rejected this change: keep the old title.",
					});
			}
			return Promise.resolve({ behavior: "allow", updatedInput: { ...request.input } });
		},
	};
}

/** A tiny MCP server answering initialize, tools/list and tools/call for one tool, `ping`. */
function pingServer(): InProcessMcpServers & { calls: McpWireMessage[] } {
	const calls: McpWireMessage[] = [];
	const results: Record<string, (message: McpWireMessage) => Record<string, unknown>> = {
		initialize: (message) => ({
			protocolVersion:
				(message["params"] as { protocolVersion?: string } | undefined)?.protocolVersion ?? "2025-06-18",
			capabilities: { tools: {} },
			serverInfo: { name: "obsidian-test", version: "0.0.1" },
		}),
		"tools/list": () => ({
			tools: [
				{
					name: "ping",
					description: "Answers pong.",
					inputSchema: { type: "object", properties: { note: { type: "string" } } },
				},
			],
		}),
		"tools/call": () => ({ content: [{ type: "text", text: "pong from the vault" }] }),
	};
	return {
		calls,
		names: () => ["obsidian"],
		handle: (_server, message) => {
			calls.push(message);
			const method = String(message["method"]);
			if (message["id"] === undefined) return Promise.resolve(undefined);
			const result = results[method];
			return Promise.resolve(
				result
					? { jsonrpc: "2.0", id: message["id"], result: result(message) }
					: { jsonrpc: "2.0", id: message["id"], error: { code: -32601, message: `no ${method}` } },
			);
		},
	};
}

interface Fixture {
	mock: MockAnthropic;
	vault: string;
	engine: (options?: { mcp?: InProcessMcpServers; cliPath?: string; gate?: ToolGate }) => StreamJsonEngine;
}

async function fixture(): Promise<Fixture> {
	const mock = await startMock();
	const vault = makeTempDir("agent-vault");
	const home = makeClaudeHome([vault.path]);
	onCleanup(() => {
		home.remove();
		vault.remove();
	});
	const env = headlessCliEnv(home.path, mock.baseUrl);
	return {
		mock,
		vault: vault.path,
		engine: (options = {}) =>
			new StreamJsonEngine({
				vaultRoot: vault.path,
				cliPath: () => options.cliPath ?? claudeBinaryPath(),
				gate: options.gate ?? askingGate(),
				env,
				...(options.mcp && { mcp: options.mcp }),
			}),
	};
}

/** A session's events as they arrive, with the time each arrived. */
function record(session: AgentSession): {
	events: AgentEvent[];
	times: number[];
	next: <K extends AgentEvent["kind"]>(kind: K, since?: number) => Promise<Extract<AgentEvent, { kind: K }>>;
} {
	const events: AgentEvent[] = [];
	const times: number[] = [];
	session.onEvent((event) => {
		events.push(event);
		times.push(Date.now());
	});
	onCleanup(() => session.close());
	return {
		events,
		times,
		next: <K extends AgentEvent["kind"]>(kind: K, since = 0) =>
			pollUntil(
				() =>
					events.slice(since).find((event): event is Extract<AgentEvent, { kind: K }> => event.kind === kind),
				() => `a ${kind} event (after #${since}; got ${events.map((event) => event.kind).join(", ")})`,
				{ timeoutMs: TURN_TIMEOUT_MS, intervalMs: 20 },
			),
	};
}

const message = (text: string): { text: string; attachments: [] } => ({ text, attachments: [] });

describe("agent engine with the real CLI in stream-json mode", () => {
	it("streams a turn's text in several deltas before the turn ends, with usage and cost", async () => {
		const { mock, engine } = await fixture();
		mock.enqueue({
			content: [
				{
					type: "text",
					text: "Hello from the mock model.",
					parts: ["Hello", " from", " the", " mock", " model."],
				},
			],
		});
		const session = engine().start({ permissionMode: "default" });
		const seen = record(session);
		const sentAt = Date.now();
		session.send(message("Say hello"));
		// The CLI reports system/init once a message arrives, not at start.
		const ready = await seen.next("ready");
		expect(ready.cliVersion).toBe("2.1.330");
		expect(ready.slashCommands).toContain("compact");
		const end = await seen.next("turn-end");
		const deltas = seen.events.filter(
			(event): event is Extract<AgentEvent, { kind: "text-delta" }> => event.kind === "text-delta",
		);
		expect(deltas.length).toBeGreaterThanOrEqual(2);
		expect(deltas.map((delta) => delta.text).join("")).toBe("Hello from the mock model.");
		expect(seen.events.indexOf(deltas[deltas.length - 1] as AgentEvent)).toBeLessThan(seen.events.indexOf(end));
		expect(end).toMatchObject({ outcome: "done", usage: { inputTokens: 100, outputTokens: 10 } });
		expect(end.usage.costUsd).toBeGreaterThan(0);
		const request = await mock.waitForMainRequest();
		expect(lastUserText(request.body)).toContain("Say hello");
		const firstDeltaAt = seen.times[seen.events.indexOf(deltas[0] as AgentEvent)] ?? NaN;
		// Figures for the report, not assertions: our part is send → request (the CLI's start, on the first message),
		// the CLI's and the mock's the rest. The second message runs in the warm process.
		const since = seen.events.length;
		const warmSentAt = Date.now();
		session.send(message("Again"));
		const warmDelta = await seen.next("text-delta", since);
		const warmDeltaAt = seen.times[seen.events.indexOf(warmDelta)] ?? NaN;
		const warmRequest = await mock.waitForMainRequest({ since: 1 });
		await seen.next("turn-end", since);
		process.stdout.write(
			`\nagent engine, first message (cold CLI): send → first text-delta ${firstDeltaAt - sentAt} ms (send → mock request ${request.receivedAt - sentAt} ms, mock request → first delta ${firstDeltaAt - request.receivedAt} ms)\n`,
		);
		process.stdout.write(
			`agent engine, second message (warm): send → first text-delta ${warmDeltaAt - warmSentAt} ms (send → mock request ${warmRequest.receivedAt - warmSentAt} ms, mock request → first delta ${warmDeltaAt - warmRequest.receivedAt} ms)\n`,
		);
	});

	it("interrupts a slow turn, and the session takes the next message", async () => {
		const { mock, engine } = await fixture();
		mock.enqueue(
			slowTextTurn(
				Array.from({ length: 200 }, (_, index) => `word${index} `),
				250,
			),
			textTurn("After the stop."),
		);
		const session = engine().start({ permissionMode: "default" });
		const seen = record(session);
		session.send(message("Write a long essay"));
		await seen.next("text-delta");
		await session.interrupt();
		const end = await seen.next("turn-end");
		expect(end.outcome).toBe("interrupted");
		const streamed = seen.events.filter((event) => event.kind === "text-delta").length;
		expect(streamed).toBeLessThan(200);
		const since = seen.events.length;
		session.send(message("Are you there?"));
		const second = await seen.next("turn-end", since);
		expect(second.outcome).toBe("done");
		expect(
			seen.events
				.slice(since)
				.some((event) => event.kind === "text-delta" && event.text.includes("After the stop.")),
		).toBe(true);
	});

	it("resumes a closed session: the resumed turn's request carries the earlier messages, and history lists it", async () => {
		const { mock, engine } = await fixture();
		mock.enqueue(textTurn("Noted: the word is PELICAN."), textTurn("It was PELICAN."));
		const first = engine().start({ permissionMode: "default" });
		const firstSeen = record(first);
		first.send(message("Remember the word pelican"));
		await firstSeen.next("turn-end");
		const sessionId = first.sessionId;
		expect(sessionId).toBeDefined();
		await first.close();
		expect(firstSeen.events.at(-1)).toEqual({ kind: "closed" });

		const past = await engine().pastSessions();
		expect(past).toEqual([
			{ sessionId, firstLine: "Remember the word pelican", updatedAt: expect.any(String) as unknown },
		]);
		const history = await engine().history(sessionId ?? "");
		// The message keeps the id the session gave it: the CLI's record names it so.
		const sent = firstSeen.events.find((event) => event.kind === "user-message");
		expect(sent?.kind === "user-message" && sent.id).toEqual(expect.any(String));
		expect(history).toEqual(
			expect.arrayContaining([
				{
					kind: "user-message",
					message: message("Remember the word pelican"),
					id: sent?.kind === "user-message" ? sent.id : undefined,
				},
			]),
		);
		expect(
			history.some((event) => event.kind === "text-delta" && event.text.includes("Noted: the word is PELICAN.")),
		).toBe(true);

		const requestsBefore = mock.mainRequests.length;
		const resumed = engine().start({ permissionMode: "default", resume: sessionId });
		const resumedSeen = record(resumed);
		resumed.send(message("Which word was it?"));
		await resumedSeen.next("turn-end");
		expect((await resumedSeen.next("ready")).sessionId).toBe(sessionId);
		const request = await mock.waitForMainRequest({ since: requestsBefore });
		const text = requestText(request.body);
		expect(text).toContain("Remember the word pelican");
		expect(text).toContain("Noted: the word is PELICAN.");
		expect(lastUserText(request.body)).toContain("Which word was it?");
	});

	it("asks before Bash runs, and a denial reaches the model while the command never ran", async () => {
		const { mock, vault, engine } = await fixture();
		const target = join(vault, "made-by-bash.txt");
		mock.enqueue(
			toolUseTurn("Bash", { command: `touch ${target}`, description: "Create a file" }),
			textTurn("Understood, I will not."),
		);
		const session = engine().start({ permissionMode: "default" });
		const seen = record(session);
		session.send(message("Create the file"));
		const asked = await seen.next("permission-request");
		expect(asked.request).toMatchObject({ toolName: "Bash", input: { command: `touch ${target}` } });
		session.answerPermission(asked.request.id, { kind: "deny", reason: "Not in my vault, please." });
		const end = await seen.next("turn-end");
		expect(end.outcome).toBe("done");
		expect(seen.events).toEqual(
			expect.arrayContaining([
				{ kind: "permission-settled", id: asked.request.id, outcome: "denied" },
				expect.objectContaining({
					kind: "tool-result",
					isError: true,
					text: expect.stringContaining("Not in my vault, please.") as unknown,
				}),
			]),
		);
		const followUp = await mock.waitForMainRequest({ since: 1 });
		expect(lastUserText(followUp.body)).toContain("Not in my vault, please.");
		expect(existsSync(target)).toBe(false);
	});

	it("in acceptEdits mode an Edit of a vault note reaches the gate before the file changes, and a denial leaves it unchanged with the reason told to the model", async () => {
		const { mock, vault, engine } = await fixture();
		const note = join(vault, "Plan.md");
		writeFileSync(note, "# Old title\n");
		const gate = reviewingGate(note, "deny");
		mock.enqueue(
			toolUseTurn("Read", { file_path: note }),
			toolUseTurn("Edit", { file_path: note, old_string: "# Old title", new_string: "# New title" }),
			textTurn("I kept the old title."),
		);
		const session = engine({ gate }).start({ permissionMode: "acceptEdits" });
		const seen = record(session);
		session.send(message("Rename the title"));
		expect((await seen.next("turn-end")).outcome).toBe("done");
		expect(gate.edits).toHaveLength(1);
		expect(gate.edits[0]?.request).toMatchObject({
			toolName: "Edit",
			input: { file_path: note, old_string: "# Old title", new_string: "# New title" },
		});
		expect(gate.edits[0]?.fileAtReview).toBe("# Old title\n");
		expect(readFileSync(note, "utf8")).toBe("# Old title\n");
		const followUp = await mock.waitForMainRequest({ since: 2 });
		expect(lastUserText(followUp.body)).toContain("The user rejected this change: keep the old title.");
	});

	it("in default mode an Edit of a vault note is reviewed exactly once, and the accepted edit is written", async () => {
		const { mock, vault, engine } = await fixture();
		const note = join(vault, "Plan.md");
		writeFileSync(note, "# Old title\n");
		const gate = reviewingGate(note, "allow");
		mock.enqueue(
			toolUseTurn("Read", { file_path: note }),
			toolUseTurn("Edit", { file_path: note, old_string: "# Old title", new_string: "# New title" }),
			textTurn("Renamed."),
		);
		const session = engine({ gate }).start({ permissionMode: "default" });
		const seen = record(session);
		session.send(message("Rename the title"));
		expect((await seen.next("turn-end")).outcome).toBe("done");
		expect(gate.edits).toHaveLength(1);
		expect(gate.edits[0]?.fileAtReview).toBe("# Old title\n");
		expect(readFileSync(note, "utf8")).toBe("# New title\n");
	});

	it("in default mode a Read of a private note reaches the gate, and its refusal keeps the note's text from the model", async () => {
		const { mock, vault, engine } = await fixture();
		const secret = join(vault, "diary.md");
		writeFileSync(secret, "The code word is MARMALADE.\n");
		const reads: ToolUseRequest[] = [];
		const gate: ToolGate = {
			decide: (request) => {
				reads.push(request);
				return Promise.resolve(
					request.toolName === "Read"
						? { behavior: "deny", message: "File does not exist." }
						: { behavior: "allow", updatedInput: { ...request.input } },
				);
			},
		};
		mock.enqueue(toolUseTurn("Read", { file_path: secret }), textTurn("There is no such note."));
		const session = engine({ gate }).start({ permissionMode: "default" });
		const seen = record(session);
		session.send(message("Read my diary"));
		expect((await seen.next("turn-end")).outcome).toBe("done");
		expect(reads).toEqual([expect.objectContaining({ toolName: "Read", input: { file_path: secret } })]);
		const followUp = await mock.waitForMainRequest({ since: 1 });
		expect(lastUserText(followUp.body)).toContain("File does not exist.");
		expect(requestText(followUp.body)).not.toContain("MARMALADE");
	});

	it("answers a tool call through the in-process MCP server over the control channel", async () => {
		const { mock, engine } = await fixture();
		const server = pingServer();
		mock.enqueue(toolUseTurn("mcp__obsidian__ping", { note: "A.md" }), textTurn("The vault answered."));
		const session = engine({ mcp: server }).start({ permissionMode: "default" });
		const seen = record(session);
		session.send(message("Ping the vault"));
		const end = await seen.next("turn-end");
		expect(end.outcome).toBe("done");
		const call = await seen.next("tool-call");
		expect(call).toMatchObject({ toolName: "mcp__obsidian__ping", input: { note: "A.md" } });
		expect(await seen.next("tool-result")).toEqual({
			kind: "tool-result",
			toolUseId: call.toolUseId,
			isError: false,
			text: "pong from the vault",
		});
		expect(server.calls.map((call) => call["method"])).toEqual(
			expect.arrayContaining(["initialize", "tools/list", "tools/call"]),
		);
		const followUp = await mock.waitForMainRequest({ since: 1 });
		expect(lastUserText(followUp.body)).toContain("pong from the vault");
		expect(seen.events.some((event) => event.kind === "permission-request")).toBe(false);
	});

	it("switches the model and the permission mode through control requests, for the next turn", async () => {
		const { mock, engine } = await fixture();
		mock.enqueue(textTurn("First."), textTurn("Second."));
		const session = engine().start({ permissionMode: "default" });
		const seen = record(session);
		session.send(message("One"));
		await seen.next("turn-end");
		await session.setModel("claude-sonnet-4-5");
		await session.setPermissionMode("plan");
		const since = seen.events.length;
		const requestsBefore = mock.mainRequests.length;
		session.send(message("Two"));
		await seen.next("turn-end", since);
		expect((await seen.next("ready", since)).model).toBe("claude-sonnet-4-5");
		const request = await mock.waitForMainRequest({ since: requestsBefore });
		expect(request.body["model"]).toBe("claude-sonnet-4-5");
		const first = mock.mainRequests[requestsBefore - 1];
		expect(first?.body["model"]).not.toBe("claude-sonnet-4-5");
		// Plan mode is announced to the model in a reminder that the first turn's request did not have.
		expect(requestText(first?.body ?? {})).not.toMatch(/plan mode is active/i);
		expect(requestText(request.body)).toMatch(/plan mode is active/i);
	});

	it("reports a missing CLI with a clear message naming the setting", async () => {
		const { engine, vault } = await fixture();
		const missing = join(vault, "no-such-claude");
		writeFileSync(join(vault, "note.md"), "a note, so the vault is not empty");
		const session = engine({ cliPath: missing }).start({ permissionMode: "default" });
		const seen = record(session);
		const failed = await seen.next("failed");
		expect(failed.message).toBe(
			`Claude Code was not found at ${missing}. Install Claude Code, or set "Claude Code executable" in this plugin's settings.`,
		);
		await seen.next("closed");
	});
});
