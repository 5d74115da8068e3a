import { pathsOf, type CallRecord, type JournalRecord, type JournalSession, type NoteChange } from "./journal-records";
import type { RecordTrust } from "./journal-seal";

/**
 * One call as the activity list shows it: the call (its ending fields absent while it runs, or when its process
 * stopped before it ended), the changes it made on disk, and when they were undone.
 */
export type ActivityEntry = Omit<CallRecord, "type" | "outcome" | "durationMs" | "answerBytes"> &
	Partial<Pick<CallRecord, "outcome" | "durationMs" | "answerBytes">> & {
		changes: NoteChange[];
		undoneAt?: number;
		/**
		 * Why the entry is unreadable, in words: a record of it was not written by this device (or was changed since),
		 * or names a path the vault does not allow. It keeps nothing of its records but its id, time, session and
		 * tool (shortened), and is never acted on.
		 */
		unreadable?: string;
		/** Why it cannot be undone though it is shown (written before records were sealed). */
		notUndoable?: string;
	};

/** How the records read back are judged (the journal's seal, the vault's paths). */
export interface RecordJudge {
	trust(record: JournalRecord): RecordTrust;
	/** Why a path a change names must not be acted on; undefined when it may be. */
	pathProblem(path: string): string | undefined;
}

export const NOT_THIS_DEVICE =
	"this device did not write it as it reads now (another device or an older version wrote it, or it was changed in the journal's folder)";
export const WRITTEN_BEFORE_SEALS = "written before this version; cannot be undone safely";
const MIXED = "its records were not all written the same way (some by this device, some not)";
/** Characters of an unreadable entry's tool and session kept for the list. */
const UNREADABLE_TEXT = 60;

/** Every record written by this device, every path allowed (records the journal itself holds in memory). */
const TRUSTED: RecordJudge = { trust: () => "device", pathProblem: () => undefined };

/** The records as entries, newest first; an entry any record of which fails `judge` is unreadable (see `ActivityEntry`). */
export function activityEntries(records: readonly JournalRecord[], judge: RecordJudge = TRUSTED): ActivityEntry[] {
	const entries = new Map<string, ActivityEntry>();
	const trusts = new Map<string, Set<RecordTrust>>();
	const problems = new Map<string, string>();
	const undone = new Map<string, { at: number; trust: RecordTrust }>();
	for (const record of records) {
		const trust = judge.trust(record);
		if (record.type === "undo") {
			// An undo record this device did not write marks nothing undone.
			if (trust !== "unreadable") undone.set(record.id, { at: record.at, trust });
			continue;
		}
		let entry = entries.get(record.id);
		if (!entry) {
			entry = {
				id: record.id,
				at: record.at,
				session: record.session,
				tool: record.tool,
				notes: [],
				args: "",
				changes: [],
			};
			entries.set(record.id, entry);
		}
		let seen = trusts.get(record.id);
		if (!seen) trusts.set(record.id, (seen = new Set()));
		seen.add(trust);
		if (record.type === "change" && !problems.has(record.id)) {
			const problem = pathsOf(record.change)
				.map((path) => judge.pathProblem(path))
				.find((found) => found !== undefined);
			if (problem !== undefined) problems.set(record.id, `it names ${problem}`);
		}
		if (record.turn !== undefined) entry.turn ??= record.turn;
		if (record.type === "call") {
			Object.assign(entry, {
				at: record.at,
				session: record.session,
				tool: record.tool,
				args: record.args,
				outcome: record.outcome,
				durationMs: record.durationMs,
				answerBytes: record.answerBytes,
				...(record.detail !== undefined ? { detail: record.detail } : {}),
			});
			addNotes(entry, record.notes);
		} else {
			entry.changes.push(record.change);
			addNotes(entry, pathsOf(record.change));
		}
	}
	for (const [id, entry] of entries) {
		const seen = trusts.get(id) ?? new Set<RecordTrust>();
		const reason = seen.has("unreadable") ? NOT_THIS_DEVICE : seen.size > 1 ? MIXED : problems.get(id);
		if (reason !== undefined) entries.set(id, unreadableEntry(entry, reason));
		else if (seen.has("older")) entry.notUndoable = WRITTEN_BEFORE_SEALS;
	}
	for (const [id, mark] of undone) {
		const entry = entries.get(id);
		// A record without a seal marks only an entry without one undone.
		if (entry && entry.unreadable === undefined && (mark.trust === "device" || entry.notUndoable !== undefined))
			entry.undoneAt = mark.at;
	}
	// Newest first; of two started in the same millisecond, the one recorded later.
	return [...entries.values()]
		.map((entry, position) => ({ entry, position }))
		.sort((a, b) => b.entry.at - a.entry.at || b.position - a.position)
		.map(({ entry }) => entry);
}

/** Entries (newest first) grouped by session, in that order: each group newest first, groups by their newest entry. */
export function groupBySession(
	entries: readonly ActivityEntry[],
): { session: JournalSession; entries: ActivityEntry[] }[] {
	const groups = new Map<string, { session: JournalSession; entries: ActivityEntry[] }>();
	for (const entry of entries) {
		let group = groups.get(entry.session.key);
		if (!group) groups.set(entry.session.key, (group = { session: entry.session, entries: [] }));
		group.entries.push(entry);
	}
	return [...groups.values()];
}

/** Whether an entry has changes that undo could take back. */
export function isUndoable(entry: ActivityEntry): boolean {
	return (
		entry.changes.length > 0 &&
		entry.undoneAt === undefined &&
		entry.unreadable === undefined &&
		entry.notUndoable === undefined
	);
}

/** What an unreadable entry keeps: its id, time, session and tool (shortened), and why. */
function unreadableEntry(entry: ActivityEntry, reason: string): ActivityEntry {
	const session: JournalSession = { key: shorten(entry.session.key), surface: entry.session.surface };
	return {
		id: shorten(entry.id),
		at: entry.at,
		session,
		tool: shorten(entry.tool),
		notes: [],
		args: "",
		changes: [],
		unreadable: reason,
	};
}

function shorten(text: string): string {
	return text.length <= UNREADABLE_TEXT ? text : `${text.slice(0, UNREADABLE_TEXT - 1)}…`;
}

function addNotes(entry: ActivityEntry, paths: readonly string[]): void {
	for (const path of paths) if (!entry.notes.includes(path)) entry.notes.push(path);
}
