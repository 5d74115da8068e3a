import { inertTableCell } from "../shared/inert-markdown";
import { groupBySession, type ActivityEntry } from "./activity-entries";
import { titleToShow } from "./journal-conversation";
import type { NoteChange } from "./journal-records";

/** The JSON export's format name and version, so a reader can tell what it holds. */
export const ACTIVITY_EXPORT_FORMAT = "claude-code-bridge-activity";
export const ACTIVITY_EXPORT_VERSION = 1;

export interface ActivityExport {
	format: typeof ACTIVITY_EXPORT_FORMAT;
	version: typeof ACTIVITY_EXPORT_VERSION;
	exportedAt: string;
	entries: ActivityEntry[];
}

/** The entries as JSON (what the journal holds of them, nothing more: no pre-image bytes). */
export function activityAsJson(entries: readonly ActivityEntry[], exportedAt: Date): string {
	const document: ActivityExport = {
		format: ACTIVITY_EXPORT_FORMAT,
		version: ACTIVITY_EXPORT_VERSION,
		exportedAt: exportedAt.toISOString(),
		entries: [...entries],
	};
	return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * The entries as a Markdown note: one table per session (newest first, titled by the user's first words when the
 * journal kept them), a row per call, and the changes each made.
 * Cells are escaped so a note path or argument cannot break the table or act when the note opens (no HTML, image,
 * link, code span or comment: `inertTableCell`); notes are plain text, not links, so the export adds no links to
 * the vault's graph. The JSON export is JSON: nothing in it is escaped for Markdown.
 */
export function activityAsMarkdown(entries: readonly ActivityEntry[], exportedAt: Date): string {
	const lines = [
		`# Claude's activity`,
		"",
		`Exported ${exportedAt.toISOString()}; ${entries.length} entr${entries.length === 1 ? "y" : "ies"}.`,
	];
	for (const group of groupBySession(entries)) {
		const { session } = group;
		const who = [session.surface, session.client, session.pid !== undefined ? `pid ${session.pid}` : undefined]
			.filter((part) => part !== undefined)
			.join(", ");
		const title = group.entries.map((entry) => titleToShow(entry.session)).find((found) => found !== undefined);
		lines.push(
			"",
			`## Session ${session.key}${title === undefined ? "" : `: ${inertTableCell(title)}`} (${inertTableCell(who)})`,
			"",
			"| time | id | tool | outcome | notes | arguments | changes |",
			"| --- | --- | --- | --- | --- | --- | --- |",
		);
		for (const entry of group.entries) {
			const changes =
				entry.changes.map(describeChange).join("; ") +
				(entry.undoneAt !== undefined ? ` (undone ${new Date(entry.undoneAt).toISOString()})` : "");
			const outcome = `${entry.outcome ?? "running"}${entry.detail !== undefined ? `: ${entry.detail}` : ""}`;
			lines.push(
				`| ${new Date(entry.at).toISOString()} | ${entry.id} | ${inertTableCell(entry.tool)} | ${inertTableCell(outcome)} | ${inertTableCell(entry.notes.join(", "))} | ${inertTableCell(entry.args)} | ${inertTableCell(changes)} |`,
			);
		}
	}
	return `${lines.join("\n")}\n`;
}

function describeChange(change: NoteChange): string {
	if (change.kind === "edit") return `changed ${change.path}`;
	if (change.kind === "create") return `created ${change.path}`;
	return `moved ${change.from} to ${change.to}${change.rewrites.length > 0 ? ` (links in ${change.rewrites.map((rewrite) => rewrite.path).join(", ")})` : ""}`;
}
