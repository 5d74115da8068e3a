import type { AgentEvent, AgentSession, PromptContent } from "../agent-session";
import { ReplacementReader } from "./replacement-reply";

/** What an inline edit's Claude has done with the last request, as the editor shows it. */
export type InlineEditUpdate =
	/** The new passage so far ("" until Claude started it). */
	| { kind: "writing"; text: string }
	/** The whole new passage. */
	| { kind: "proposed"; text: string }
	/** Claude answered without a new passage (it cannot do it, or asks back): its words. */
	| { kind: "answered"; reply: string }
	/** The user stopped Claude before it finished. */
	| { kind: "stopped" }
	| { kind: "failed"; message: string };

/** An accepted change, as the activity journal records it. */
export interface AcceptedChange {
	/** The note's vault path. */
	path: string;
	/** The note's whole text once the change is written. */
	text: string;
	/** One line for the journal: what was asked, and what was accepted. */
	summary: string;
}

/** Records an accepted change in the activity journal around `write`, which makes it (the note's bytes before it are kept for Undo). */
export type ChangeRecorder = (change: AcceptedChange, write: () => Promise<void>) => Promise<void>;

/**
 * One inline edit's Claude: a text-only session of the user's Claude Code (no tools, so it can only propose) that
 * answers each request with a new passage, read as it streams. Follow-ups go to the same session, so Claude keeps
 * what was asked before. Accepted changes are recorded through the journal's port, one journal session per run.
 */
export class InlineEditRun {
	private listener: ((update: InlineEditUpdate) => void) | undefined;
	private reader: ReplacementReader | undefined;
	private shown: string | undefined;
	private closed = false;

	constructor(
		private readonly session: AgentSession,
		private readonly recorder: ChangeRecorder,
	) {
		session.onEvent((event) => this.onEvent(event));
	}

	/** True while Claude works on a request. */
	get busy(): boolean {
		return this.listener !== undefined;
	}

	/** True once the session closed (by `close`, or its Claude Code stopped): it takes no more requests. */
	get ended(): boolean {
		return this.closed;
	}

	/**
	 * Sends a request (`words` as the user typed them, `prompt` what Claude receives) about `passage`, the text it
	 * rewrites; `listener` hears of it until it ends. A request while one runs is refused.
	 */
	ask(words: string, prompt: PromptContent, passage: string, listener: (update: InlineEditUpdate) => void): void {
		if (this.closed) {
			listener({ kind: "failed", message: "This inline edit has ended: ask again." });
			return;
		}
		if (this.busy) throw new Error("Claude is still answering the last request");
		this.reader = new ReplacementReader(passage);
		this.shown = undefined;
		this.listener = listener;
		this.session.send({ text: words, attachments: [], prompt });
	}

	/** Stops Claude's answer; what it wrote so far is not proposed. */
	async stop(): Promise<void> {
		if (this.busy) await this.session.interrupt();
	}

	record(change: AcceptedChange, write: () => Promise<void>): Promise<void> {
		return this.recorder(change, write);
	}

	/** Ends the session (its Claude Code process); a request still running hears nothing more. */
	async close(): Promise<void> {
		this.closed = true;
		this.listener = undefined;
		await this.session.close();
	}

	private onEvent(event: AgentEvent): void {
		switch (event.kind) {
			case "text-delta":
				this.reader?.append(event.text);
				this.showProgress();
				return;
			case "turn-end":
				if (event.outcome === "done") this.finish();
				else if (event.outcome === "interrupted") this.end({ kind: "stopped" });
				else this.end({ kind: "failed", message: event.error ?? "Claude Code reported an error." });
				return;
			case "permission-request":
				// A text-only session has no tool to ask about; should one ask, it is refused.
				this.session.answerPermission(event.request.id, {
					kind: "deny",
					reason: "An inline edit uses no tools.",
				});
				return;
			case "failed":
				this.end({ kind: "failed", message: event.message });
				return;
			case "closed":
				this.end({ kind: "failed", message: "Claude Code stopped before it answered." });
				this.closed = true;
				return;
			default:
				return;
		}
	}

	private showProgress(): void {
		const text = this.reader?.current()?.text ?? "";
		if (text === this.shown) return;
		this.shown = text;
		this.listener?.({ kind: "writing", text });
	}

	private finish(): void {
		const reader = this.reader;
		const replacement = reader?.current(true);
		// A reply that opened the passage but never closed it still proposes what it wrote.
		if (replacement) this.end({ kind: "proposed", text: replacement.text });
		else this.end({ kind: "answered", reply: reader?.text.trim() || "Claude answered nothing." });
	}

	private end(update: InlineEditUpdate): void {
		const listener = this.listener;
		this.listener = undefined;
		listener?.(update);
	}
}
