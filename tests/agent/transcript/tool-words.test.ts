import {
	notDoneWords,
	noteName,
	sessionTitle,
	toolErrorWords,
	toolWords,
	toolWordsText,
} from "../../../src/agent/transcript/tool-words";

const inVault = (path: string): string | undefined =>
	path.startsWith("/home/ana/Notes/") ? path.slice("/home/ana/Notes/".length) : undefined;

describe("toolWords", () => {
	it("says what the panel's vault tools did, with the note as a vault path", () => {
		expect(toolWords("mcp__obsidian__read_note", { path: "Essays/On walking.md" }, inVault)).toEqual({
			verb: "Read",
			rest: "Essays/On walking.md",
		});
		expect(toolWords("mcp__obsidian__links", { path: "/home/ana/Notes/Essays/On walking.md" }, inVault)).toEqual({
			verb: "Listed the links of",
			note: "Essays/On walking.md",
		});
		const search = toolWords(
			"mcp__obsidian__search",
			{ query: "I think" },
			inVault,
			"a.md:3: I think…\n(total 3 matches; showing 1-3)",
		);
		expect(toolWordsText(search)).toBe("Searched notes for “I think” · 3 results");
		expect(
			toolWords("mcp__obsidian__search", { query: "zz" }, inVault, 'No matches for "zz" (mode text).').outcome,
		).toBe("no results");
		expect(
			toolWordsText(
				toolWords("mcp__obsidian__move_note", { path: "/home/ana/Notes/A.md", to: "B/A.md" }, inVault),
			),
		).toBe("Moved A.md to B/A.md");
	});

	it("says what Claude Code's own tools did, in words, never with the tool's raw name", () => {
		expect(toolWords("Read", { file_path: "/home/ana/Notes/Welcome.md" }, inVault)).toEqual({
			verb: "Read",
			note: "Welcome.md",
		});
		expect(toolWordsText(toolWords("Read", { file_path: "/etc/hosts" }, inVault))).toBe("Read /etc/hosts");
		expect(toolWordsText(toolWords("Bash", { command: "ls", description: "List files" }, inVault))).toBe(
			"Ran a shell command (List files)",
		);
		expect(toolWordsText(toolWords("Grep", { pattern: "TODO" }, inVault))).toBe("Searched files for “TODO”");
		expect(toolWordsText(toolWords("TodoWrite", { todos: [] }, inVault))).toBe("Updated its to-do list");
		expect(toolWordsText(toolWords("mcp__other__thing", {}, inVault))).toBe("Used the tool mcp__other__thing");
	});
});

describe("notDoneWords", () => {
	it("says what a call that has not happened would do, not that it did", () => {
		const edit = toolWords("Edit", { file_path: "/home/ana/Notes/Essays/On walking.md" }, inVault);
		expect(notDoneWords(edit)).toEqual({ verb: "Edit", note: "Essays/On walking.md" });
		const shell = toolWords("Bash", { command: "wc -w *.md", description: "Count words" }, inVault);
		expect(toolWordsText(notDoneWords(shell))).toBe("Run a shell command (Count words)");
		expect(toolWordsText(notDoneWords(toolWords("Grep", { pattern: "walk" }, inVault)))).toBe(
			"Search files for “walk”",
		);
		expect(toolWordsText(notDoneWords(toolWords("SomethingNew", {}, inVault)))).toBe("Use the tool SomethingNew");
		// "Read" reads the same either way.
		expect(notDoneWords(toolWords("Read", { file_path: "/etc/hosts" }, inVault))).toEqual({
			verb: "Read",
			rest: "/etc/hosts",
		});
	});
});

describe("toolWords for Claude Code's IDE tools (the activity view's terminal calls)", () => {
	it("says what each did, the note by its vault path, and never the tool's name", () => {
		const note = "/home/ana/Notes/Trips/Lisbon.md";
		const said = (tool: string, input: Record<string, unknown> = {}): string =>
			toolWordsText(toolWords(tool, input, inVault));
		expect(said("openDiff", { old_file_path: note, new_file_contents: "# Lisbon" })).toBe(
			"Proposed a change to Trips/Lisbon.md",
		);
		expect(toolWords("openDiff", { old_file_path: note }, inVault).note).toBe("Trips/Lisbon.md");
		expect(said("openFile", { filePath: note })).toBe("Opened Trips/Lisbon.md");
		expect(said("saveDocument", { filePath: note })).toBe("Saved Trips/Lisbon.md");
		expect(said("checkDocumentDirty", { filePath: note })).toBe("Checked for unsaved changes in Trips/Lisbon.md");
		expect(said("checkDocumentDirty")).toBe("Checked for unsaved changes");
		expect(said("getDiagnostics")).toBe("Checked the notes for problems");
		expect(said("getDiagnostics", { uri: note })).toBe("Checked for problems in Trips/Lisbon.md");
		expect(said("getCurrentSelection")).toBe("Looked at your selection");
		expect(said("getOpenEditors")).toBe("Looked at the notes you have open");
		expect(said("getWorkspaceFolders")).toBe("Looked at the vault's folder");
		expect(said("close_tab", { tab_name: "x" })).toBe("Closed a review tab");
		expect(said("closeAllDiffTabs")).toBe("Closed the review tabs");
	});
});

describe("noteName", () => {
	it("is the name the file explorer shows: no folder, no .md", () => {
		expect(noteName("Trips/Lisbon.md")).toBe("Lisbon");
		expect(noteName("Lisbon.md")).toBe("Lisbon");
		expect(noteName("Pictures/tram.png")).toBe("tram.png");
	});
});

describe("toolErrorWords", () => {
	it("shows the panel's own reasons as the panel's, without Claude Code's hook wording", () => {
		expect(
			toolErrorWords("PreToolUse:Edit hook error: the user rejected the change in the review: keep my line"),
		).toBe("You rejected this change: keep my line");
		expect(toolErrorWords("PreToolUse:Edit hook error: the user rejected the change in the review")).toBe(
			"You rejected this change.",
		);
		expect(toolErrorWords("PreToolUse:Bash hook error: The user denied this use of Bash.")).toBe("You said no.");
		expect(toolErrorWords("PreToolUse:Edit hook error: Editing private notes is not allowed")).toBe(
			"The panel stopped this: Editing private notes is not allowed",
		);
		expect(toolErrorWords("File does not exist.")).toBe("File does not exist.");
		expect(
			toolErrorWords(
				"PreToolUse:Write hook error: The user rejected this change to /v/A.md. Their reason: the user rejected the change in the review: too long. Nothing was written.",
			),
		).toBe("You rejected this change: too long");
	});
});

describe("sessionTitle", () => {
	it("titles a session by the user's own words, not the notes attached before them", () => {
		expect(sessionTitle("@Welcome.md [[Welcome]] Please say hello")).toBe("Please say hello");
		expect(sessionTitle('@"Daily notes/2026-12-01.md" what did I plan?')).toBe("what did I plan?");
		expect(sessionTitle("Tidy @Inbox.md")).toBe("Tidy @Inbox.md");
		expect(sessionTitle("@Only.md")).toBe("@Only.md");
	});
});
