import type { ActivityEntry } from "./activity-entries";
import { CALL_OUTCOMES, SURFACES, type CallOutcome, type Surface } from "./journal-records";

/** What the activity list shows: every given field must match; `text` is searched in tool, notes, arguments, detail and client. */
export interface ActivityFilter {
	session?: string;
	surface?: Surface;
	tool?: string;
	/** Part of a note's path (case-insensitive). */
	note?: string;
	outcome?: CallOutcome;
	/** Only entries that changed notes. */
	writes?: boolean;
	text?: string;
}

const FIELDS = ["session", "surface", "tool", "note", "outcome"] as const;

/**
 * A filter from words: `session:<key>`, `surface:<ide|vault-tools-stdio|…>`, `tool:<name>`, `note:<part of a path>`,
 * `outcome:<ok|error|refused|rejected>`, `writes`; any other word is free text. An unknown surface or outcome is an
 * error that names the choices.
 */
export function parseActivityFilter(words: readonly string[]): ActivityFilter {
	const filter: ActivityFilter = {};
	const text: string[] = [];
	for (const word of words) {
		const match = /^([a-z]+):(.+)$/.exec(word);
		const field = FIELDS.find((name) => name === match?.[1]);
		if (word === "writes") {
			filter.writes = true;
		} else if (!match || !field) {
			text.push(word);
		} else {
			const value = match[2] ?? "";
			if (field === "surface") {
				if (!SURFACES.includes(value as Surface))
					throw new Error(`unknown surface "${value}"; one of ${SURFACES.join(", ")}`);
				filter.surface = value as Surface;
			} else if (field === "outcome") {
				if (!CALL_OUTCOMES.includes(value as CallOutcome))
					throw new Error(`unknown outcome "${value}"; one of ${CALL_OUTCOMES.join(", ")}`);
				filter.outcome = value as CallOutcome;
			} else filter[field] = value;
		}
	}
	if (text.length > 0) filter.text = text.join(" ");
	return filter;
}

export function matchesFilter(entry: ActivityEntry, filter: ActivityFilter): boolean {
	if (filter.session !== undefined && entry.session.key !== filter.session) return false;
	if (filter.surface !== undefined && entry.session.surface !== filter.surface) return false;
	if (filter.tool !== undefined && entry.tool !== filter.tool) return false;
	if (filter.outcome !== undefined && entry.outcome !== filter.outcome) return false;
	if (filter.writes === true && entry.changes.length === 0) return false;
	if (filter.note !== undefined) {
		const part = filter.note.toLowerCase();
		if (!entry.notes.some((note) => note.toLowerCase().includes(part))) return false;
	}
	if (filter.text !== undefined) {
		const haystack = [
			entry.tool,
			entry.args,
			entry.detail ?? "",
			entry.session.client ?? "",
			entry.id,
			...entry.notes,
		]
			.join("\n")
			.toLowerCase();
		if (!haystack.includes(filter.text.toLowerCase())) return false;
	}
	return true;
}
