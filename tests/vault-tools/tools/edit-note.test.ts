import { createEditNoteTool } from "../../../src/vault-tools/tools/edit-note";
import { noteVersion } from "../../../src/vault/notes/note-version";
import { toolOver } from "./vault-tool-env";

const NOTE = "# Plan\n## Steps\nold step\n## Notes\nkeep\n";

function setup(options: Parameters<typeof toolOver>[2] = {}) {
	return toolOver(createEditNoteTool, { "Plan.md": NOTE }, options);
}

describe("edit_note", () => {
	it("applies the edits in order and answers each, with the line change and the new version", async () => {
		const tool = setup();
		try {
			const answer = await tool.call({
				path: "Plan",
				edits: [
					{ target: "Plan > Steps", op: "replace", content: "new step\nsecond\n" },
					{ target: { oldText: "keep" }, op: "append", content: " this" },
				],
			});
			const expected = "# Plan\n## Steps\nnew step\nsecond\n## Notes\nkeep this\n";
			expect(tool.read("Plan.md")).toBe(expected);
			expect(answer.text.split("\n")[0]).toBe(
				`Applied 2 edits to Plan.md: now 7 lines (+1), version ${noteVersion(expected)}.`,
			);
			expect(answer.text.split("\n").slice(1)).toHaveLength(2);
			expect(answer.text.split("\n")[1]).toMatch(/^1\. replace /);
			expect(answer.text.split("\n")[2]).toMatch(/^2\. append /);
		} finally {
			tool.dispose();
		}
	});

	it("refuses a stale version and an edit that changes nothing, writing nothing", async () => {
		const tool = setup();
		try {
			const stale = await tool.call({
				path: "Plan",
				version: "AAAAAAAAAAAA",
				edits: [{ target: "Plan > Notes", op: "append", content: "x" }],
			});
			expect(stale.text).toBe(
				`edit_note: version AAAAAAAAAAAA is stale: Plan.md has changed since (now version ${noteVersion(NOTE)}). Nothing was changed; read the note again.`,
			);
			const same = await tool.call({
				path: "Plan",
				version: noteVersion(NOTE),
				edits: [{ target: { oldText: "keep" }, op: "replace", content: "keep" }],
			});
			expect(same.text).toBe(
				"edit_note: No change: the edits leave Plan.md exactly as it is, so nothing was written.",
			);
			expect(tool.read("Plan.md")).toBe(NOTE);
		} finally {
			tool.dispose();
		}
	});

	it("reports a rejected review with the note's unchanged version", async () => {
		const tool = setup({
			review: () => ({ propose: () => Promise.resolve({ kind: "rejected", reason: "not now" }) }),
		});
		try {
			expect(
				(await tool.call({ path: "Plan", edits: [{ target: "Plan > Notes", op: "append", content: "x\n" }] }))
					.text,
			).toBe(
				`Not applied: the user rejected the change in the review: not now. Plan.md is unchanged (version ${noteVersion(NOTE)}).`,
			);
			expect(tool.read("Plan.md")).toBe(NOTE);
		} finally {
			tool.dispose();
		}
	});

	it("says the user changed the text when the accepted text differs from the proposal", async () => {
		const tool = setup({
			review: () => ({ propose: () => Promise.resolve({ kind: "accepted", text: "# Mine\n", edited: true }) }),
		});
		try {
			const answer = await tool.call({ path: "Plan", edits: [{ target: "Plan > Notes", op: "delete" }] });
			expect(answer.text.split("\n")[0]).toBe(
				`Applied 1 edit to Plan.md (the user changed the text in the review; read the note to see it): now 2 lines (-4), version ${noteVersion("# Mine\n")}.`,
			);
			expect(tool.read("Plan.md")).toBe("# Mine\n");
		} finally {
			tool.dispose();
		}
	});

	it("refuses when writes are unavailable, and a missing note", async () => {
		const closed = setup({ writesUnavailable: () => "Obsidian is closed" });
		try {
			expect(
				await closed.call({ path: "Plan", edits: [{ target: "Plan > Notes", op: "delete" }] }),
			).toMatchObject({ isError: true, text: "edit_note: Obsidian is closed" });
			expect(closed.read("Plan.md")).toBe(NOTE);
			expect((await closed.call({ path: "Nope", edits: [] })).isError).toBe(true);
		} finally {
			closed.dispose();
		}
	});
});
