import type {
	AgentEngine,
	AgentEvent,
	AgentEventListener,
	AgentPermissionMode,
	AgentSession,
	AgentSessionOptions,
	NotesBeforeTurns,
	PastSession,
	ToolPermissionAnswer,
	TurnNotes,
	UserMessage,
} from "../../src/agent/agent-session";

let messageCount = 0;

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
	/** The ids the session gave the messages it handed over, in order (as the CLI's uuids). */
	readonly messageIds: string[] = [];
	private readonly listeners = new Set<AgentEventListener>();

	constructor(
		readonly options: AgentSessionOptions,
		private readonly engine?: FakeAgentEngine,
	) {
		this.sessionId = options.fork === true ? undefined : options.resume;
	}

	/** The CLI's side: an event reaches the panel. */
	emit(event: AgentEvent): void {
		if (event.kind === "ready") this.sessionId = event.sessionId;
		if (event.kind === "user-message") this.busy = true;
		if (event.kind === "turn-end") this.busy = false;
		for (const listener of [...this.listeners]) listener(event);
		if (event.kind === "turn-end") {
			const next = this.queued.shift();
			if (next) this.handOver(next);
		}
	}

	/** The message reaches the CLI with an id of its own (the first of a new conversation has nothing before it). */
	private handOver(message: UserMessage): void {
		const id = `m${++messageCount}`;
		if (this.options.resume === undefined && this.messageIds.length === 0) this.engine?.firstMessages.add(id);
		this.messageIds.push(id);
		this.emit({ kind: "user-message", message, id });
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
		else this.handOver(message);
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
	/** The histories read: a session id, or "<id> up to <message>". */
	readonly historiesRead: string[] = [];
	/** Messages that began their conversation: nothing comes before them. */
	readonly firstMessages = new Set<string>();
	/** What `messageBefore` was asked, as `session/message`. */
	readonly askedBefore: string[] = [];
	/** The notes of turns; undefined: none (no journal). */
	notes: FakeTurnNotes | undefined = new FakeTurnNotes();

	start(options: AgentSessionOptions): FakeAgentSession {
		const session = new FakeAgentSession(options, this);
		this.sessions.push(session);
		return session;
	}

	pastSessions(): Promise<PastSession[]> {
		return Promise.resolve(this.past);
	}

	history(sessionId: string, upTo?: string): Promise<AgentEvent[]> {
		this.historiesRead.push(upTo === undefined ? sessionId : `${sessionId} up to ${upTo}`);
		return Promise.resolve(this.histories.get(sessionId) ?? []);
	}

	/** `before <id>`, or undefined for the first message of a conversation. */
	messageBefore(sessionId: string, messageId: string): Promise<string | undefined> {
		this.askedBefore.push(`${sessionId}/${messageId}`);
		return Promise.resolve(this.firstMessages.has(messageId) ? undefined : `before ${messageId}`);
	}

	turnNotes(): TurnNotes | undefined {
		return this.notes;
	}

	/** The session started last. */
	get latest(): FakeAgentSession {
		const session = this.sessions[this.sessions.length - 1];
		if (!session) throw new Error("no session started");
		return session;
	}
}

/** The notes of turns as a test sets them: what a plan finds, and the turns restored. */
export class FakeTurnNotes implements TurnNotes {
	found: NotesBeforeTurns = { restore: [], review: [], left: [] };
	readonly planned: string[][] = [];
	readonly restored: string[][] = [];

	plan(turns: readonly string[]): Promise<NotesBeforeTurns> {
		this.planned.push([...turns]);
		return Promise.resolve(this.found);
	}

	restore(turns: readonly string[]): Promise<NotesBeforeTurns> {
		this.restored.push([...turns]);
		return Promise.resolve(this.found);
	}
}
