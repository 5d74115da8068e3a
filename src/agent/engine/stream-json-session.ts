/**
 * One panel session: a `claude` process in stream-json mode, driven over its control protocol. It queues the
 * user's messages while a turn runs, routes `can_use_tool` and its PreToolUse hook to the tool gate and
 * `mcp_message` to the in-process MCP servers, and turns everything the CLI prints into `AgentEvent`s.
 */
import { randomUUID } from "node:crypto";
import { clearTimeout, setTimeout } from "node:timers";
import { initializeOffers } from "./initialize-offers";
import type {
	AgentEvent,
	AgentEventListener,
	AgentPermissionMode,
	AgentSession,
	AskingSession,
	InProcessMcpServers,
	ToolGate,
	ToolPermissionAnswer,
	ToolPermissionRequest,
	ToolUseDecision,
	UserMessage,
} from "../agent-session";
import { CliEventMapper } from "./cli-event-mapper";
import type { CliExit, CliProcess, CliProcessEvents } from "../claude-cli/cli-process";
import { ControlChannel } from "./control-channel";
import { isJsonRecord, type JsonRecord } from "../claude-cli/json-lines";
import { promptText } from "./mention-text";
import { PermissionQuestions } from "./permission-questions";

export interface StreamJsonSessionPorts {
	gate: ToolGate;
	mcp?: InProcessMcpServers;
	/** Starts the process; the session passes the callbacks the process reports to. */
	start(events: CliProcessEvents): CliProcess;
	/** Where an error thrown by an event listener goes (it never reaches the CLI's stream); default: dropped. */
	reportError?: (error: unknown) => void;
	/** How long `close()` lets the CLI exit on its own before it is killed. Default 5 s. */
	closeGraceMs?: number;
}

const DEFAULT_CLOSE_GRACE_MS = 5_000;

/**
 * The CLI sends `can_use_tool` only for what its permission mode and its own judgement do not already allow
 * (`acceptEdits` writes, `default` reads in the working folder, shell commands it classes as read-only such as
 * `cat` or `grep -rn`, the Monitor tool). A PreToolUse hook matching every tool ("*") fires before each use of
 * every tool in every mode, subagents' included, so nothing the CLI deems safe skips the gate.
 */
const HOOKED_TOOLS = "*";
const HOOK_CALLBACK_ID = "obsidian_tool_gate";
/** Seconds the CLI waits for the hook's answer (a review may stay open a long while); then it refuses the tool. */
const HOOK_TIMEOUT_SECONDS = 24 * 60 * 60;
const PRE_TOOL_USE_HOOKS = {
	// "block": an error answer refuses the tool instead of letting it run unreviewed.
	PreToolUse: [
		{
			matcher: HOOKED_TOOLS,
			hookCallbackIds: [HOOK_CALLBACK_ID],
			timeout: HOOK_TIMEOUT_SECONDS,
			onFailure: "block",
		},
	],
};

/**
 * Tools the hook leaves to the CLI's permission request (`can_use_tool`), where the gate decides them: the CLI reads
 * the plan again from its file after a hook's answer, so a plan the user edited before approving it takes only as
 * the answer to that request (measured with 2.1.330; the CLI always asks about ExitPlanMode after a hook's "ask").
 */
const DECIDED_IN_PERMISSION_REQUEST: ReadonlySet<string> = new Set(["ExitPlanMode"]);

export class StreamJsonSession implements AgentSession {
	private readonly listeners = new Set<AgentEventListener>();
	private readonly mapper = new CliEventMapper();
	private readonly questions = new PermissionQuestions((event) => this.emit(event));
	private readonly control: ControlChannel;
	private readonly process: CliProcess;
	private readonly queue: UserMessage[] = [];
	private readonly exited: Promise<void>;
	/** Tool uses the hook allowed, by tool use id: a `can_use_tool` that follows for one is answered without a second review. */
	private readonly hookAllowed = new Map<string, ToolUseDecision>();
	private markExited: () => void = () => undefined;
	private currentSessionId: string | undefined;
	private turnRunning = false;
	/** The id of the user's message whose turn runs (or ran last): the CLI keeps it as that message's uuid. */
	private currentTurn: string | undefined;
	/** The CLI answered `initialize`: the hook every tool use passes through is in place. */
	private gated = false;
	/** The first message's write, held until the CLI is gated (the turn shows as running meanwhile). */
	private waitingForGate: (() => void) | undefined;
	private interruptRequested = false;
	private closing = false;
	private ended = false;

	constructor(
		private readonly ports: StreamJsonSessionPorts,
		resume?: string,
	) {
		this.currentSessionId = resume;
		this.exited = new Promise((resolve) => (this.markExited = resolve));
		this.control = new ControlChannel(
			(record) => this.process.write(record),
			(request, signal) => this.answerControl(request, signal),
		);
		this.process = ports.start({
			message: (record) => this.receive(record),
			skipped: () => undefined,
			exit: (exit) => this.onExit(exit),
		});
		const servers = ports.mcp?.names() ?? [];
		// No message goes to the CLI before it has taken the hook: it handles a message while its answer to `initialize`
		// is still being made (it connects the in-process servers first), and would run tools ungated meanwhile.
		this.control
			.request({
				subtype: "initialize",
				hooks: PRE_TOOL_USE_HOOKS,
				...(servers.length > 0 && { sdkMcpServers: [...servers] }),
			})
			.then(
				(answer) => {
					this.gated = true;
					const offers = initializeOffers(answer);
					if (offers) this.emit(offers);
					const write = this.waitingForGate;
					this.waitingForGate = undefined;
					write?.();
				},
				(error: unknown) => this.refuseToRun(error),
			);
	}

	get sessionId(): string | undefined {
		return this.currentSessionId;
	}

	get busy(): boolean {
		return this.turnRunning;
	}

	onEvent(listener: AgentEventListener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	send(message: UserMessage): void {
		if (this.ended) {
			this.emit({ kind: "failed", message: "This session has ended; start a new one to send a message." });
			return;
		}
		this.queue.push(message);
		if (!this.turnRunning) this.sendNext();
	}

	async interrupt(): Promise<void> {
		if (!this.turnRunning || this.ended) return;
		this.interruptRequested = true;
		await this.control.request({ subtype: "interrupt" });
	}

	async setPermissionMode(mode: AgentPermissionMode): Promise<void> {
		await this.control.request({ subtype: "set_permission_mode", mode });
	}

	async setModel(model: string | undefined): Promise<void> {
		await this.control.request({ subtype: "set_model", model: model ?? null });
	}

	answerPermission(id: string, answer: ToolPermissionAnswer): void {
		this.questions.answer(id, answer);
	}

	async close(): Promise<void> {
		if (!this.ended && !this.closing) {
			this.closing = true;
			this.process.endInput();
			const grace = this.ports.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
			const timer = setTimeout(() => this.process.kill("SIGTERM"), grace);
			const hardTimer = setTimeout(() => this.process.kill("SIGKILL"), grace * 2);
			await this.exited;
			clearTimeout(timer);
			clearTimeout(hardTimer);
		}
		await this.exited;
	}

	/**
	 * The CLI did not take the hook every tool use passes through: running on would let tools run unreviewed, so the
	 * session stops (a CLI that exited first has said why already).
	 */
	private refuseToRun(error: unknown): void {
		if (this.ended || this.closing) return;
		const why = error instanceof Error ? error.message : String(error);
		this.emit({
			kind: "failed",
			message: `Claude Code did not accept the panel's review and privacy checks (${why}), so this session was stopped before anything ran. Update Claude Code, then start a new session.`,
		});
		this.closing = true;
		this.process.kill("SIGTERM");
	}

	private emit(event: AgentEvent): void {
		for (const listener of this.listeners) {
			try {
				listener(event);
			} catch (error) {
				this.ports.reportError?.(error);
			}
		}
	}

	private sendNext(): void {
		const message = this.queue.shift();
		if (message === undefined) return;
		this.turnRunning = true;
		this.interruptRequested = false;
		const id = randomUUID();
		this.currentTurn = id;
		const write = (): void =>
			this.process.write({
				type: "user",
				message: { role: "user", content: promptText(message) },
				parent_tool_use_id: null,
				session_id: this.currentSessionId ?? "",
				uuid: id,
			});
		if (this.gated) write();
		else this.waitingForGate = write;
		this.emit({ kind: "user-message", message, id });
	}

	private receive(record: JsonRecord): void {
		if (this.control.accept(record)) return;
		for (const event of this.mapper.map(record, this.interruptRequested)) {
			if (event.kind === "ready") this.currentSessionId = event.sessionId;
			if (event.kind === "tool-result") {
				this.hookAllowed.delete(event.toolUseId);
				this.toolFinished(event.toolUseId, event.isError);
			}
			// A listener that reads `busy` on turn-end must see the turn over.
			if (event.kind === "turn-end") this.turnRunning = false;
			this.emit(event);
			if (event.kind === "turn-end") this.sendNext();
		}
	}

	private async answerControl(request: JsonRecord, signal: AbortSignal): Promise<JsonRecord> {
		switch (request["subtype"]) {
			case "can_use_tool":
				return this.decideToolUse(request, signal);
			case "hook_callback":
				return this.answerHook(request, signal);
			case "mcp_message":
				return this.forwardMcp(request);
			default:
				throw new Error(`unsupported control request: ${String(request["subtype"])}`);
		}
	}

	private async decideToolUse(request: JsonRecord, signal: AbortSignal): Promise<JsonRecord> {
		const toolName = typeof request["tool_name"] === "string" ? request["tool_name"] : "";
		const input = isJsonRecord(request["input"]) ? request["input"] : {};
		const toolUseId = typeof request["tool_use_id"] === "string" ? request["tool_use_id"] : undefined;
		const decided = toolUseId === undefined ? undefined : this.hookAllowed.get(toolUseId);
		const decision = decided ?? (await this.decide(toolName, input, toolUseId, signal));
		return { ...decision, ...(toolUseId !== undefined && { toolUseID: toolUseId }) };
	}

	/** The PreToolUse hook: the gate decides before the tool runs, whatever the permission mode lets through. */
	private async answerHook(request: JsonRecord, signal: AbortSignal): Promise<JsonRecord> {
		if (request["callback_id"] !== HOOK_CALLBACK_ID)
			throw new Error(`unknown hook callback: ${String(request["callback_id"])}`);
		const hookInput = isJsonRecord(request["input"]) ? request["input"] : {};
		if (hookInput["hook_event_name"] !== "PreToolUse")
			throw new Error(`unexpected hook event: ${String(hookInput["hook_event_name"])}`);
		const toolName = typeof hookInput["tool_name"] === "string" ? hookInput["tool_name"] : "";
		const input = isJsonRecord(hookInput["tool_input"]) ? hookInput["tool_input"] : {};
		const given = request["tool_use_id"] ?? hookInput["tool_use_id"];
		const toolUseId = typeof given === "string" ? given : undefined;
		const cwd = typeof hookInput["cwd"] === "string" ? hookInput["cwd"] : undefined;
		const mode = typeof hookInput["permission_mode"] === "string" ? hookInput["permission_mode"] : undefined;
		if (DECIDED_IN_PERMISSION_REQUEST.has(toolName))
			return {
				hookSpecificOutput: {
					hookEventName: "PreToolUse",
					permissionDecision: "ask",
					permissionDecisionReason: "The Obsidian agent panel asks the user.",
				},
			};
		const decision = await this.decide(toolName, input, toolUseId, signal, { cwd, permissionMode: mode });
		if (decision.behavior === "allow" && toolUseId !== undefined) this.hookAllowed.set(toolUseId, decision);
		return {
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				...(decision.behavior === "allow"
					? {
							permissionDecision: "allow",
							permissionDecisionReason: "Allowed by the Obsidian agent panel.",
							updatedInput: decision.updatedInput,
						}
					: { permissionDecision: "deny", permissionDecisionReason: decision.message }),
			},
		};
	}

	private async decide(
		toolName: string,
		input: JsonRecord,
		toolUseId: string | undefined,
		signal: AbortSignal,
		where: { cwd?: string | undefined; permissionMode?: string | undefined } = {},
	): Promise<ToolUseDecision> {
		try {
			const request = {
				toolName,
				input,
				...(toolUseId !== undefined && { toolUseId }),
				...(where.cwd !== undefined && { cwd: where.cwd }),
				...(where.permissionMode !== undefined && { permissionMode: where.permissionMode }),
			};
			return await this.ports.gate.decide(request, this.askingSession(signal), signal);
		} catch (error) {
			return {
				behavior: "deny",
				message: `The permission check failed: ${error instanceof Error ? error.message : String(error)}`,
			};
		}
	}

	/** What the gate may do with this session while it decides one tool use the CLI asked about. */
	private toolFinished(toolUseId: string, isError: boolean): void {
		try {
			void Promise.resolve(this.ports.gate.toolFinished?.(toolUseId, isError)).catch(() => undefined);
		} catch {
			// The gate's bookkeeping never stops the session.
		}
	}

	private askingSession(signal: AbortSignal): AskingSession {
		return {
			sessionId: this.currentSessionId,
			...(this.currentTurn !== undefined && { turn: this.currentTurn }),
			ask: (request: ToolPermissionRequest) => this.questions.ask(request, signal),
			reviewing: (toolUseId, decision) =>
				this.emit(
					decision === undefined
						? { kind: "review-waiting", toolUseId }
						: { kind: "review-decided", toolUseId, decision },
				),
		};
	}

	private async forwardMcp(request: JsonRecord): Promise<JsonRecord> {
		const server = request["server_name"];
		const message = request["message"];
		if (typeof server !== "string" || !isJsonRecord(message))
			throw new Error("mcp_message without server_name or message");
		if (!this.ports.mcp?.names().includes(server)) throw new Error(`no in-process MCP server named ${server}`);
		const reply = await this.ports.mcp.handle(server, message, this.currentTurn);
		// A notification has no reply; the CLI still waits for an answer to its control request.
		return { mcp_response: reply ?? { jsonrpc: "2.0", result: {}, id: 0 } };
	}

	private onExit(exit: CliExit): void {
		this.ended = true;
		const reason = exit.failure ?? "Claude Code has exited.";
		this.control.close(reason);
		this.questions.withdrawAll();
		if (this.turnRunning) {
			this.turnRunning = false;
			this.emit({
				kind: "turn-end",
				outcome: this.closing ? "interrupted" : "error",
				usage: {},
				...(!this.closing && { error: reason }),
			});
		}
		// A failure the session's own close caused is no news; a CLI that never started always is.
		if (exit.failure !== undefined && (!this.closing || exit.neverStarted === true))
			this.emit({ kind: "failed", message: exit.failure });
		this.emit({ kind: "closed" });
		this.markExited();
	}
}
