import { createActiveNoteTool } from "../../../src/vault-tools/tools/active-note";
import type { ActiveNote } from "../../../src/vault-tools/kit/ports";
import { toolOver } from "./vault-tool-env";

const FILES = { "Notes/Open.md": "# Open\nSome selected words here.\n", "Private/Plan.md": "secret\n" };

function withActive(active: ActiveNote | undefined, textCap?: number) {
	return toolOver(createActiveNoteTool, FILES, {
		activeNote: { current: () => Promise.resolve(active) },
		isPrivate: (path) => path.startsWith("Private/"),
		...(textCap ? { textCap } : {}),
	});
}

describe("active_note", () => {
	it("says when no editor is connected", async () => {
		const tool = toolOver(createActiveNoteTool, FILES);
		try {
			expect(await tool.call({})).toEqual({
				isError: false,
				text: "No editor is connected to this vault, so there is no open note.",
				blocks: ["No editor is connected to this vault, so there is no open note."],
			});
		} finally {
			tool.dispose();
		}
	});

	it("names the open note, and the cursor 1-based when nothing is selected", async () => {
		const plain = withActive({ path: "Notes/Open.md" });
		const cursor = withActive({
			path: "Notes/Open.md",
			selection: { from: { line: 1, character: 5 }, to: { line: 1, character: 5 }, text: "" },
		});
		try {
			expect((await plain.call({})).text).toBe("Open: Notes/Open.md");
			expect((await cursor.call({})).text).toBe(
				"Open: Notes/Open.md\nCursor: line 2, column 6; nothing selected.",
			);
		} finally {
			plain.dispose();
			cursor.dispose();
		}
	});

	it("gives the selection with its 1-based range, cut at the text cap with a pointer to read_note", async () => {
		const selection = { from: { line: 1, character: 5 }, to: { line: 1, character: 19 }, text: "selected words" };
		const whole = withActive({ path: "Notes/Open.md", selection });
		const cut = withActive({ path: "Notes/Open.md", selection }, 8);
		try {
			expect((await whole.call({})).text).toBe(
				"Open: Notes/Open.md\nSelection: line 2, column 6 to line 2, column 20:\nselected words",
			);
			expect((await cut.call({})).text).toBe(
				"Open: Notes/Open.md\nSelection: line 2, column 6 to line 2, column 20 (characters 0-8 of 14; use read_note for the rest):\nselected",
			);
		} finally {
			whole.dispose();
			cut.dispose();
		}
	});

	it("answers a private, hidden or missing note exactly as no open note", async () => {
		for (const path of ["Private/Plan.md", ".hidden/x.md", "Gone.md"]) {
			const tool = withActive({
				path,
				selection: { from: { line: 0, character: 0 }, to: { line: 0, character: 6 }, text: "secret" },
			});
			try {
				expect((await tool.call({})).text).toBe("No note is open.");
			} finally {
				tool.dispose();
			}
		}
		const none = withActive(undefined);
		try {
			expect((await none.call({})).text).toBe("No note is open.");
		} finally {
			none.dispose();
		}
	});

	it("takes no arguments", async () => {
		const tool = withActive(undefined);
		try {
			expect(await tool.call({ path: "x" })).toMatchObject({
				isError: true,
				text: 'active_note: unknown argument "path"; active_note takes no arguments',
			});
		} finally {
			tool.dispose();
		}
	});
});
