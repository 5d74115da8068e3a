/**
 * The agent panel's contract between the engine (a Claude Code process driven over stream-json) and the panel
 * view. The view only sees these types; the engine only emits them. No `obsidian` here.
 */
import type { ReviewDecision } from "../review/edit-proposal";

/** How Claude Code asks before acting: the CLI's own permission modes that the panel offers. */
export type AgentPermissionMode = "default" | "plan" | "acceptEdits";

/** What the CLI reported about a turn's cost. Fields are absent when the CLI did not report them. */
export interface TurnUsage {
	inputTokens?: number;
	outputTokens?: number;
	cacheReadTokens?: number;
	cacheCreationTokens?: number;
	costUsd?: number;
	durationMs?: number;
}

/** A note the user attached to a message (the active note, its selection, an `@` mention or a dropped note). */
export interface MessageAttachment {
	/** Vault path. */
	path: string;
	/** 1-based inclusive lines of a selection, when only a part is attached. */
	lines?: { from: number; to: number };
}

/**
 * An image the user attached to a message: a file of the vault, read when the message is sent through the privacy
 * boundary, or bytes from no vault file (pasted, or dropped from outside the vault). An image of a past session's
 * message has neither: only its name is known.
 */
export interface MessageImage {
	/** The file's name: the chip's label and the thumbnail's alt text. */
	name: string;
	/** Vault path. */
	path?: string;
	bytes?: Uint8Array;
}

/** The image types the Messages API reads. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/**
 * A block of a user message's content as the Messages API takes it (the CLI passes `document` blocks through
 * untouched, and `image` blocks on, scaled or re-encoded when the API would refuse them).
 */
export type PromptBlock =
	| { type: "text"; text: string }
	| { type: "image"; source: { type: "base64"; media_type: ImageMediaType; data: string } }
	| {
			type: "document";
			title: string;
			context: string;
			source: { type: "text"; media_type: "text/plain"; data: string };
	  };

/** A user message's `content` for the CLI: plain text, or blocks when something is attached. */
export type PromptContent = string | readonly PromptBlock[];

/** What the user sends: the typed text and what is attached to it. */
export interface UserMessage {
	text: string;
	attachments: readonly MessageAttachment[];
	/** Images sent with the message. */
	images?: readonly MessageImage[];
	/** What the user attached that did not go with the message, and why, in their words (read at send time). */
	notSent?: readonly string[];
	/**
	 * What the CLI receives, once the panel read the attachments through the privacy boundary (`AttachingSession`);
	 * without it the CLI receives the typed text alone, its `@` mentions made inert (see `mention-text.ts`).
	 */
	prompt?: PromptContent;
}

/** A question the panel must answer before Claude may use a tool that is neither a file write nor a vault tool. */
export interface ToolPermissionRequest {
	/** Unique within the session. */
	id: string;
	/** The tool use it asks about, when the CLI named it: its card waits for the answer too. */
	toolUseId?: string;
	toolName: string;
	input: Readonly<Record<string, unknown>>;
	/** One line a user can judge, e.g. `Bash: npm test`. */
	summary: string;
	/** For a shell command: what Claude says it does, the folder it runs in, and whether the shell's sandbox holds the private places out. */
	shell?: ShellCommandFacts;
	/** The answers the user may give; absent: once, for this session, and always. */
	scopes?: readonly PermissionScope[];
	/** Claude asks to leave plan mode: the plan it asks the user to approve (Markdown), which the user may edit. */
	plan?: string;
}

/** How long an "allow" answer holds. */
export type PermissionScope = "once" | "session" | "always";

export interface ShellCommandFacts {
	command: string;
	/** Claude's own words for what the command does; absent when it gave none. */
	description?: string;
	/** The folder the command runs in, vault-relative ("" for the vault's top). */
	folder: string;
	/** The CLI's sandbox runs it with private folders, private notes and the config folder held out. */
	sandboxed: boolean;
	/** Why it runs without the sandbox, in words ("bubblewrap (bwrap) is not installed"), when known. */
	unsandboxedBecause?: string;
	/**
	 * Sandboxed, but notes private by a tag are not held out: the sandbox can only deny a note by its path, and Claude
	 * Code tells the model every path its sandbox denies, which would name them.
	 */
	tagPrivateReadable?: boolean;
}

/** The user's answer to a `ToolPermissionRequest`; `plan`: the plan as the user approved it, when they changed it. */
export type ToolPermissionAnswer =
	{ kind: "allow"; scope: PermissionScope; plan?: string } | { kind: "deny"; reason?: string };

/** A slash command the CLI offers. */
export interface OfferedCommand {
	name: string;
	description: string;
}

/** A model the CLI offers; `value` is what `setModel` takes ("default" is the CLI's own choice). */
export interface OfferedModel {
	value: string;
	label: string;
	description: string;
}

/**
 * How the user decided a review of Claude's edit, as the panel tells it: the review floor's `ReviewDecision` without
 * the accepted text (the panel shows the decision, not the note) and without `failed` (no decision was made).
 */
export type ReviewDecisionWords =
	{ kind: "accepted"; edited: boolean } | Extract<ReviewDecision, { kind: "rejected" | "withdrawn" }>;

/** Everything a session tells the panel, in order. */
export type AgentEvent =
	/** The CLI started (or resumed) and reported what it offers. */
	| { kind: "ready"; sessionId: string; model?: string; slashCommands: readonly string[]; cliVersion?: string }
	/** What the CLI offers, from its first answer (before any message): slash commands and models. */
	| { kind: "offers"; commands: readonly OfferedCommand[]; models: readonly OfferedModel[] }
	/**
	 * The user's message was handed to the CLI (after waiting in the queue, if Claude was busy). `id` names the message
	 * in the CLI's record of the conversation (its uuid) and the turn it begins (the journal's `turn`).
	 */
	| { kind: "user-message"; message: UserMessage; id?: string }
	/** Streamed text of Claude's reply; `blockId` groups the deltas of one reply block. */
	| { kind: "text-delta"; blockId: string; text: string }
	/** That reply block is complete (the model closed it); no more deltas follow for `blockId`. */
	| { kind: "text-end"; blockId: string }
	/** A tool call Claude made. */
	| { kind: "tool-call"; toolUseId: string; toolName: string; input: Readonly<Record<string, unknown>> }
	/** A tool call's result, as Claude received it. */
	| { kind: "tool-result"; toolUseId: string; isError: boolean; text: string }
	/** Claude asks to use a tool; the panel answers with `answerPermission`. */
	| { kind: "permission-request"; request: ToolPermissionRequest }
	/** The CLI changed its permission mode itself (an approved plan leaves plan mode). */
	| { kind: "permission-mode"; mode: string }
	/** A permission request was settled (answered by the user, by a rule, or withdrawn). */
	| { kind: "permission-settled"; id: string; outcome: "allowed" | "denied" }
	/** An edit Claude proposed with `toolUseId` waits in the review for the user's decision. */
	| { kind: "review-waiting"; toolUseId: string }
	/** The user decided that review; `reason` is what they gave for a rejection. */
	| { kind: "review-decided"; toolUseId: string; decision: ReviewDecisionWords }
	/** The turn ended. */
	| { kind: "turn-end"; outcome: "done" | "interrupted" | "error"; usage: TurnUsage; error?: string }
	/** The CLI could not start or stopped; `message` says what to do. */
	| { kind: "failed"; message: string }
	| { kind: "closed" };

export type AgentEventListener = (event: AgentEvent) => void;

/** One Claude Code session running in the vault. */
export interface AgentSession {
	/** The CLI's session id once known (for resume and the history list). */
	readonly sessionId: string | undefined;
	/** True while a turn runs. */
	readonly busy: boolean;
	/** Sends a message; queued while a turn runs, sent when it ends. */
	send(message: UserMessage): void;
	/** Stops the running turn; queued messages stay queued. */
	interrupt(): Promise<void>;
	setPermissionMode(mode: AgentPermissionMode): Promise<void>;
	setModel(model: string | undefined): Promise<void>;
	answerPermission(id: string, answer: ToolPermissionAnswer): void;
	onEvent(listener: AgentEventListener): () => void;
	/** Ends the CLI process. */
	close(): Promise<void>;
}

/** How a session starts: new, or resuming a past one by the CLI's session id. */
export interface AgentSessionOptions {
	resume?: string;
	/**
	 * With `resume`: the conversation goes on from just after this message (an id `AgentEngine.messageBefore` gave),
	 * leaving out everything after it (the CLI's `--resume-session-at`).
	 */
	resumeAt?: string;
	/** With `resume`: a new session that begins as a copy of that one, which is left as it was (`--fork-session`). */
	fork?: boolean;
	model?: string;
	permissionMode: AgentPermissionMode;
	/**
	 * A session that only writes text (an inline edit in a note): no tool at all, built-in or MCP, so nothing can be
	 * read or written behind the user's back; this system prompt instead of Claude Code's own; not kept among the
	 * past sessions. Absent: a panel session.
	 */
	textOnly?: { systemPrompt: string };
}

/** A past session, as the history list shows it. */
export interface PastSession {
	sessionId: string;
	/** The first line the user wrote. */
	firstLine: string;
	/** ISO time of the last activity. */
	updatedAt: string;
}

/** Starts sessions and lists past ones for one vault. */
export interface AgentEngine {
	start(options: AgentSessionOptions): AgentSession;
	pastSessions(): Promise<PastSession[]>;
	/**
	 * The transcript of a past session, to show it before resuming: the conversation as it goes on now, or, with
	 * `upTo` (a message of its record a rewind went back to), as it stood at that message.
	 */
	history(sessionId: string, upTo?: string): Promise<AgentEvent[]>;
	/**
	 * The message the user's message `messageId` follows in the session's conversation (what a `resumeAt` there keeps);
	 * undefined when it is the conversation's first. Throws when the session holds no such message of the user's.
	 */
	messageBefore(sessionId: string, messageId: string): Promise<string | undefined>;
	/** The notes Claude changed during turns, and putting them back; undefined while that cannot be done (no journal). */
	turnNotes?(): TurnNotes | undefined;
}

/** The notes Claude changed during some turns, as rewinding to before those turns finds (or left) them. */
export interface NotesBeforeTurns {
	/** Put back as they were before the turns, byte for byte (a note Claude made then goes to the trash). */
	restore: string[];
	/** Changed since by someone else: each opens in the review, where the user chooses what it holds. */
	review: string[];
	/** Not put back, with the reason in words. */
	left: { path: string; reason: string }[];
}

/** The notes Claude changed during turns of a conversation (turns named by their user message's id). */
export interface TurnNotes {
	/** What `restore` would do now; nothing is written. */
	plan(turns: readonly string[]): Promise<NotesBeforeTurns>;
	/** Puts the notes back now; those in `review` are written once the user decides in the review. */
	restore(turns: readonly string[]): Promise<NotesBeforeTurns>;
}

/** A tool Claude is about to use, as the CLI asks before running it (`can_use_tool`). */
export interface ToolUseRequest {
	toolUseId?: string;
	toolName: string;
	input: Readonly<Record<string, unknown>>;
	/** The folder the CLI runs the tool in (its shell keeps the folder a command moved to), when it said. */
	cwd?: string;
	/** The CLI's permission mode when it asked (its PreToolUse hook says), e.g. "plan". */
	permissionMode?: string;
}

/** What the CLI is told: run the tool (with this input, possibly changed by the user), or do not, and why. */
export type ToolUseDecision =
	| { behavior: "allow"; updatedInput: Record<string, unknown> }
	| { behavior: "deny"; message: string; interrupt?: boolean };

/** What a gate may do with the session that asks: put a question to the user in the panel. */
export interface AskingSession {
	readonly sessionId: string | undefined;
	/** The turn the tool use belongs to (its user message's id), when known: the journal records it with a write. */
	readonly turn?: string;
	ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer>;
	/** Tells the panel an edit waits in the review (no decision yet), or how the user decided it. */
	reviewing?: ReviewNews;
}

/** An edit's review as the panel hears of it: shown (no decision), then decided. */
export type ReviewNews = (toolUseId: string, decision?: ReviewDecisionWords) => void;

/**
 * Decides every tool use before it runs: file writes go to the review view, the vault's own tools run (they
 * review their own writes), anything else is asked in the panel unless a rule already answers it.
 */
export interface ToolGate {
	/** `signal` aborts when the CLI withdraws the question (the turn was interrupted). */
	decide(request: ToolUseRequest, session: AskingSession, signal?: AbortSignal): Promise<ToolUseDecision>;
	/** A tool the gate allowed has finished (its result reached Claude): e.g. journal what a write left on disk. */
	toolFinished?(toolUseId: string, isError: boolean): void | Promise<void>;
}

/** A JSON-RPC message as it crosses the CLI's control channel (`mcp_message`). */
export type McpWireMessage = Readonly<Record<string, unknown>>;

/** MCP servers that run inside the panel's process and reach the CLI over its control channel (no port, no token). */
export interface InProcessMcpServers {
	/** The server names given to the CLI (`--mcp-config` entries of type `sdk`). */
	names(): readonly string[];
	/** Answers one message to the named server, sent during `turn` (its user message's id); undefined for a notification. */
	handle(server: string, message: McpWireMessage, turn?: string): Promise<McpWireMessage | undefined>;
}
