import type { ActivityEntry } from "../../../src/journal/activity-entries";
import {
	argumentsOf,
	automaticLabel,
	conversationTitle,
	entryText,
	entryWords,
	isAutomatic,
	outcomeWords,
	shownNotes,
	surfaceWords,
} from "../../../src/obsidian/activity/activity-words";

function entry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
	return {
		id: "e1",
		at: 1_000,
		session: { key: "s", surface: "vault-tools-http", client: "claude-code" },
		tool: "read_note",
		notes: [],
		args: "",
		changes: [],
		outcome: "ok",
		...overrides,
	};
}

describe("argumentsOf", () => {
	it("reads the journal's summary back: paths as named, texts unquoted, a text that holds '=' whole", () => {
		expect(argumentsOf('path=Essays/On walking.md query="a = b" limit=5 edits=[2 items]')).toEqual({
			path: "Essays/On walking.md",
			query: "a = b",
			limit: "5",
			edits: "[2 items]",
		});
		expect(argumentsOf('query="cut short…')).toEqual({ query: '"cut short…' });
		expect(argumentsOf("Edit /home/ana/Notes/a.md")).toEqual({});
		expect(Object.getPrototypeOf(argumentsOf("__proto__=x"))).toBe(Object.prototype);
		expect(argumentsOf("__proto__=x").__proto__).toBe("x");
	});
});

describe("entryWords", () => {
	it("says what a call did in the panel's words, the note by its name", () => {
		expect(entryText(entry({ notes: ["Essays/On walking.md"], args: "path=Essays/On walking.md" }))).toBe(
			"Read On walking",
		);
		expect(entryText(entry({ tool: "search", args: 'query="I think" limit=20' }))).toBe(
			"Searched notes for “I think”",
		);
		expect(entryText(entry({ tool: "move_note", notes: ["A.md", "B/A.md"], args: "path=A.md to=B/A.md" }))).toBe(
			"Moved A to B/A.md",
		);
		expect(entryText(entry({ tool: "read_note", args: "path=(a private note)" }))).toBe("Read (a private note)");
	});

	it("names the note of a call the journal knows only by its notes (the panel's own writes)", () => {
		const edit = entry({
			session: { key: "p", surface: "panel", client: "claude-code" },
			tool: "Edit",
			notes: ["Essays/On walking.md"],
			args: "Edit /home/ana/Notes/Essays/On walking.md",
		});
		expect(entryWords(edit)).toEqual({ verb: "Edited", note: "Essays/On walking.md" });
	});

	it("never takes an old journal's proposed text for the note of a rejected change", () => {
		const text = "# Lisbon\n\nWe land on Friday.\n";
		const rejected = entry({
			session: { key: "t", surface: "ide" },
			tool: "openDiff",
			notes: ["Trips/Lisbon.md", text],
			args: `old_file_path=Trips/Lisbon.md new_file_path=Trips/Lisbon.md new_file_contents=${text} tab_name="Lisbon.md"`,
			outcome: "rejected",
		});
		expect(entryText(rejected)).toBe("Proposed a change to Lisbon");
		expect(outcomeWords(rejected)).toBe("Rejected change");
		expect(shownNotes(rejected)).toEqual(["Trips/Lisbon.md"]);
	});

	it("says what a call that did not happen would have done, not that it did", () => {
		const change = { tool: "set_properties", notes: ["Trips/Lisbon.md"], args: "path=Trips/Lisbon.md" };
		expect(entryText(entry({ ...change, outcome: "rejected" }))).toMatch(/^Change /);
		expect(entryText(entry({ ...change, outcome: "refused" }))).toMatch(/^Change /);
		expect(entryText(entry({ ...change, outcome: undefined }))).toMatch(/^Change /);
		expect(entryText(entry({ ...change, outcome: "ok" }))).toMatch(/^Changed /);
	});

	it("says nothing of an unreadable entry but that it is", () => {
		expect(entryText(entry({ unreadable: "another device wrote it", tool: "read_note" }))).toBe("Unreadable entry");
	});
});

describe("outcomeWords", () => {
	it("says how a call ended, and nothing for one that did what it was asked", () => {
		expect(outcomeWords(entry())).toBe("");
		expect(outcomeWords(entry({ outcome: "error" }))).toBe("Failed");
		expect(outcomeWords(entry({ outcome: "refused" }))).toBe("Refused");
		expect(outcomeWords(entry({ outcome: "rejected", tool: "edit_note" }))).toBe("Rejected change");
		expect(outcomeWords(entry({ undoneAt: 2_000 }))).toBe("Undone");
		const { outcome: _ended, ...running } = entry({ tool: "openDiff" });
		expect(outcomeWords(running)).toBe("Waiting for your review");
		expect(outcomeWords(entry({ tool: "openDiff" }))).toBe("Accepted change");
	});
});

describe("automatic calls", () => {
	it("are Claude Code's own IDE calls, folded as reads, or as calls when some tidied up", () => {
		const ide = (tool: string): ActivityEntry => entry({ tool, session: { key: "t", surface: "ide" } });
		expect(isAutomatic(ide("getDiagnostics"))).toBe(true);
		expect(isAutomatic(ide("closeAllDiffTabs"))).toBe(true);
		expect(isAutomatic(ide("openDiff"))).toBe(false);
		expect(isAutomatic(entry({ tool: "getDiagnostics" }))).toBe(false);
		expect(automaticLabel([ide("getDiagnostics")])).toBe("1 automatic read");
		expect(automaticLabel([ide("getDiagnostics"), ide("checkDocumentDirty")])).toBe("2 automatic reads");
		expect(automaticLabel([ide("getDiagnostics"), ide("close_tab")])).toBe("2 automatic calls");
	});
});

describe("conversations in words", () => {
	it("says where a conversation took place, and titles it by the user's words or when it began", () => {
		expect(surfaceWords("panel")).toBe("In the panel");
		expect(surfaceWords("ide")).toBe("From the terminal");
		expect(surfaceWords("vault-tools-stdio")).toBe("Vault tools");
		expect(surfaceWords("other")).toBe("Other");
		const untitled = { key: "s", surface: "ide" as const };
		expect(conversationTitle([untitled, { ...untitled, title: "Plan the trip" }], 0)).toBe("Plan the trip");
		expect(conversationTitle([untitled], 0)).toMatch(/^Conversation at \d{1,2}:\d\d/);
	});

	it("titles a conversation without the user's words by what its calls did to notes, never by what they did not do", () => {
		const terminal = { key: "t", surface: "ide" as const, client: "claude-code" };
		const at = (minute: number): number => new Date(2026, 4, 14, 9, minute).getTime();
		const time = new Date(at(12)).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
		const ide = (tool: string, path: string, more: Partial<ActivityEntry> = {}): ActivityEntry =>
			entry({ session: terminal, tool, notes: [path], args: `filePath=${path} old_file_path=${path}`, ...more });
		const lisbon = "Trips/Lisbon.md";
		const checked = ide("getDiagnostics", lisbon, { args: `uri=${lisbon}` });
		const refused = ide("openFile", "Trips/Porto.md", { outcome: "refused" });
		const proposed = ide("openDiff", lisbon, { outcome: "rejected" });
		const title = (newestFirst: ActivityEntry[]): string => conversationTitle([terminal], at(12), newestFirst);
		// Calls Claude Code makes by itself, and calls that did not happen, say nothing of the conversation.
		expect(title([refused, checked])).toBe(`Conversation at ${time}`);
		expect(title([proposed, refused, checked])).toBe(`Proposed a change to Lisbon at ${time}`);
		// A change the user accepted, or one written to disk, says more than any look.
		const accepted = ide("openDiff", lisbon, { outcome: "ok" });
		expect(title([accepted, proposed, refused, checked])).toBe(`Edits to Lisbon at ${time}`);
		const walking = "Essays/On walking.md";
		const edited = entry({
			session: terminal,
			tool: "edit_note",
			notes: [walking],
			changes: [{ kind: "edit", path: walking, before: { hash: "a", bytes: 1 }, after: "b" }],
		});
		const moved = entry({
			session: terminal,
			tool: "move_note",
			notes: ["Old.md", "Archive/Old.md"],
			changes: [{ kind: "move", from: "Old.md", to: "Archive/Old.md", after: "c", rewrites: [] }],
		});
		expect(title([moved, accepted, edited, checked])).toBe(`Edits to On walking and 2 other notes at ${time}`);
		// An unreadable entry names nothing.
		expect(title([{ ...edited, unreadable: "not this device's" }])).toBe(`Conversation at ${time}`);
		// The user's own words win.
		expect(conversationTitle([{ ...terminal, title: "Plan the trip" }], at(12), [accepted])).toBe("Plan the trip");
	});
});
