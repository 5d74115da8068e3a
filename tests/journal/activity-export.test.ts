import { activityEntries } from "../../src/journal/activity-entries";
import {
	ACTIVITY_EXPORT_FORMAT,
	activityAsJson,
	activityAsMarkdown,
	type ActivityExport,
} from "../../src/journal/activity-export";
import type { JournalRecord } from "../../src/journal/journal-records";

const session = { key: "s1", surface: "vault-tools-http" as const, client: "claude-code" };
const records: JournalRecord[] = [
	{
		type: "call",
		id: "e1",
		at: Date.UTC(2026, 0, 1),
		session,
		tool: "read_note",
		notes: ["a|b.md"],
		args: "path=[[a|b]]",
		outcome: "ok",
		durationMs: 1,
		answerBytes: 10,
	},
	{
		type: "change",
		id: "e2",
		at: Date.UTC(2026, 0, 2),
		session,
		tool: "move_note",
		change: {
			kind: "move",
			from: "x.md",
			to: "y/x.md",
			after: "0".repeat(64),
			rewrites: [{ path: "c.md", before: { hash: "1".repeat(64), bytes: 2 }, after: "2".repeat(64) }],
		},
	},
	{
		type: "call",
		id: "e2",
		at: Date.UTC(2026, 0, 2),
		session,
		tool: "move_note",
		notes: ["x.md"],
		args: "path=x.md to=y/x.md",
		outcome: "ok",
		durationMs: 3,
		answerBytes: 20,
	},
	{ type: "undo", id: "e2", at: Date.UTC(2026, 0, 3) },
];

describe("activity export", () => {
	const entries = activityEntries(records);
	const at = new Date(Date.UTC(2026, 0, 4));

	it("round-trips the entries through JSON", () => {
		const parsed = JSON.parse(activityAsJson(entries, at)) as ActivityExport;
		expect(parsed.format).toBe(ACTIVITY_EXPORT_FORMAT);
		expect(parsed.entries).toEqual(entries);
	});

	it("lists every entry in a Markdown table per session, cells escaped, no links made", () => {
		const markdown = activityAsMarkdown(entries, at);
		const rows = markdown.split("\n").filter((line) => /^\| 2026-/.test(line));
		expect(rows.map((row) => row.split(" | ")[1])).toEqual(["e2", "e1"]);
		expect(markdown).toContain("## Session s1 (vault-tools-http, claude-code)");
		expect(rows[0]).toContain("moved x.md to y/x.md (links in c.md) (undone 2026-01-03T00:00:00.000Z)");
		expect(rows[1]).toContain("a\\|b.md");
		expect(markdown).not.toContain("[[");
		expect(rows.every((row) => row.split(/(?<!\\)\|/).length === 9)).toBe(true);
	});

	it("titles a conversation's table by the user's first words, read as untrusted and made inert", () => {
		const titled = { ...session, key: "s2", title: "Link [[Lisbon]] from #travel\u202e" };
		const markdown = activityAsMarkdown(
			activityEntries([
				{
					type: "call",
					id: "e5",
					at: Date.UTC(2026, 0, 5),
					session: titled,
					tool: "tags",
					notes: [],
					args: "",
					outcome: "ok",
					durationMs: 1,
					answerBytes: 1,
				},
			]),
			at,
		);
		expect(markdown).toContain(
			"## Session s2: Link \\[\\[Lisbon\\]\\] from \\#travel (vault-tools-http, claude-code)",
		);
	});

	it("leaves nothing in a cell that acts when the note opens: no HTML, image, code span, comment or tag (issue 26, finding 8)", () => {
		const args =
			'text=<img src="https://evil.example/x.png"> ![y](https://evil.example/y.png) `$= dv.span(1)` %%hide%% #private\n```dataviewjs';
		const markdown = activityAsMarkdown(
			activityEntries([
				{
					type: "call",
					id: "e9",
					at: Date.UTC(2026, 0, 5),
					session,
					tool: "edit_note",
					notes: ["n.md"],
					args,
					outcome: "ok",
					durationMs: 1,
					answerBytes: 1,
				},
			]),
			at,
		);
		const row = markdown.split("\n").find((line) => line.includes("| e9 |")) ?? "";
		expect(row).toContain(
			'text=&lt;img src="https://evil.example/x.png"> !\\[y\\](https://evil.example/y.png) \\`\\$= dv.span(1)\\` &#37;&#37;hide&#37;&#37; \\#private \\`\\`\\`dataviewjs',
		);
		expect(markdown.split("\n").filter((line) => line.includes("dataviewjs"))).toEqual([row]);
	});

	it("keeps the JSON export plain JSON: the same argument text, unescaped", () => {
		const args = '<img src="x"> | ```dataviewjs';
		const entriesWithHtml = activityEntries([
			{
				type: "call",
				id: "e9",
				at: Date.UTC(2026, 0, 5),
				session,
				tool: "edit_note",
				notes: ["n.md"],
				args,
				outcome: "ok",
				durationMs: 1,
				answerBytes: 1,
			},
		]);
		expect((JSON.parse(activityAsJson(entriesWithHtml, at)) as ActivityExport).entries[0]?.args).toBe(args);
	});
});
