import { groupBySession, type ActivityEntry } from "../journal/activity-entries";
import { parseActivityFilter } from "../journal/activity-filter";
import type { Journal } from "../journal/journal";
import type { JournalSession, NoteChange } from "../journal/journal-records";
import type { Undo, UndoResult } from "../journal/undo";
import type { HeadlessCommand } from "./command-loop";

/** Entries `activity` prints unless `--all` is given. */
export const ACTIVITY_LIMIT = 100;

/** `activity [--all] [filter]` and `undo <entry id> | undo --session <key>`: the journal without the app. */
export function activityCommands(activity: { journal: Journal; undo?: Undo }): [string, HeadlessCommand][] {
	return [
		[
			"activity",
			{
				usage: "activity [--all] [filter]",
				summary:
					"Claude's calls, newest first by session (filter: session: surface: tool: note: outcome: writes, free text)",
				run: async (args) => {
					const all = args.includes("--all");
					const filter = parseActivityFilter(args.filter((arg) => arg !== "--all"));
					return formatActivity(await activity.journal.entries(filter), all ? Infinity : ACTIVITY_LIMIT);
				},
			},
		],
		[
			"undo",
			{
				usage: "undo <entry id> | undo --session <key>",
				summary:
					"take back a call's changes (or a whole session's, newest first); refused when a note changed since",
				run: async (args) => {
					const undo = activity.undo;
					if (!undo) throw new Error("undo is not available here");
					if (args[0] === "--session") {
						const key = args[1];
						if (key === undefined || args.length > 2) throw new Error("expected undo --session <key>");
						const results = await undo.session(key);
						if (results.length === 0) return `Session ${key} has no changes to undo.`;
						return results.map(describeUndo).join("\n");
					}
					const [id] = args;
					if (id === undefined || args.length > 1)
						throw new Error("expected undo <entry id> or undo --session <key>");
					const result = await undo.entry(id);
					if (result.kind !== "undone") throw new Error(describeUndo(result));
					return describeUndo(result);
				},
			},
		],
	];
}

export function describeUndo(result: UndoResult): string {
	if (result.kind === "undone") return `Undone ${result.id}: restored ${result.notes.join(", ")}`;
	return `Not undone ${result.id}: ${result.reason}`;
}

/** The entries as text, by session (newest session first), at most `limit` entries. */
export function formatActivity(entries: readonly ActivityEntry[], limit: number): string {
	if (entries.length === 0) return "No activity recorded (or none matches the filter).";
	const shown = entries.slice(0, limit);
	const lines: string[] = [];
	for (const group of groupBySession(shown)) {
		lines.push(
			`Session ${describeSession(group.session)} · ${group.entries.length} call${group.entries.length === 1 ? "" : "s"}`,
		);
		for (const entry of group.entries) {
			const facts = [
				time(entry.at),
				entry.id,
				entry.tool,
				entry.unreadable !== undefined ? "unreadable" : (entry.outcome ?? "running"),
			];
			if (entry.durationMs !== undefined) facts.push(`${entry.durationMs} ms`);
			if (entry.answerBytes !== undefined) facts.push(size(entry.answerBytes));
			lines.push(`  ${facts.join("  ")}`);
			if (entry.unreadable !== undefined)
				lines.push(`      unreadable: ${entry.unreadable}; it cannot be undone`);
			if (entry.notUndoable !== undefined) lines.push(`      cannot be undone: ${entry.notUndoable}`);
			if (entry.args !== "") lines.push(`      ${entry.args}`);
			if (entry.detail !== undefined) lines.push(`      ${entry.detail}`);
			for (const change of entry.changes)
				lines.push(
					`      ${describeChange(change)}${entry.undoneAt !== undefined ? ` (undone ${time(entry.undoneAt)})` : ""}`,
				);
		}
	}
	if (entries.length > shown.length)
		lines.push(`(${entries.length - shown.length} older entries not shown: narrow the filter, or activity --all)`);
	return lines.join("\n");
}

function describeSession(session: JournalSession): string {
	const parts = [session.key, session.surface];
	if (session.client !== undefined) parts.push(session.client);
	if (session.pid !== undefined) parts.push(`pid ${session.pid}`);
	if (session.connection !== undefined) parts.push(`connection ${session.connection}`);
	return parts.join(" · ");
}

function describeChange(change: NoteChange): string {
	switch (change.kind) {
		case "edit":
			return `changed ${change.path}`;
		case "create":
			return `created ${change.path}`;
		case "move":
			return `moved ${change.from} to ${change.to}${change.rewrites.length > 0 ? `, links rewritten in ${change.rewrites.map((rewrite) => rewrite.path).join(", ")}` : ""}`;
	}
}

function time(at: number): string {
	return new Date(at).toISOString().replace("T", " ").slice(0, 19);
}

function size(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`;
}
