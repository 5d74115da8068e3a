import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCreateNoteTool } from "../../../src/vault-tools/tools/create-note";
import type { EditProposal, EditReview } from "../../../src/review/edit-proposal";
import { noteVersion } from "../../../src/vault/notes/note-version";
import { toolOver } from "./vault-tool-env";

const FILES = { "Existing.md": "here\n" };

describe("create_note", () => {
	it("creates the note and its folders, adding .md, and answers its size and version", async () => {
		const tool = toolOver(createCreateNoteTool, FILES);
		try {
			expect((await tool.call({ path: "New/Folder/Idea", content: "# Idea\n" })).text).toBe(
				`Created New/Folder/Idea.md (7 characters). version ${noteVersion("# Idea\n")}`,
			);
			expect(tool.read("New/Folder/Idea.md")).toBe("# Idea\n");
		} finally {
			tool.dispose();
		}
	});

	it("proposes the new note for review and writes what the user accepted", async () => {
		const proposed: Omit<EditProposal, "signal">[] = [];
		const review: EditReview = {
			propose: ({ signal: _signal, ...write }) => {
				proposed.push(write);
				return Promise.resolve({ kind: "accepted", text: "# Changed\n", edited: true });
			},
		};
		const tool = toolOver(createCreateNoteTool, FILES, { review: () => review });
		try {
			expect((await tool.call({ path: "Idea.md", content: "# Idea\n" })).text).toBe(
				`Created Idea.md (10 characters, as changed by the user in the review). version ${noteVersion("# Changed\n")}`,
			);
			expect(proposed).toEqual([
				{
					note: "Idea.md",
					before: undefined,
					after: "# Idea\n",
					proposer: { surface: "vault-tools", client: "Claude's vault tools", tool: "create_note" },
					title: expect.stringMatching(/^Vault tools #\d+: create_note Idea\.md$/) as unknown,
					hearsReason: true,
				},
			]);
			expect(tool.read("Idea.md")).toBe("# Changed\n");
		} finally {
			tool.dispose();
		}
	});

	it("writes nothing when the review is rejected", async () => {
		const tool = toolOver(createCreateNoteTool, FILES, {
			review: () => ({ propose: () => Promise.resolve({ kind: "rejected" }) }),
		});
		try {
			expect((await tool.call({ path: "Idea.md", content: "x" })).text).toBe(
				"Not created: the user rejected the change in the review. Nothing was written.",
			);
			expect(existsSync(join(tool.root, "Idea.md"))).toBe(false);
		} finally {
			tool.dispose();
		}
	});

	it("refuses an existing path, a missing content and writes that are unavailable", async () => {
		const tool = toolOver(createCreateNoteTool, FILES);
		const closed = toolOver(createCreateNoteTool, FILES, { writesUnavailable: () => "Obsidian is not running" });
		try {
			const existing = await tool.call({ path: "Existing.md", content: "new" });
			expect(existing.isError).toBe(true);
			expect(tool.read("Existing.md")).toBe("here\n");
			expect((await tool.call({ path: "Idea.md" })).text).toBe(
				'create_note: "content" is required and must be a string',
			);
			expect(await closed.call({ path: "Idea.md", content: "x" })).toMatchObject({
				isError: true,
				text: "create_note: Obsidian is not running",
			});
			expect(existsSync(join(closed.root, "Idea.md"))).toBe(false);
		} finally {
			tool.dispose();
			closed.dispose();
		}
	});
});
