/** Where a call came from. */
export type Surface = "ide" | "vault-tools-stdio" | "vault-tools-relay" | "vault-tools-http" | "panel" | "other";

export const SURFACES: readonly Surface[] = [
	"ide",
	"vault-tools-stdio",
	"vault-tools-relay",
	"vault-tools-http",
	"panel",
	"other",
];

/** How a call ended, as the user reads it. */
export type CallOutcome = "ok" | "error" | "refused" | "rejected";

export const CALL_OUTCOMES: readonly CallOutcome[] = ["ok", "error", "refused", "rejected"];

/** One client's session on one surface. `key` is unique across runs; the rest says who it was. */
export interface JournalSession {
	key: string;
	surface: Surface;
	/** The client's name from `initialize`, e.g. `claude-code`. */
	client?: string;
	/** The CLI's process id (`ide_connected`). */
	pid?: number;
	/** The connection's number in the process that served it. */
	connection?: number;
	/**
	 * The conversation's title: the user's first words (the panel's conversations; `journal-conversation.ts`). Read
	 * back only through `titleToShow`: older journals have none, and anyone may have written the file.
	 */
	title?: string;
}

/**
 * A conversation turn's id, as the agent panel names a turn: the id it gave the user's message that began it (the
 * Claude Code CLI's uuid of that message). Read back as untrusted input, it must have this form.
 */
export const TURN_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** One call, written when it ended. Never holds a token, a private note's name or text, or more than an excerpt of a note. */
export interface CallRecord {
	type: "call";
	id: string;
	/** When the call started (ms since the epoch). */
	at: number;
	session: JournalSession;
	/** The conversation turn that made the call (the agent panel's); absent for other surfaces and older records. */
	turn?: string;
	/** The tool (`tools/call`) or the method (`files/read`, `resources/read`, …). */
	tool: string;
	/** The visible notes it named or changed (vault paths). */
	notes: string[];
	/** A short summary of its arguments. */
	args: string;
	outcome: CallOutcome;
	/** The first line of an error or refusal, shortened; withheld when the call named a private note. */
	detail?: string;
	durationMs: number;
	/** The answer's size in UTF-8 bytes. */
	answerBytes: number;
	/** This device's seal of the record (`journal-seal.ts`); absent in records written before records were sealed. */
	mac?: string;
}

/** A note's bytes before a change: their hash (the blob's name in the store) and their size. */
export interface PreImage {
	hash: string;
	bytes: number;
}

/** A note a move rewrote (its path after the move), with its bytes before and the hash of its bytes after. */
export interface RewrittenNote {
	path: string;
	before: PreImage;
	after: string;
}

/** What a write did on disk, with what undo needs. */
export type NoteChange =
	| { kind: "edit"; path: string; before: PreImage; after: string }
	| { kind: "create"; path: string; after: string }
	| { kind: "move"; from: string; to: string; after: string; rewrites: RewrittenNote[] };

/** A write that reached disk, written right after it did (before its call ends). */
export interface ChangeRecord {
	type: "change";
	/** The call it belongs to. */
	id: string;
	at: number;
	session: JournalSession;
	/** The conversation turn whose call made the change, as its call record names it. */
	turn?: string;
	tool: string;
	change: NoteChange;
	/** This device's seal of the record (`journal-seal.ts`); absent in records written before records were sealed. */
	mac?: string;
}

/** The user undid a call's changes. */
export interface UndoRecord {
	type: "undo";
	id: string;
	at: number;
	/** This device's seal of the record (`journal-seal.ts`); absent in records written before records were sealed. */
	mac?: string;
}

export type JournalRecord = CallRecord | ChangeRecord | UndoRecord;

/**
 * What the journal's bounds read of a stored record: whose call it is, when, and a change's pre-images. A store may
 * give only this of a call's or an undo's line, read without parsing the rest (`scanJournalLines`).
 */
export type RecordHead = Pick<CallRecord | UndoRecord, "type" | "id" | "at"> | ChangeRecord;

/** The pre-images a record needs kept (blob hashes). */
export function blobsOf(record: RecordHead): PreImage[] {
	if (record.type !== "change") return [];
	const change = record.change;
	if (change.kind === "edit") return [change.before];
	if (change.kind === "move") return change.rewrites.map((rewrite) => rewrite.before);
	return [];
}

/** The vault paths a change touched. */
export function pathsOf(change: NoteChange): string[] {
	if (change.kind === "move") return [change.from, change.to, ...change.rewrites.map((rewrite) => rewrite.path)];
	return [change.path];
}
