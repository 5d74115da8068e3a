/**
 * A tool call in the writer's words: what Claude did ("Read", "Searched notes for"), the note it acted on as a
 * vault path the panel links to, and what came of it ("3 results"). Raw names and inputs stay in the card's details.
 * The one vocabulary of every surface's calls: the panel's tool cards and the activity view's rows (Claude Code's
 * IDE tools included, which it calls in the terminal).
 */

/** One sentence about a tool call; `note` is drawn between `verb` and `rest`, as a link that opens it. */
export interface ToolWords {
	verb: string;
	/** Vault path of the note the call acted on, when it is inside the vault. */
	note?: string;
	/** A path outside the vault, a pattern, a query or a command's description: shown as plain text. */
	rest?: string;
	/** What came of it, from the result: "3 results", "no results". */
	outcome?: string;
}

/** Turns a path the CLI gave (absolute, or relative to the vault) into a vault path; undefined outside the vault. */
export type ToVaultPath = (path: string) => string | undefined;

/** The server name the panel gives its own vault tools. */
const VAULT_TOOLS_PREFIX = "mcp__obsidian__";

const SIMPLE_WORDS: Readonly<Record<string, string>> = {
	TodoWrite: "Updated its to-do list",
	ExitPlanMode: "Proposed a plan",
	Task: "Asked a helper to work on a task",
	Agent: "Asked a helper to work on a task",
	tags: "Listed the vault's tags",
	active_note: "Looked at the note you have open",
	// Claude Code's IDE tools, most of which it calls by itself.
	getCurrentSelection: "Looked at your selection",
	getLatestSelection: "Looked at your selection",
	getOpenEditors: "Looked at the notes you have open",
	getWorkspaceFolders: "Looked at the vault's folder",
	close_tab: "Closed a review tab",
	closeAllDiffTabs: "Closed the review tabs",
};

/** The sentence for a call of `toolName` with `input` (and its `result`, once there). */
export function toolWords(
	toolName: string,
	input: Readonly<Record<string, unknown>>,
	toVaultPath: ToVaultPath,
	result?: string,
): ToolWords {
	const name = toolName.startsWith(VAULT_TOOLS_PREFIX) ? toolName.slice(VAULT_TOOLS_PREFIX.length) : toolName;
	const text = (key: string): string | undefined => {
		const value = input[key];
		return typeof value === "string" && value.trim() !== "" ? value : undefined;
	};
	const on = (verb: string, key: string, rest?: string): ToolWords => {
		const path = text(key);
		const note = path === undefined ? undefined : toVaultPath(path);
		if (note !== undefined) return { verb, note, ...(rest !== undefined && { rest }) };
		return { verb, rest: [path ?? "a file", rest].filter((part) => part !== undefined).join(" ") };
	};
	const simple = SIMPLE_WORDS[name];
	if (simple !== undefined) return { verb: simple };
	switch (name) {
		case "Read":
		case "read_note":
			return on("Read", name === "Read" ? "file_path" : "path");
		case "Edit":
		case "MultiEdit":
		case "edit_note":
			return on("Edited", name === "edit_note" ? "path" : "file_path");
		case "Write":
			return on("Wrote", "file_path");
		case "create_note":
			return on("Created", "path");
		case "NotebookEdit":
			return on("Edited the notebook", "notebook_path");
		case "move_note": {
			const to = text("to");
			return on("Moved", "path", to === undefined ? undefined : `to ${to}`);
		}
		case "links":
			return on("Listed the links of", "path");
		case "outline":
			return on("Read the outline of", "path");
		case "properties":
			return on("Read the properties of", "path");
		case "set_properties":
			return on("Changed the properties of", "path");
		case "list_notes": {
			const folder = text("folder");
			return { verb: folder === undefined ? "Listed the vault's notes" : `Listed the notes in ${folder}` };
		}
		case "search":
			return withOutcome({ verb: "Searched notes for", rest: quote(text("query")) }, countOf(result));
		case "Grep":
			return { verb: "Searched files for", rest: quote(text("pattern")) };
		case "Glob":
			return { verb: "Looked for files named", rest: quote(text("pattern")) };
		case "LS":
			return on("Listed the folder", "path");
		case "Bash":
		case "PowerShell":
		case "Monitor": {
			const description = text("description");
			return { verb: "Ran a shell command", ...(description !== undefined && { rest: `(${description})` }) };
		}
		case "WebFetch":
			return { verb: "Read the web page", rest: text("url") ?? "" };
		case "WebSearch":
			return { verb: "Searched the web for", rest: quote(text("query")) };
		case "openFile":
			return on("Opened", "filePath");
		case "openDiff":
			return on("Proposed a change to", "old_file_path");
		case "saveDocument":
			return on("Saved", "filePath");
		case "checkDocumentDirty":
			return text("filePath") === undefined
				? { verb: "Checked for unsaved changes" }
				: on("Checked for unsaved changes in", "filePath");
		case "getDiagnostics":
			return text("uri") === undefined
				? { verb: "Checked the notes for problems" }
				: on("Checked for problems in", "uri");
		case "resources/read":
			return on("Read", "uri");
		default:
			return name === toolName
				? { verb: `Used the tool ${toolName}` }
				: { verb: `Used the vault tool ${name.replace(/_/g, " ")}` };
	}
}

/** The first word of each sentence above, as it reads for a call that has not happened: "Edit", not "Edited". */
const NOT_DONE: Readonly<Record<string, string>> = {
	Edited: "Edit",
	Wrote: "Write",
	Created: "Create",
	Moved: "Move",
	Listed: "List",
	Changed: "Change",
	Searched: "Search",
	Looked: "Look",
	Ran: "Run",
	Used: "Use",
	Updated: "Update",
	Proposed: "Propose",
	Asked: "Ask",
	Opened: "Open",
	Saved: "Save",
	Checked: "Check",
	Closed: "Close",
};

/**
 * The sentence for a call that has not happened, or not yet: one waiting for the user's review or answer, one that
 * runs, one that was refused ("Edit *On walking*" beside "Waiting for your review" or "Rejected", not "Edited").
 */
export function notDoneWords(words: ToolWords): ToolWords {
	const [first = "", ...others] = words.verb.split(" ");
	const verb = NOT_DONE[first];
	return verb === undefined ? words : { ...words, verb: [verb, ...others].join(" ") };
}

/** A note's name as the file explorer shows it: the file name without `.md`. */
export function noteName(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return name.endsWith(".md") ? name.slice(0, -3) : name;
}

/** The sentence as plain text (filters, exports, screen readers). */
export function toolWordsText(words: ToolWords): string {
	return (
		[words.verb, words.note, words.rest].filter((part) => part !== undefined && part !== "").join(" ") +
		(words.outcome === undefined ? "" : ` · ${words.outcome}`)
	);
}

function quote(value: string | undefined): string {
	if (value === undefined) return "";
	const short = value.length > 80 ? `${value.slice(0, 79)}…` : value;
	return `“${short}”`;
}

function withOutcome(words: ToolWords, outcome: string | undefined): ToolWords {
	return outcome === undefined ? words : { ...words, outcome };
}

/** The vault tools end a list with "(total N matches; …)" or answer "No matches for …". */
function countOf(result: string | undefined): string | undefined {
	if (result === undefined) return undefined;
	if (/^No (matches|notes) for /.test(result)) return "no results";
	const total = /\(total (\d+) (?:matches|notes)/.exec(result);
	if (total?.[1] === undefined) return undefined;
	return total[1] === "1" ? "1 result" : `${total[1]} results`;
}

/** Claude Code puts this before a reason our hook gave when it stopped a tool ("PreToolUse:Edit hook error: "). */
const HOOK_PREFIX = /^PreToolUse:\S+ hook error: (?:\[[^\]\n]*\]\s*)?/;

/**
 * A tool's error result in the user's words: a reason the panel's gate gave is shown as the panel's ("You
 * rejected this change: …"), without the CLI's hook wording; any other error as it came.
 */
export function toolErrorWords(result: string): string {
	if (!HOOK_PREFIX.test(result)) return result;
	const reason = result.replace(HOOK_PREFIX, "").trim();
	const reviewed = /^The user rejected this change to .*?\. Their reason: (.*)\. Nothing was written\.$/s.exec(
		reason,
	);
	if (reviewed?.[1] !== undefined) return toolErrorWords(`PreToolUse:Edit hook error: ${reviewed[1]}`);
	const rejected = /^the user rejected the change in the review(?::\s*(.*))?$/s.exec(reason);
	if (rejected)
		return rejected[1] === undefined ? "You rejected this change." : `You rejected this change: ${rejected[1]}`;
	const denied = /^The user denied this use of \S+(?:: (.*)|\.)$/s.exec(reason);
	if (denied) return denied[1] === undefined ? "You said no." : `You said no: ${denied[1]}`;
	if (reason.startsWith("the question was withdrawn"))
		return "Stopped before you decided: the turn was interrupted and the review closed.";
	return `The panel stopped this: ${reason.charAt(0).toUpperCase()}${reason.slice(1)}`;
}

/** A fork's title begins so (its panel tab, its conversation in the activity journal): told apart from its original. */
export const FORK_TITLE = "Fork: ";

/**
 * A session's title in the user's own words: its first line without the notes attached at its start (`@path`,
 * `@"path with spaces"`, `[[link]]`), which older versions of the panel put before what the user typed.
 */
export function sessionTitle(firstLine: string): string {
	const words = firstLine
		.trim()
		.replace(/^(?:(?:@"[^"]*"|@\S+|\[\[[^\]]*\]\])\s*)+/u, "")
		.trim();
	return words === "" ? firstLine.trim() : words;
}
