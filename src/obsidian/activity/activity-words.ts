import { notDoneWords, noteName, toolWords, type ToolWords } from "../../agent/transcript/tool-words";
import type { ActivityEntry } from "../../journal/activity-entries";
import { titleToShow } from "../../journal/journal-conversation";
import type { JournalSession, Surface } from "../../journal/journal-records";

/**
 * The activity view's rows in the writer's words, from what the journal keeps of a call (its tool, the notes it
 * named, the summary of its arguments): the panel's vocabulary (`toolWords`), the place it came from, how it ended,
 * and which calls Claude Code makes by itself.
 */

/** Claude Code's IDE calls that only look (it makes them by itself, around the calls it was asked for). */
const AUTOMATIC_READS = new Set([
	"getDiagnostics",
	"checkDocumentDirty",
	"getOpenEditors",
	"getCurrentSelection",
	"getLatestSelection",
	"getWorkspaceFolders",
]);
/** ...and those that tidy up after its reviews. */
const AUTOMATIC_TIDYING = new Set(["close_tab", "closeAllDiffTabs"]);

/** Whether Claude Code made the call by itself in the IDE: such calls are folded away by default. */
export function isAutomatic(entry: ActivityEntry): boolean {
	return entry.session.surface === "ide" && (AUTOMATIC_READS.has(entry.tool) || AUTOMATIC_TIDYING.has(entry.tool));
}

/** The fold of a conversation's automatic calls: "12 automatic reads" (or "calls", when some tidied up). */
export function automaticLabel(entries: readonly ActivityEntry[]): string {
	const reads = entries.every((entry) => AUTOMATIC_READS.has(entry.tool));
	const noun = reads ? "read" : "call";
	return `${entries.length} automatic ${noun}${entries.length === 1 ? "" : "s"}`;
}

/** Where a conversation took place, in words. */
export function surfaceWords(surface: Surface): string {
	switch (surface) {
		case "panel":
			return "In the panel";
		case "ide":
			return "From the terminal";
		case "vault-tools-http":
		case "vault-tools-relay":
		case "vault-tools-stdio":
			return "Vault tools";
		default:
			return "Other";
	}
}

/** The places the filter offers, each with the surfaces it stands for. */
export const PLACES: readonly { value: string; label: string; surfaces: readonly Surface[] }[] = [
	{ value: "panel", label: "In the panel", surfaces: ["panel"] },
	{ value: "terminal", label: "From the terminal", surfaces: ["ide"] },
	{
		value: "vault-tools",
		label: "Vault tools",
		surfaces: ["vault-tools-http", "vault-tools-relay", "vault-tools-stdio"],
	},
	{ value: "other", label: "Other", surfaces: ["other"] },
];

/**
 * A conversation's title: the user's first words as the journal kept them (read as untrusted text, the first of
 * `sessions` that has them). A conversation no words of the user's reach (Claude Code in a terminal, vault tools)
 * is told by what its calls did to notes, from `entries` (newest first, as listed) and when it began: "Edits to
 * Lisbon at 09:12", "Read Lisbon at 09:12"; else only by when it began ("Conversation at 09:12").
 */
export function conversationTitle(
	sessions: readonly JournalSession[],
	startedAt: number,
	entries: readonly ActivityEntry[] = [],
): string {
	for (const session of sessions) {
		const title = titleToShow(session);
		if (title !== undefined) return title;
	}
	const time = new Date(startedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
	const done = whatWasDone([...entries].reverse());
	return done === undefined ? `Conversation at ${time}` : `${done} at ${time}`;
}

/**
 * What a conversation's calls (oldest first) did to notes, in words: the notes they changed ("Edits to Lisbon",
 * "Edits to Lisbon and 2 other notes"), else what the first call that acted on a note did to it ("Read Lisbon",
 * "Proposed a change to Lisbon"). Calls Claude Code makes by itself, calls that did not happen and unreadable
 * entries count for nothing; undefined when nothing is left.
 */
function whatWasDone(oldestFirst: readonly ActivityEntry[]): string | undefined {
	const changed = [...new Set(oldestFirst.flatMap(changedNotes))];
	const [first] = changed;
	if (first !== undefined) {
		const others = changed.length - 1;
		const more = others === 0 ? "" : ` and ${others} other note${others === 1 ? "" : "s"}`;
		return `Edits to ${noteName(first)}${more}`;
	}
	for (const entry of oldestFirst) {
		if (entry.unreadable !== undefined || isAutomatic(entry)) continue;
		if (entry.tool !== "openDiff" && !hasHappened(entry)) continue;
		const words = entryWords(entry);
		if (words.note !== undefined) return `${words.verb} ${noteName(words.note)}`;
	}
	return undefined;
}

/** The notes a call changed on disk (a move: where the note went), or the note of a proposal the user accepted. */
function changedNotes(entry: ActivityEntry): string[] {
	if (entry.unreadable !== undefined) return [];
	const shown = shownNotes(entry);
	const written = entry.changes.map((change) => (change.kind === "move" ? change.to : change.path));
	const accepted = entry.tool === "openDiff" && entry.outcome === "ok" ? [entryWords(entry).note] : [];
	return [...written, ...accepted].filter((path): path is string => path !== undefined && shown.includes(path));
}

/** How a call ended, in words; empty for a call that simply did what it was asked. */
export function outcomeWords(entry: ActivityEntry): string {
	if (entry.unreadable !== undefined) return "Unreadable";
	if (entry.undoneAt !== undefined) return "Undone";
	const review = entry.tool === "openDiff";
	switch (entry.outcome) {
		case undefined:
			return review ? "Waiting for your review" : "Running";
		case "rejected":
			return "Rejected change";
		case "error":
			return "Failed";
		case "refused":
			return "Refused";
		default:
			return review ? "Accepted change" : "";
	}
}

/** What the call did, as the panel would say it: the note it acted on (a vault path), what it looked for. */
export function entryWords(entry: ActivityEntry): ToolWords {
	if (entry.unreadable !== undefined) return { verb: "Unreadable entry" };
	const notes = shownNotes(entry);
	const first = notes[0];
	// A call the journal knows only by its notes (the panel's own writes: "Edit /…/note.md") names its first one.
	const fallback: Record<string, string> =
		first === undefined
			? {}
			: { path: first, file_path: first, filePath: first, old_file_path: first, notebook_path: first };
	const input = { ...fallback, ...argumentsOf(entry.args) };
	const words = toolWords(entry.tool, input, (path) => (notes.includes(path) ? path : undefined));
	// A call that did not happen (refused, rejected, failed, or still waiting) says what it would have done; a
	// proposal was made whatever its answer.
	return entry.tool === "openDiff" || hasHappened(entry) ? words : notDoneWords(words);
}

function hasHappened(entry: ActivityEntry): boolean {
	return entry.outcome !== undefined && !["rejected", "error", "refused"].includes(entry.outcome);
}

/** The sentence as one line: the note by its name, as the file explorer shows it. */
export function entryText(entry: ActivityEntry): string {
	const words = entryWords(entry);
	return [words.verb, words.note === undefined ? undefined : noteName(words.note), words.rest]
		.filter((part) => part !== undefined && part !== "")
		.join(" ");
}

/**
 * The notes an entry names that can be notes: journals written before arguments such as `openDiff`'s
 * `new_file_contents` were taken as texts name a whole proposed text as a note.
 */
export function shownNotes(entry: ActivityEntry): string[] {
	return entry.notes.filter((path) => typeof path === "string" && path.length <= MAX_PATH && !/[\r\n]/.test(path));
}

/** A vault path longer than this is no note's (file systems allow 255 bytes a name, a few names deep). */
const MAX_PATH = 1024;
/** Characters of an argument summary read (the journal keeps 240; one from elsewhere may hold anything). */
const MAX_ARGUMENTS = 1024;
const NAME = /^([A-Za-z_$][\w$-]*)=/;
const QUOTED = /^"(?:[^"\\]|\\.)*"/;
const NEXT_NAME = / (?=[A-Za-z_$][\w$-]*=)/;

/**
 * The string arguments of a journal's summary (`name=value name="text"`, `argument-summary.ts`): a note's path as
 * it was named, a text's excerpt unquoted. Anything else (a list, a withheld value) is kept as written.
 */
export function argumentsOf(summary: string): Record<string, string> {
	const found = new Map<string, string>();
	let rest = summary.slice(0, MAX_ARGUMENTS);
	for (let name = NAME.exec(rest); name?.[1] !== undefined; name = NAME.exec(rest)) {
		rest = rest.slice(name[0].length);
		const quoted = QUOTED.exec(rest);
		let value: string;
		if (quoted) {
			value = parseQuoted(quoted[0]);
			rest = rest.slice(quoted[0].length).replace(/^ /, "");
		} else {
			const next = NEXT_NAME.exec(rest);
			value = next ? rest.slice(0, next.index) : rest;
			rest = next ? rest.slice(next.index + 1) : "";
		}
		found.set(name[1], value);
	}
	return Object.fromEntries(found);
}

function parseQuoted(text: string): string {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === "string" ? value : text;
	} catch {
		return text.slice(1, -1);
	}
}
