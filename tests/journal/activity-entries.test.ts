import {
	activityEntries,
	groupBySession,
	isUndoable,
	NOT_THIS_DEVICE,
	WRITTEN_BEFORE_SEALS,
} from "../../src/journal/activity-entries";
import type { JournalRecord } from "../../src/journal/journal-records";

const ide = { key: "s1", surface: "ide" as const, client: "claude-code" };
const http = { key: "s2", surface: "vault-tools-http" as const };
const records: JournalRecord[] = [
	{
		type: "change",
		id: "e1",
		at: 10,
		session: ide,
		tool: "edit_note",
		change: { kind: "edit", path: "a.md", before: { hash: "1".repeat(64), bytes: 1 }, after: "2".repeat(64) },
	},
	{
		type: "call",
		id: "e1",
		at: 9,
		session: ide,
		tool: "edit_note",
		notes: ["a.md"],
		args: "path=a.md",
		outcome: "ok",
		durationMs: 3,
		answerBytes: 40,
	},
	{
		type: "call",
		id: "e2",
		at: 20,
		session: http,
		tool: "read_note",
		notes: ["b.md"],
		args: "path=b.md",
		outcome: "error",
		detail: "Note not found",
		durationMs: 1,
		answerBytes: 30,
	},
	{
		type: "call",
		id: "e3",
		at: 30,
		session: ide,
		tool: "getDiagnostics",
		notes: [],
		args: "",
		outcome: "ok",
		durationMs: 1,
		answerBytes: 10,
	},
	{ type: "undo", id: "e1", at: 40 },
];

describe("activityEntries", () => {
	it("merges each call with its changes and its undo, newest first", () => {
		const entries = activityEntries(records);
		expect(entries.map((entry) => entry.id)).toEqual(["e3", "e2", "e1"]);
		expect(entries[2]).toMatchObject({
			tool: "edit_note",
			outcome: "ok",
			notes: ["a.md"],
			undoneAt: 40,
			changes: [{ kind: "edit", path: "a.md" }],
		});
		expect(isUndoable(entries[2])).toBe(false);
		expect(entries[1]?.detail).toBe("Note not found");
	});

	it("groups by session, the newest session first", () => {
		const groups = groupBySession(activityEntries(records));
		expect(groups.map((group) => [group.session.key, group.entries.map((entry) => entry.id)])).toEqual([
			["s1", ["e3", "e1"]],
			["s2", ["e2"]],
		]);
	});

	it("offers undo only for a call that changed notes and was not undone", () => {
		const [change, call] = records;
		const entries = activityEntries([change, call]);
		expect(isUndoable(entries[0])).toBe(true);
		expect(isUndoable(activityEntries([records[2]])[0])).toBe(false);
	});

	describe("judged records (the journal read back)", () => {
		const [change, call] = records;
		const judge = (trust: Record<string, "device" | "older" | "unreadable">, blocked: string[] = []) => ({
			trust: (record: JournalRecord) => trust[`${record.type} ${record.id}`] ?? "device",
			pathProblem: (path: string) =>
				blocked.includes(path) ? "a private note or a file of the config folder" : undefined,
		});

		it("an entry any record of which this device did not write keeps only its id, time, session and tool, and why", () => {
			const [entry] = activityEntries([change, call], judge({ "change e1": "unreadable" }));
			expect(entry).toEqual({
				id: "e1",
				at: 9,
				session: { key: "s1", surface: "ide" },
				tool: "edit_note",
				notes: [],
				args: "",
				changes: [],
				unreadable: NOT_THIS_DEVICE,
			});
			expect(isUndoable(entry)).toBe(false);
		});

		it("an entry naming a path the vault does not allow is unreadable, without the path", () => {
			const [entry] = activityEntries([change, call], judge({}, ["a.md"]));
			expect(entry).toMatchObject({
				notes: [],
				changes: [],
				unreadable: "it names a private note or a file of the config folder",
			});
		});

		it("an entry written before seals is shown but not undoable; records of both kinds in one entry make it unreadable", () => {
			const [older] = activityEntries([change, call], judge({ "change e1": "older", "call e1": "older" }));
			expect(older).toMatchObject({
				notes: ["a.md"],
				changes: [{ kind: "edit" }],
				notUndoable: WRITTEN_BEFORE_SEALS,
			});
			expect(isUndoable(older)).toBe(false);
			expect(activityEntries([change, call], judge({ "call e1": "older" }))[0]?.unreadable).toBeDefined();
		});

		it("an undo record this device did not write marks nothing undone", () => {
			const undo: JournalRecord = { type: "undo", id: "e1", at: 50 };
			expect(
				activityEntries([change, call, undo], judge({ "undo e1": "unreadable" }))[0]?.undoneAt,
			).toBeUndefined();
			expect(activityEntries([change, call, undo], judge({ "undo e1": "older" }))[0]?.undoneAt).toBeUndefined();
			expect(activityEntries([change, call, undo], judge({}))[0]?.undoneAt).toBe(50);
		});
	});
});
