import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EditReview } from "../../../src/review/edit-proposal";
import { assertWritable, lineDelta, reviewAndWrite } from "../../../src/vault-tools/kit/write-flow";
import { createReadNoteTool } from "../../../src/vault-tools/tools/read-note";
import { toolOver } from "../tools/vault-tool-env";

const live = () => ({ sessionId: 1, signal: new AbortController().signal });
const edit = { path: "Note.md", oldText: "old\n", newText: "new\n", isNewNote: false, tool: "edit_note" };

function vaultWith(review?: EditReview, writesUnavailable?: () => string | undefined) {
	return toolOver(
		createReadNoteTool,
		{ "Note.md": "old\n" },
		{ ...(review ? { review: () => review } : {}), ...(writesUnavailable ? { writesUnavailable } : {}) },
	);
}

describe("reviewAndWrite", () => {
	it("writes directly when review is off", async () => {
		const vault = vaultWith();
		try {
			expect(await reviewAndWrite(vault.env, edit, live())).toEqual({
				kind: "written",
				text: "new\n",
				changedByUser: false,
			});
			expect(vault.read("Note.md")).toBe("new\n");
		} finally {
			vault.dispose();
		}
	});

	it("writes what the user accepted and says when it differs from the proposal", async () => {
		const vault = vaultWith({ propose: () => Promise.resolve({ kind: "accepted", text: "mine\n", edited: true }) });
		try {
			expect(await reviewAndWrite(vault.env, edit, live())).toEqual({
				kind: "written",
				text: "mine\n",
				changedByUser: true,
			});
			expect(vault.read("Note.md")).toBe("mine\n");
		} finally {
			vault.dispose();
		}
	});

	it("writes nothing on a rejection or a call cancelled during the review", async () => {
		const rejected = vaultWith({ propose: () => Promise.resolve({ kind: "rejected" }) });
		const controller = new AbortController();
		const cancelled = vaultWith({
			propose: () => {
				controller.abort();
				return Promise.resolve({ kind: "accepted", text: "new\n", edited: true });
			},
		});
		try {
			expect(await reviewAndWrite(rejected.env, edit, live())).toEqual({
				kind: "rejected",
				reason: "the user rejected the change in the review",
			});
			expect(await reviewAndWrite(cancelled.env, edit, { sessionId: 1, signal: controller.signal })).toEqual({
				kind: "rejected",
				reason: "the call was cancelled before the change was written",
			});
			expect(rejected.read("Note.md")).toBe("old\n");
			expect(cancelled.read("Note.md")).toBe("old\n");
		} finally {
			rejected.dispose();
			cancelled.dispose();
		}
	});

	it("writes nothing when the note changed on disk during the review, and says so", async () => {
		let root = "";
		const vault = vaultWith({
			propose: () => {
				writeFileSync(join(root, "Note.md"), "changed elsewhere\n");
				return Promise.resolve({ kind: "accepted", text: "new\n", edited: true });
			},
		});
		root = vault.root;
		try {
			await expect(reviewAndWrite(vault.env, edit, live())).rejects.toThrow(
				"Note.md changed (outside the vault tools) before the change could be written; nothing was written. Read it again and redo the edit.",
			);
			expect(vault.read("Note.md")).toBe("changed elsewhere\n");
		} finally {
			vault.dispose();
		}
	});

	it("refuses to create over a note made meanwhile", async () => {
		const vault = vaultWith();
		try {
			await expect(reviewAndWrite(vault.env, { ...edit, isNewNote: true, oldText: "" }, live())).rejects.toThrow(
				"Note.md was created by someone else meanwhile; nothing was written.",
			);
			expect(vault.read("Note.md")).toBe("old\n");
		} finally {
			vault.dispose();
		}
	});
});

describe("assertWritable", () => {
	it("throws the reason writes are unavailable, naming the tool, and passes otherwise", () => {
		const closed = vaultWith(undefined, () => "Obsidian is closed");
		const open = vaultWith();
		try {
			expect(() => assertWritable(closed.env, "edit_note")).toThrow("edit_note: Obsidian is closed");
			expect(() => assertWritable(open.env, "edit_note")).not.toThrow();
		} finally {
			closed.dispose();
			open.dispose();
		}
	});
});

describe("lineDelta", () => {
	it("counts the lines after the change and the difference, a final line end starting an empty line", () => {
		expect(lineDelta("a\nb\n", "a\n")).toBe("2 lines (-1)");
		expect(lineDelta("", "a\r\nb")).toBe("2 lines (+2)");
		expect(lineDelta("a", "b")).toBe("1 lines (+0)");
	});
});
