import { JournalWriter, type ApprovedWrite } from "../../src/journal/journal-writer";
import { contentHash } from "../../src/journal/content-hash";
import { Journal } from "../../src/journal/journal";
import { JournalConversation } from "../../src/journal/journal-conversation";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";

const bytes = (text: string): Uint8Array => Buffer.from(text, "utf8");

function setup(files: Record<string, string>) {
	const disk = new Map(Object.entries(files).map(([path, text]) => [path, bytes(text)]));
	const store = new MemoryJournalStore();
	const journal = new Journal({ store });
	// The vault's rules as the journal applies them: a note in Private/, or one whose text has #private.
	const isPrivate = (path: string, text?: string): boolean =>
		path.startsWith("Private/") || (text?.includes("#private") ?? false);
	const readBytes = (path: string) => Promise.resolve(disk.get(path));
	const writer = new JournalWriter({
		journal,
		isPrivate,
		bytes: { readBytes: () => Promise.reject(new Error("the root's cache")) },
	});
	// The panel's CLI writes outside the root's cache: what it wrote is read from disk.
	const writes = writer.approvedBy({ surface: "panel", client: "claude-code", bytes: { readBytes } });
	// The gate hands over the bytes it read once for the review; the journal does not read them again.
	const approve = (write: Omit<ApprovedWrite, "before">) =>
		writes.approved({ ...write, before: disk.get(write.path) });
	/** A write of `tool` allowed in CLI session "cli-1", then the CLI's result: `after` written, or (undefined) failed. */
	const written = async (tool: string, path: string, summary: string, after: string | undefined) => {
		const write = await approve({ path, tool, summary, sessionId: "cli-1" });
		if (after !== undefined) disk.set(path, bytes(after));
		await write.finished(after !== undefined);
	};
	return { disk, store, journal, writes: { approved: approve }, written };
}

describe("JournalWriter: a surface whose own tool writes (the panel's CLI)", () => {
	it("keeps the file's bytes when the write is allowed, and records the change when the CLI reports it", async () => {
		const { disk, journal, writes } = setup({ "note.md": "before\n" });
		const write = await writes.approved({
			path: "note.md",
			tool: "Edit",
			summary: "Edit /vault/note.md",
			sessionId: "cli-1",
		});
		// The pre-image is the text when the write was allowed, whatever happens before the CLI writes.
		disk.set("note.md", bytes("after\n"));
		await write.finished(true);
		await write.finished(true);
		const entries = await journal.entries();
		expect(entries).toHaveLength(1);
		expect(entries[0]).toMatchObject({
			tool: "Edit",
			notes: ["note.md"],
			args: "Edit /vault/note.md",
			outcome: "ok",
			session: { surface: "panel", client: "claude-code" },
		});
		expect(entries[0]?.changes).toEqual([
			{
				kind: "edit",
				path: "note.md",
				before: { hash: contentHash(bytes("before\n")), bytes: 7 },
				after: contentHash(bytes("after\n")),
			},
		]);
		expect(
			Buffer.from((await journal.preImage({ hash: contentHash(bytes("before\n")), bytes: 7 })) ?? []).toString(),
		).toBe("before\n");
	});

	it("records the conversation turn that made a write with its call and its change", async () => {
		const { disk, journal, writes } = setup({ "note.md": "before\n" });
		const write = await writes.approved({
			path: "note.md",
			tool: "Edit",
			summary: "Edit",
			sessionId: "c",
			turn: "t-1",
		});
		disk.set("note.md", bytes("after\n"));
		await write.finished(true);
		expect((await journal.entries())[0]).toMatchObject({ turn: "t-1", changes: [{ kind: "edit" }] });
	});

	it("a new file is recorded as created; a failed tool records no change; one CLI session is one journal session", async () => {
		const { journal, written } = setup({});
		await written("Write", "new.md", "Write new.md", "new\n");
		await written("Write", "other.md", "Write other.md", undefined);
		const entries = await journal.entries();
		const byTool = new Map(entries.map((entry) => [entry.args, entry]));
		expect(byTool.get("Write new.md")?.changes).toEqual([
			{ kind: "create", path: "new.md", after: contentHash(bytes("new\n")) },
		]);
		expect(byTool.get("Write other.md")).toMatchObject({ outcome: "error" });
		expect(byTool.get("Write other.md")?.changes ?? []).toEqual([]);
		expect(new Set(entries.map((entry) => entry.session.key)).size).toBe(1);
	});

	it("a surface's conversation holds all its writes, whatever the CLI's session, with the title known when each opens", async () => {
		const journal = new Journal({ store: new MemoryJournalStore() });
		const writer = new JournalWriter({
			journal,
			isPrivate: () => false,
			bytes: { readBytes: () => Promise.resolve(undefined) },
		});
		const conversation = new JournalConversation(journal, "panel", "claude-code");
		const writes = writer.approvedBy({
			surface: "panel",
			client: "claude-code",
			bytes: { readBytes: () => Promise.resolve(bytes("new\n")) },
			conversation,
		});
		const write = async (path: string, sessionId: string): Promise<void> => {
			const approved = await writes.approved({
				path,
				tool: "Write",
				summary: `Write ${path}`,
				sessionId,
				before: undefined,
			});
			await approved.finished(true);
		};
		await write("a.md", "cli-1");
		conversation.name("Start the chapter");
		await write("b.md", "cli-2");
		const entries = await journal.entries();
		expect(entries.map((entry) => [entry.notes[0], entry.session])).toEqual([
			["b.md", { key: conversation.key, surface: "panel", client: "claude-code", title: "Start the chapter" }],
			["a.md", { key: conversation.key, surface: "panel", client: "claude-code" }],
		]);
	});

	it("an Edit that adds a private tag keeps only that a private note was written: no name, no path in the arguments, no change, no earlier text", async () => {
		const { store, journal, written } = setup({ "Diary.md": "secret plans\n" });
		await written("Edit", "Diary.md", "Edit /vault/Diary.md", "secret plans\n#private\n");
		const [entry] = await journal.entries();
		expect(entry).toMatchObject({
			tool: "Edit",
			notes: [],
			args: "Edit (a private note)",
			outcome: "ok",
			changes: [],
		});
		const stored = JSON.stringify(await store.load());
		expect(stored).not.toContain("Diary");
		expect(stored).not.toContain("/vault/");
		expect(store.blobCount).toBe(0);
	});

	it("a Write that creates a note with a private tag, or in a private folder, is kept the same way", async () => {
		const { store, journal, written } = setup({});
		await written("Write", "Plans.md", "Write /vault/Plans.md", "---\ntags: [x]\n---\n#private plans\n");
		await written("Write", "Private/Q.md", "Write /vault/Private/Q.md", "q\n");
		const entries = await journal.entries();
		expect(entries.map((entry) => ({ notes: entry.notes, args: entry.args, changes: entry.changes }))).toEqual([
			{ notes: [], args: "Write (a private note)", changes: [] },
			{ notes: [], args: "Write (a private note)", changes: [] },
		]);
		const stored = JSON.stringify(await store.load());
		expect(stored).not.toMatch(/Plans|Private\/Q/);
	});
});
