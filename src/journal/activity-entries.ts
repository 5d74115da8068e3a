import { pathsOf, type CallRecord, type JournalRecord, type JournalSession, type NoteChange } from "./journal-records";

/**
 * One call as the activity list shows it: the call (its ending fields absent while it runs, or when its process
 * stopped before it ended), the changes it made on disk, and when they were undone.
 */
export type ActivityEntry = Omit<CallRecord, "type" | "outcome" | "durationMs" | "answerBytes"> &
	Partial<Pick<CallRecord, "outcome" | "durationMs" | "answerBytes">> & {
		changes: NoteChange[];
		undoneAt?: number;
	};

/** The records as entries, newest first. */
export function activityEntries(records: readonly JournalRecord[]): ActivityEntry[] {
	const entries = new Map<string, ActivityEntry>();
	const undone = new Map<string, number>();
	for (const record of records) {
		if (record.type === "undo") {
			undone.set(record.id, record.at);
			continue;
		}
		let entry = entries.get(record.id);
		if (!entry) {
			entry = { id: record.id, at: record.at, session: record.session, tool: record.tool, notes: [], args: "", changes: [] };
			entries.set(record.id, entry);
		}
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
	for (const [id, at] of undone) {
		const entry = entries.get(id);
		if (entry) entry.undoneAt = at;
	}
	// Newest first; of two started in the same millisecond, the one recorded later.
	return [...entries.values()]
		.map((entry, position) => ({ entry, position }))
		.sort((a, b) => b.entry.at - a.entry.at || b.position - a.position)
		.map(({ entry }) => entry);
}

/** Entries (newest first) grouped by session, in that order: each group newest first, groups by their newest entry. */
export function groupBySession(entries: readonly ActivityEntry[]): { session: JournalSession; entries: ActivityEntry[] }[] {
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
	return entry.changes.length > 0 && entry.undoneAt === undefined;
}

function addNotes(entry: ActivityEntry, paths: readonly string[]): void {
	for (const path of paths) if (!entry.notes.includes(path)) entry.notes.push(path);
}
