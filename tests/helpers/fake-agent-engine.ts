import type {
	AgentEngine,
	AgentEvent,
	AgentEventListener,
	AgentPermissionMode,
	AgentSession,
	AgentSessionOptions,
	PastSession,
	ToolPermissionAnswer,
	UserMessage,
} from "../../src/agent/agent-session";

/**
 * A scripted stand-in for the panel's engine (NOT the engine): it records what the panel asks of it, and the test
 * plays the CLI's side with `emit`. It keeps the contract's queue: a message sent while a turn runs waits, and is
 * handed over (`user-message`) when the turn ends.
 */
export class FakeAgentSession implements AgentSession {
	sessionId: string | undefined;
	busy = false;
	readonly sent: UserMessage[] = [];
	readonly queued: UserMessage[] = [];
	readonly answers: { id: string; answer: ToolPermissionAnswer }[] = [];
	readonly modes: AgentPermissionMode[] = [];
	readonly models: (string | undefined)[] = [];
	interrupts = 0;
	closed = false;
	private readonly listeners = new Set<AgentEventListener>();

	constructor(readonly options: AgentSessionOptions) {
		this.sessionId = options.resume;
	}

	/** The CLI's side: an event reaches the panel. */
	emit(event: AgentEvent): void {
		if (event.kind === "ready") this.sessionId = event.sessionId;
		if (event.kind === "user-message") this.busy = true;
		if (event.kind === "turn-end") this.busy = false;
		for (const listener of [...this.listeners]) listener(event);
		if (event.kind === "turn-end") {
			const next = this.queued.shift();
			if (next) this.emit({ kind: "user-message", message: next });
		}
	}

	/** A whole turn: Claude's reply streamed in `chunks`, then the turn's end with this usage. */
	reply(chunks: readonly string[], blockId = `b${Math.random()}`): void {
		for (const text of chunks) this.emit({ kind: "text-delta", blockId, text });
		this.emit({
			kind: "turn-end",
			outcome: "done",
			usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.0123 },
		});
	}

	send(message: UserMessage): void {
		this.sent.push(message);
		if (this.busy) this.queued.push(message);
		else this.emit({ kind: "user-message", message });
	}

	interrupt(): Promise<void> {
		this.interrupts++;
		if (this.busy) this.emit({ kind: "turn-end", outcome: "interrupted", usage: {} });
		return Promise.resolve();
	}

	setPermissionMode(mode: AgentPermissionMode): Promise<void> {
		this.modes.push(mode);
		return Promise.resolve();
	}

	setModel(model: string | undefined): Promise<void> {
		this.models.push(model);
		return Promise.resolve();
	}

	answerPermission(id: string, answer: ToolPermissionAnswer): void {
		this.answers.push({ id, answer });
	}

	onEvent(listener: AgentEventListener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** How many listeners the panel holds (0 once its tab is closed). */
	get listenerCount(): number {
		return this.listeners.size;
	}

	close(): Promise<void> {
		this.closed = true;
		this.emit({ kind: "closed" });
		return Promise.resolve();
	}
}

export class FakeAgentEngine implements AgentEngine {
	readonly sessions: FakeAgentSession[] = [];
	past: PastSession[] = [];
	readonly histories = new Map<string, AgentEvent[]>();

	start(options: AgentSessionOptions): FakeAgentSession {
		const session = new FakeAgentSession(options);
		this.sessions.push(session);
		return session;
	}

	pastSessions(): Promise<PastSession[]> {
		return Promise.resolve(this.past);
	}

	history(sessionId: string): Promise<AgentEvent[]> {
		return Promise.resolve(this.histories.get(sessionId) ?? []);
	}

	/** The session started last. */
	get latest(): FakeAgentSession {
		const session = this.sessions[this.sessions.length - 1];
		if (!session) throw new Error("no session started");
		return session;
	}
}
