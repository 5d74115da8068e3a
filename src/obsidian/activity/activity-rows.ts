import { groupBySession, isUndoable, type ActivityEntry } from "../../journal/activity-entries";
import { matchesFilter, type ActivityFilter } from "../../journal/activity-filter";
import type { Surface } from "../../journal/journal-records";
import { conversationTitle, entryText, isAutomatic, outcomeWords, PLACES } from "./activity-words";

/** One conversation of the journal (one session key): its title, where it took place, when it began. */
export interface Conversation {
	key: string;
	title: string;
	surface: Surface;
	startedAt: number;
}

/** A row of the activity list. */
export type ActivityRow =
	| { kind: "conversation"; conversation: Conversation; count: number; undoable: number }
	| { kind: "entry"; entry: ActivityEntry; automatic: boolean }
	/** A conversation's automatic calls, folded into one row (`open`: they are listed among its calls). */
	| { kind: "automatic"; key: string; entries: ActivityEntry[]; open: boolean };

/** What the list shows: the journal's filter, the place, and whether automatic calls are listed. */
export interface RowChoices {
	filter: ActivityFilter;
	/** One of `PLACES`' values; undefined: everywhere. */
	place?: string;
	/** Automatic calls listed in every conversation... */
	showAutomatic: boolean;
	/** ...except in these (or, when not, listed only in these). */
	flipped: ReadonlySet<string>;
}

/** The conversations of the entries (newest first), each titled from any of its records. */
export function conversationsOf(entries: readonly ActivityEntry[]): Map<string, Conversation> {
	const conversations = new Map<string, Conversation>();
	for (const group of groupBySession(entries)) {
		const oldest = group.entries[group.entries.length - 1] ?? group.entries[0];
		const startedAt = oldest?.at ?? 0;
		conversations.set(group.session.key, {
			key: group.session.key,
			// The first words of the conversation, oldest first: a resumed one keeps the title it began with.
			title: conversationTitle(group.entries.map((entry) => entry.session).reverse(), startedAt, group.entries),
			surface: group.session.surface,
			startedAt,
		});
	}
	return conversations;
}

/**
 * The rows for `entries` (newest first): each conversation that has entries the choices let through, its calls
 * newest first, and one row that folds its automatic calls (listed among the others when open).
 */
export function activityRows(
	entries: readonly ActivityEntry[],
	conversations: ReadonlyMap<string, Conversation>,
	choices: RowChoices,
): ActivityRow[] {
	const undoable = new Map<string, number>();
	for (const entry of entries)
		if (isUndoable(entry)) undoable.set(entry.session.key, (undoable.get(entry.session.key) ?? 0) + 1);
	const place = PLACES.find((candidate) => candidate.value === choices.place);
	const { text, ...fields } = choices.filter;
	const needle = text?.toLowerCase();
	const passes = (entry: ActivityEntry): boolean =>
		matchesFilter(entry, fields) &&
		(place === undefined || place.surfaces.includes(entry.session.surface)) &&
		(needle === undefined ||
			matchesFilter(entry, { text: needle }) ||
			[entryText(entry), outcomeWords(entry), conversations.get(entry.session.key)?.title ?? ""].some((words) =>
				words.toLowerCase().includes(needle),
			));
	const rows: ActivityRow[] = [];
	for (const group of groupBySession(entries.filter(passes))) {
		const key = group.session.key;
		const conversation = conversations.get(key) ?? {
			key,
			title: conversationTitle([group.session], group.entries[0]?.at ?? 0, group.entries),
			surface: group.session.surface,
			startedAt: group.entries[0]?.at ?? 0,
		};
		const open = choices.showAutomatic !== choices.flipped.has(key);
		const automatic = group.entries.filter(isAutomatic);
		rows.push({
			kind: "conversation",
			conversation,
			count: group.entries.length,
			undoable: undoable.get(key) ?? 0,
		});
		for (const entry of group.entries) {
			const folded = isAutomatic(entry);
			if (!folded || open) rows.push({ kind: "entry", entry, automatic: folded });
		}
		if (automatic.length > 0) rows.push({ kind: "automatic", key, entries: automatic, open });
	}
	return rows;
}

/** A row's identity across reads of the journal (the list keeps the row at its top in place). */
export function rowKey(row: ActivityRow): string {
	if (row.kind === "conversation") return `conversation ${row.conversation.key}`;
	if (row.kind === "automatic") return `automatic ${row.key}`;
	return row.entry.id;
}
