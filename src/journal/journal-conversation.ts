import { PRIVATE_NOTE, redactTokens, type NoteReferences } from "./argument-summary";
import type { Journal } from "./journal";
import type { JournalSession, Surface } from "./journal-records";
import { lazyRegExp } from "../shared/lazy-regexp";

/** Characters of a conversation's title the journal keeps, and shows. */
export const MAX_TITLE = 80;

/** The form of a Claude Code session id the journal keys a conversation by (the CLI's are UUIDs). */
const CLAUDE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/**
 * One conversation as the journal groups it: every recorder of it (the panel's vault tools and its own writes)
 * writes under one session key, with the conversation's title once the user's first words are known. The key is
 * Claude Code's session id's when it is known before the first record (`isClaudeSession`), so that a conversation
 * resumed later (a new panel tab, or after a restart) goes on in the same group; otherwise a new key of its own.
 */
export class JournalConversation {
	private given: string | undefined;
	private named: string | undefined;

	/** @param references what the notes named in the user's words are (a private one is never kept by name) */
	constructor(
		private readonly journal: Pick<Journal, "newSessionKey">,
		readonly surface: Surface,
		readonly client?: string,
		private readonly references?: NoteReferences,
	) {}

	/** The key of every record of this conversation: fixed once asked for, so one conversation is one group. */
	get key(): string {
		return (this.given ??= this.journal.newSessionKey());
	}

	/**
	 * This conversation is Claude Code's session `sessionId` (the one it resumes, or the one it reported when it
	 * started): its records are kept under that session's key, unless a record was already kept under another.
	 */
	isClaudeSession(sessionId: string): void {
		if (this.given === undefined && CLAUDE_SESSION_ID.test(sessionId)) this.given = claudeSessionKey(sessionId);
	}

	/** The title from the user's first words; later words leave it as it is. Words that keep nothing name nothing. */
	name(words: string): void {
		this.named ??= titleToKeep(words, this.references);
	}

	get title(): string | undefined {
		return this.named;
	}

	/** The session a record of this conversation names (`extra`: what a recorder knows of its own connection). */
	session(extra: Pick<JournalSession, "client" | "pid" | "connection"> = {}): JournalSession {
		const client = extra.client ?? this.client;
		return {
			key: this.key,
			surface: this.surface,
			...(client !== undefined ? { client } : {}),
			...(extra.pid !== undefined ? { pid: extra.pid } : {}),
			...(extra.connection !== undefined ? { connection: extra.connection } : {}),
			...(this.named !== undefined ? { title: this.named } : {}),
		};
	}
}

/** The journal key of the conversation that is Claude Code's session `sessionId` (any surface's own keys differ). */
export function claudeSessionKey(sessionId: string): string {
	return `claude-${sessionId}`;
}

/** Note references in the user's words (`@path`, `@"a path"`, `[[link]]`, `[[link|shown words]]`): what each names. */
const NOTE_REFERENCE = /@"([^"]*)"|@(\S+)|!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]/gu;
/** A note named in the user's words when nothing can tell whether it is private. */
const A_NOTE = "(a note)";
/** Control and format characters (line breaks, bidirectional overrides, zero-width marks); made on first use (lazy-regexp.ts). */
const INVISIBLE = lazyRegExp(String.raw`[\p{Cc}\p{Cf}\u2028\u2029]+`, "gu");

/**
 * What the journal keeps of a conversation's first words: the first line, each note it names by its name as typed
 * (a private note only as "(a private note)"; each as "(a note)" when there are no `references` to tell), nothing that looks like a
 * token, at most MAX_TITLE characters; undefined when nothing is left.
 */
export function titleToKeep(words: string, references?: NoteReferences): string | undefined {
	const firstLine = words.trim().split(/\r?\n/, 1)[0] ?? "";
	const named = firstLine.replace(
		NOTE_REFERENCE,
		(_reference, quoted?: string, bare?: string, link?: string, shown?: string) => {
			const target = (quoted ?? bare ?? link ?? "").trim();
			if (!references) return A_NOTE;
			if (target === "" || references.classify(target) === "private") return PRIVATE_NOTE;
			return (shown ?? target).trim();
		},
	);
	return clean(redactTokens(named));
}

/**
 * A session's title as read back from the journal, which anyone who can write its folder may have written: a
 * string only, without control or format characters, at most MAX_TITLE characters; undefined otherwise.
 */
export function titleToShow(session: JournalSession): string | undefined {
	const title: unknown = session.title;
	return typeof title === "string" ? clean(title) : undefined;
}

function clean(text: string): string | undefined {
	const words = text.replace(INVISIBLE(), " ").replace(/\s+/g, " ").trim();
	if (words === "") return undefined;
	return words.length <= MAX_TITLE ? words : `${words.slice(0, MAX_TITLE - 1).trimEnd()}…`;
}
