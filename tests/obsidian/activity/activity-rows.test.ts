import type { ActivityEntry } from "../../../src/journal/activity-entries";
import type { JournalSession } from "../../../src/journal/journal-records";
import { activityRows, conversationsOf, rowKey, type RowChoices } from "../../../src/obsidian/activity/activity-rows";

const terminal: JournalSession = { key: "t", surface: "ide", client: "claude-code" };
const panel: JournalSession = { key: "p", surface: "panel", client: "claude-code" };

function entry(id: string, at: number, session: JournalSession, tool: string, notes: string[] = []): ActivityEntry {
	return { id, at, session, tool, notes, args: "", changes: [], outcome: "ok" };
}

/** Newest first, as the journal lists them: a panel conversation titled only on its later records, then the terminal's. */
const entries: ActivityEntry[] = [
	entry("p2", 60, { ...panel, title: "Plan the trip" }, "search"),
	entry("p1", 50, panel, "tags"),
	entry("t4", 40, terminal, "getDiagnostics"),
	entry("t3", 30, terminal, "read_note", ["Trips/Lisbon.md"]),
	entry("t2", 20, terminal, "checkDocumentDirty"),
	entry("t1", 10, terminal, "getWorkspaceFolders"),
];

const choices = (more: Partial<RowChoices> = {}): RowChoices => ({
	filter: {},
	showAutomatic: false,
	flipped: new Set(),
	...more,
});

const shape = (rows: ReturnType<typeof activityRows>): string[] =>
	rows.map((row) =>
		row.kind === "conversation"
			? `# ${row.conversation.title} (${row.count})`
			: row.kind === "automatic"
				? `[${row.entries.length} ${row.open ? "open" : "folded"}]`
				: row.entry.id,
	);

describe("activityRows", () => {
	it("groups by conversation, titled from any of its records, and folds each one's automatic calls", () => {
		const conversations = conversationsOf(entries);
		expect(conversations.get("p")).toEqual({ key: "p", title: "Plan the trip", surface: "panel", startedAt: 50 });
		expect(conversations.get("t")?.startedAt).toBe(10);
		expect(shape(activityRows(entries, conversations, choices()))).toEqual([
			"# Plan the trip (2)",
			"p2",
			"p1",
			expect.stringMatching(/^# Read Lisbon at .* \(4\)$/),
			"t3",
			"[3 folded]",
		]);
	});

	it("lists the automatic calls among the others everywhere, or in one conversation, or everywhere but one", () => {
		const conversations = conversationsOf(entries);
		const all = activityRows(entries, conversations, choices({ showAutomatic: true }));
		expect(shape(all).slice(3)).toEqual([expect.any(String), "t4", "t3", "t2", "t1", "[3 open]"]);
		expect(all.filter((row) => row.kind === "entry" && row.automatic)).toHaveLength(3);
		expect(shape(activityRows(entries, conversations, choices({ flipped: new Set(["t"]) }))).slice(4)).toEqual([
			"t4",
			"t3",
			"t2",
			"t1",
			"[3 open]",
		]);
		expect(
			shape(
				activityRows(entries, conversations, choices({ showAutomatic: true, flipped: new Set(["t"]) })),
			).slice(4),
		).toEqual(["t3", "[3 folded]"]);
	});

	it("lets through only what the filters, the place and the words searched for allow", () => {
		const conversations = conversationsOf(entries);
		expect(shape(activityRows(entries, conversations, choices({ place: "panel" })))).toEqual([
			"# Plan the trip (2)",
			"p2",
			"p1",
		]);
		// The conversation's title and the rows' words are searched as well as the journal's fields.
		expect(shape(activityRows(entries, conversations, choices({ filter: { text: "plan the" } })))).toEqual([
			"# Plan the trip (2)",
			"p2",
			"p1",
		]);
		expect(shape(activityRows(entries, conversations, choices({ filter: { text: "tag" } })))).toEqual([
			"# Plan the trip (1)",
			"p1",
		]);
		// A conversation titled by what it did matches those words too.
		expect(shape(activityRows(entries, conversations, choices({ filter: { text: "read lisbon" } })))).toEqual([
			expect.stringMatching(/^# Read Lisbon at/),
			"t3",
			"[3 folded]",
		]);
		expect(shape(activityRows(entries, conversations, choices({ filter: { tool: "read_note" } })))).toEqual([
			expect.stringMatching(/^# Read Lisbon at/),
			"t3",
		]);
	});

	it("keys each row the same across reads of the journal", () => {
		const rows = activityRows(entries, conversationsOf(entries), choices());
		expect(rows.map(rowKey)).toEqual(["conversation p", "p2", "p1", "conversation t", "t3", "automatic t"]);
	});
});
