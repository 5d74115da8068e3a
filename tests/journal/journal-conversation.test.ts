import { PRIVATE_NOTE, type NoteReferences } from "../../src/journal/argument-summary";
import { CallRecorder } from "../../src/journal/call-recorder";
import { Journal } from "../../src/journal/journal";
import { JournalConversation, MAX_TITLE, titleToKeep, titleToShow } from "../../src/journal/journal-conversation";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { outcomeClassifier } from "../../src/journal/outcome-classifier";

const references: NoteReferences = {
	classify: (value) => (value.startsWith("Private") ? "private" : { path: `${value}.md` }),
};

describe("titleToKeep", () => {
	it("keeps the first line of the user's words, each note they name by its name unless it is private", () => {
		expect(titleToKeep("  Tidy [[On walking]] please\nand more lines", references)).toBe("Tidy On walking please");
		expect(titleToKeep('Compare @"Essays/On walking.md" with @Private/diary.md', references)).toBe(
			`Compare Essays/On walking.md with ${PRIVATE_NOTE}`,
		);
		expect(titleToKeep("See [[Private diary|my notes]]", references)).toBe(`See ${PRIVATE_NOTE}`);
		expect(titleToKeep("See [[Lisbon|the trip]]", references)).toBe("See the trip");
		// Nothing can tell whether a named note is private: none is kept by name.
		expect(titleToKeep("Tidy [[On walking]]")).toBe("Tidy (a note)");
	});

	it("keeps no token and no more than MAX_TITLE characters; words that leave nothing name nothing", () => {
		expect(titleToKeep("use key sk-ant-3f9a0c1d2e3f4a5b6c7d8e9f now", references)).toBe("use key … now");
		const long = titleToKeep("word ".repeat(100), references) ?? "";
		expect(long.length).toBe(MAX_TITLE);
		expect(long.endsWith("…")).toBe(true);
		expect(titleToKeep(" \n\u202e ", references)).toBeUndefined();
	});
});

describe("titleToShow", () => {
	it("reads a title back as untrusted: text only, no control or format characters, bounded", () => {
		const session = { key: "s", surface: "panel" as const };
		expect(titleToShow({ ...session, title: "Plan\u202e the\u0007 trip" })).toBe("Plan the trip");
		expect(titleToShow({ ...session, title: "x".repeat(500) })?.length).toBe(MAX_TITLE);
		expect(titleToShow({ ...session, title: ["not", "text"] as unknown as string })).toBeUndefined();
		expect(titleToShow(session)).toBeUndefined();
	});
});

describe("JournalConversation", () => {
	it("gives every recorder of a conversation one session key, titled from the first words given", async () => {
		const journal = new Journal({ store: new MemoryJournalStore() });
		const conversation = new JournalConversation(journal, "panel", "claude-code", references);
		const recorder = new CallRecorder({
			journal,
			surface: "panel",
			references,
			classify: outcomeClassifier(() => false),
			conversation,
		});
		const callOf = (name: string): void =>
			recorder
				.started({ method: "tools/call", params: { name, arguments: {} }, session: { id: 0 } })
				?.finished({ kind: "result", result: {}, bytes: 1 });
		callOf("tags");
		conversation.name("Plan the trip to [[Lisbon]]");
		conversation.name("Later words");
		callOf("search");
		const write = journal.begin({ session: conversation.session(), tool: "Edit", notes: [], args: "" });
		journal.finish(write, { outcome: "ok", durationMs: 1, answerBytes: 0 });
		const sessions = (await journal.entries()).map((entry) => entry.session);
		expect(new Set(sessions.map((session) => session.key))).toEqual(new Set([conversation.key]));
		expect(sessions.map((session) => session.title)).toEqual([
			"Plan the trip to Lisbon",
			"Plan the trip to Lisbon",
			undefined,
		]);
		expect(sessions[0]).toEqual({
			key: conversation.key,
			surface: "panel",
			client: "claude-code",
			title: "Plan the trip to Lisbon",
		});
	});

	it("is kept under Claude Code's session once told which it is: two runs of one session (a resume) are one group", async () => {
		const journal = new Journal({ store: new MemoryJournalStore() });
		const run = (sessionId: string): JournalConversation => {
			const conversation = new JournalConversation(journal, "panel", "claude-code", references);
			conversation.isClaudeSession(sessionId);
			return conversation;
		};
		const session = "0f8fad5b-d9cb-469f-a165-70867728950e";
		expect(run(session).key).toBe(run(session).key);
		expect(run(session).key).not.toBe(run("7c9e6679-7425-40de-944b-e07fc1f90ae7").key);
	});

	it("keeps the key it first gave (one conversation is never split in two), and takes no session id of another form", () => {
		const journal = new Journal({ store: new MemoryJournalStore() });
		const early = new JournalConversation(journal, "panel");
		const key = early.key;
		early.isClaudeSession("0f8fad5b-d9cb-469f-a165-70867728950e");
		expect(early.key).toBe(key);
		for (const odd of ["", "../../etc", "a b", "x".repeat(65), "-leading-dash"]) {
			const conversation = new JournalConversation(journal, "panel");
			conversation.isClaudeSession(odd);
			expect(conversation.key).toMatch(/^s[0-9a-f]+$/);
		}
	});
});
