import { isJsonObject, type JsonObject } from "../protocol/json-rpc";
import type {
	ObservedOutcome,
	ObservedRequest,
	RequestObservation,
	RequestObserver,
} from "../protocol/request-observer";
import { summarizeArguments, summarizeDetail, type ArgumentSummary, type NoteReferences } from "./argument-summary";
import type { CallDescription, CallEnd, CallSource, Journal } from "./journal";
import type { JournalConversation } from "./journal-conversation";
import type { CallOutcome, JournalSession, Surface } from "./journal-records";

/** How a finished call reads in the journal: its outcome, and the first line of what went wrong. */
export type OutcomeClassifier = (tool: string, outcome: ObservedOutcome) => { outcome: CallOutcome; message?: string };

export interface CallRecorderOptions {
	journal: Journal;
	surface: Surface;
	references: NoteReferences;
	classify: OutcomeClassifier;
	/** The client's name when the session never says it (a relay). */
	client?: string;
	/** The connection's number, when the session's own id is not it. */
	connection?: number;
	/** Whether a call is recorded once it ends (e.g. the stdio server records only what it answered itself). Default: all. */
	keep?: (journalId: string) => boolean;
	/** The conversation the calls belong to (its key and title), when other recorders share it. Default: a session of its own. */
	conversation?: JournalConversation;
	/** The conversation turn running when a call starts (the agent panel's CLI session), recorded with the call. */
	turn?: () => string | undefined;
}

/** Lifecycle and listing methods: not calls a user would look for in the activity list. */
const UNRECORDED = new Set([
	"initialize",
	"ping",
	"tools/list",
	"resources/list",
	"resources/templates/list",
	"prompts/list",
	"logging/setLevel",
]);

/**
 * Records one session's calls in the journal (a `RequestObserver` on its `McpSession`): every request but the
 * lifecycle and listing ones, with the session's surface, client and pid, the tool or method, its arguments'
 * summary (judged by the privacy rules in force when the record is written), the outcome, the duration and the
 * answer's size.
 */
export class CallRecorder implements RequestObserver {
	/** The calls' session key: the conversation's, asked for at its first recorded call, else one of their own. */
	private readonly key: () => string;
	private client: string | undefined;
	/** The session as last recorded: the same object while its client, pid and connection stay the same. */
	private lastSession: JournalSession | undefined;

	constructor(private readonly options: CallRecorderOptions) {
		const { conversation } = options;
		if (conversation) this.key = () => conversation.key;
		else {
			const key = options.journal.newSessionKey();
			this.key = () => key;
		}
		this.client = options.client;
	}

	started(request: ObservedRequest): RequestObservation | undefined {
		// Stateless HTTP sees `initialize` in one request and the calls in others: the name is remembered here.
		if (request.method === "initialize") {
			const info = request.params.clientInfo;
			if (isJsonObject(info) && typeof info.name === "string") this.client ??= info.name;
		}
		if (UNRECORDED.has(request.method)) return undefined;
		const toolCall = request.method === "tools/call";
		const tool = toolCall && typeof request.params.name === "string" ? request.params.name : request.method;
		const args: JsonObject = toolCall
			? isJsonObject(request.params.arguments)
				? { ...request.params.arguments }
				: {}
			: { ...request.params };
		return new RecordedCall(this.options, this.session(request), tool, args, this.options.turn?.());
	}

	private session(request: ObservedRequest): JournalSession {
		const client = request.session.client?.name ?? this.client;
		const pid = request.session.pid;
		const connection = this.options.connection ?? request.session.id;
		const title = this.options.conversation?.title;
		const key = this.key();
		const last = this.lastSession;
		if (
			last &&
			last.key === key &&
			last.client === client &&
			last.pid === pid &&
			(last.connection ?? 0) === (connection > 0 ? connection : 0) &&
			last.title === title
		)
			return last;
		const session: JournalSession = {
			key,
			surface: this.options.surface,
			...(client !== undefined ? { client } : {}),
			...(pid !== undefined ? { pid } : {}),
			...(connection > 0 ? { connection } : {}),
			...(title !== undefined ? { title } : {}),
		};
		this.lastSession = session;
		return session;
	}
}

/**
 * One call being recorded: the journal's start of it (its arguments are summarized by the privacy rules when the
 * record is written, with other calls' records, not while the call runs; at once for a failure whose message the
 * summary governs) and the session's hold on it.
 */
class RecordedCall implements RequestObservation, CallSource {
	readonly id: string;
	private readonly startedAt = performance.now();
	private summary: ArgumentSummary | undefined;

	constructor(
		private readonly options: CallRecorderOptions,
		readonly session: JournalSession,
		readonly tool: string,
		private readonly args: JsonObject,
		readonly turn: string | undefined,
	) {
		this.id = options.journal.begin(this);
	}

	describe(): CallDescription {
		const { notes, text } = this.summarize();
		return { notes, args: text };
	}

	finished(outcome: ObservedOutcome): void {
		const { journal, keep } = this.options;
		if (keep && !keep(this.id)) {
			journal.forget(this.id);
			return;
		}
		const { outcome: kind, message } = this.options.classify(this.tool, outcome);
		const end: CallEnd = {
			outcome: kind,
			durationMs: Math.round((performance.now() - this.startedAt) * 10) / 10,
			answerBytes: outcome.bytes,
		};
		const detail = message === undefined ? undefined : summarizeDetail(message, this.summarize().private);
		if (detail !== undefined) end.detail = detail;
		journal.finish(this.id, end);
	}

	private summarize(): ArgumentSummary {
		return (this.summary ??= summarizeArguments(this.args, this.options.references));
	}
}
