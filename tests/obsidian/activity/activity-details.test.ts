import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import { contentHash } from "../../../src/journal/content-hash";
import { Journal } from "../../../src/journal/journal";
import { MemoryJournalStore } from "../../../src/journal/memory-journal-store";
import { Undo } from "../../../src/journal/undo";
import { ActivityView } from "../../../src/obsidian/activity/activity-view";
import { pluginJournal } from "../../../src/obsidian/activity/plugin-journal";
import { App, WorkspaceLeaf, type FakeElement } from "../../__mocks__/obsidian";
import { pollUntil } from "../../helpers/wait-until";
import { testSeal } from "../../journal/test-seal";
import { makeTempDir } from "../../helpers/temp-dir";

/** The user's data folder for the device key of the undo writes made here (never the real one). */
const DATA_HOME = makeTempDir("activity-data");
afterAll(() => DATA_HOME.remove());

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A journal holding one edit_note call that changed Notes/A.md from "before" to "after", and the view over it. */
async function editedNote(): Promise<{ app: App; view: ActivityView; id: string }> {
	const app = new App("/vault", "Vault");
	app.vault.writeExternally("Notes/A.md", "after\n");
	const journal = new Journal({ store: new MemoryJournalStore(), seal: testSeal() });
	const id = journal.begin({
		session: { key: "s1", surface: "vault-tools-http", client: "claude-code" },
		tool: "edit_note",
		notes: ["Notes/A.md"],
		args: "path: Notes/A.md, old: before",
	});
	const before = bytes("before\n");
	await journal.recordChange(
		id,
		{
			kind: "edit",
			path: "Notes/A.md",
			before: { hash: contentHash(before), bytes: before.length },
			after: contentHash(bytes("after\n")),
		},
		[{ hash: contentHash(before), bytes: before }],
	);
	journal.finish(id, { outcome: "ok", durationMs: 5, answerBytes: 42 });
	const writes = pluginJournal(
		app as never,
		"/vault",
		{ id: "claude-code-bridge" },
		{ XDG_DATA_HOME: DATA_HOME.path },
		DATA_HOME.path,
	).undo;
	if (!writes) throw new Error("no undo writes");
	const undo = new Undo(journal, {
		readBytes: async (path) => {
			const file = app.vault.getFileByPath(path);
			return file ? new Uint8Array(await app.vault.readBinary(file)) : undefined;
		},
		writeBytes: (path, data, expected) => writes.writeBytes(path, data, expected),
		trash: (path) => writes.trash(path),
		exists: (path) => Promise.resolve(app.vault.getFileByPath(path) !== null),
		renameNote: () => Promise.reject(new Error("no moves here")),
	});
	const view = new ActivityView(app.workspace.getLeaf("tab") as unknown as RealLeaf, () => ({ journal, undo }));
	view.load();
	await view.onOpen();
	return { app, view, id };
}

const root = (view: ActivityView): FakeElement => view.contentEl as unknown as FakeElement;
const withText = (element: FakeElement, tag: string, text: string): FakeElement | undefined =>
	element.children.flatMap((child) => [
		...(child.tag === tag && child.text === text ? [child] : []),
		...(withText(child, tag, text) ? [withText(child, tag, text) as FakeElement] : []),
	])[0];

async function expand(view: ActivityView): Promise<FakeElement> {
	root(view).findAll("ccb-activity-entry")[0]?.dispatch("click");
	return pollUntil(
		() =>
			root(view).findAll("ccb-activity-details")[0]?.findAll("ccb-activity-facts")[0] &&
			root(view).findAll("ccb-activity-details")[0],
		"the details",
	);
}

describe("an activity entry's details and undo", () => {
	it("expands to the call's arguments, answer size, notes and the diff of its change; a note opens on click", async () => {
		const { app, view } = await editedNote();
		const details = await expand(view);
		await pollUntil(() => details.findAll("ccb-diff")[0], "the diff");
		// The call as recorded (its tool, arguments, size, journal ids) is folded away from the facts in words.
		const recorded = details.findAll("ccb-activity-recorded")[0];
		expect(recorded?.tag).toBe("details");
		expect(recorded?.textContent).toContain("path: Notes/A.md, old: before");
		expect(recorded?.textContent).toContain("42 bytes");
		const inWords = details.findAll("ccb-activity-facts")[0];
		expect(inWords?.textContent).not.toContain("path: Notes/A.md");
		expect(inWords?.textContent).not.toContain("Journal entry");
		expect(details.findAll("ccb-diff")[0]?.textContent).toContain("before");
		expect(details.findAll("ccb-diff")[0]?.textContent).toContain("after");
		const opened = jest.spyOn(WorkspaceLeaf.prototype, "openFile");
		details.findAll("ccb-activity-note")[0]?.dispatch("click");
		await pollUntil(() => opened.mock.calls[0], "the note to open");
		expect(opened.mock.calls[0]?.[0].path).toBe("Notes/A.md");
		opened.mockRestore();
		expect(app.vault.contents.get("Notes/A.md")).toBe("after\n");
	});

	it("Undo puts the earlier text back when the note still holds what the change left, and shows it undone", async () => {
		const { app, view } = await editedNote();
		const details = await expand(view);
		details.findAll("ccb-activity-undo")[0]?.dispatch("click");
		await pollUntil(() => (app.vault.contents.get("Notes/A.md") === "before\n" ? true : undefined), "the undo");
		await pollUntil(
			() =>
				root(view)
					.findAll("ccb-activity-outcome")
					.find((cell) => cell.text === "Undone"),
			"the entry shown undone",
		);
		expect(root(view).findAll("ccb-activity-undo")).toHaveLength(0);
	});

	it("a conflicting undo writes nothing by itself: it opens the review panel, and only accepting writes the chosen text", async () => {
		const { app, view } = await editedNote();
		app.vault.writeExternally("Notes/A.md", "the user's edit\n");
		const details = await expand(view);
		details.findAll("ccb-activity-undo")[0]?.dispatch("click");
		await pollUntil(() => details.findAll("ccb-review")[0], "the review panel");
		expect(details.findAll("ccb-activity-conflict")[0]?.text).toContain("Notes/A.md changed since this call");
		expect(app.vault.contents.get("Notes/A.md")).toBe("the user's edit\n");
		withText(details, "button", "Reject")?.dispatch("click");
		await pollUntil(() => (details.findAll("ccb-review").length === 0 ? true : undefined), "the details again");
		expect(app.vault.contents.get("Notes/A.md")).toBe("the user's edit\n");

		details.findAll("ccb-activity-undo")[0]?.dispatch("click");
		await pollUntil(() => details.findAll("ccb-review")[0], "the review panel again");
		withText(details, "button", "Accept all")?.dispatch("click");
		await pollUntil(
			() => (app.vault.contents.get("Notes/A.md") === "before\n" ? true : undefined),
			"the chosen text written",
		);
	});

	it("a conflicting undo of a move reviews every note changed since, one after another, and writes only what is accepted", async () => {
		const app = new App("/vault", "Vault");
		app.vault.writeExternally("Z.md", "# A\n");
		app.vault.writeExternally("B.md", "see [[Z]] and the user's line\n");
		app.vault.writeExternally("C.md", "also [[Z]], edited since\n");
		const journal = new Journal({ store: new MemoryJournalStore(), seal: testSeal() });
		const id = journal.begin({
			session: { key: "s1", surface: "vault-tools-http" },
			tool: "move_note",
			notes: [],
			args: "from=A.md to=Z.md",
		});
		const oldB = bytes("see [[A]]\n");
		const oldC = bytes("also [[A]]\n");
		const rewrite = (
			path: string,
			before: Uint8Array,
			after: string,
		): { path: string; before: { hash: string; bytes: number }; after: string } => ({
			path,
			before: { hash: contentHash(before), bytes: before.length },
			after: contentHash(bytes(after)),
		});
		await journal.recordChange(
			id,
			{
				kind: "move",
				from: "A.md",
				to: "Z.md",
				after: contentHash(bytes("# A\n")),
				rewrites: [rewrite("B.md", oldB, "see [[Z]]\n"), rewrite("C.md", oldC, "also [[Z]]\n")],
			},
			[
				{ hash: contentHash(oldB), bytes: oldB },
				{ hash: contentHash(oldC), bytes: oldC },
			],
		);
		journal.finish(id, { outcome: "ok", durationMs: 5, answerBytes: 42 });
		const undo = new Undo(journal, {
			readBytes: async (path) => {
				const file = app.vault.getFileByPath(path);
				return file ? new Uint8Array(await app.vault.readBinary(file)) : undefined;
			},
			writeBytes: () => Promise.reject(new Error("not in a conflict")),
			trash: () => Promise.reject(new Error("not in a conflict")),
			exists: (path) => Promise.resolve(app.vault.getFileByPath(path) !== null),
			renameNote: () => Promise.reject(new Error("not in a conflict")),
		});
		const view = new ActivityView(app.workspace.getLeaf("tab") as unknown as RealLeaf, () => ({ journal, undo }));
		view.load();
		await view.onOpen();
		const details = await expand(view);
		details.findAll("ccb-activity-undo")[0]?.dispatch("click");
		const reviewing = (path: string) => (): true | undefined =>
			details.findAll("ccb-activity-conflict")[0]?.text.startsWith(path) ? true : undefined;
		await pollUntil(reviewing("B.md"), "B.md's review");
		expect(details.findAll("ccb-activity-conflict")[0]?.text).toContain("note 1 of 2");
		withText(details, "button", "Accept all")?.dispatch("click");
		await pollUntil(reviewing("C.md"), "C.md's review");
		expect(app.vault.contents.get("B.md")).toBe("see [[A]]\n");
		expect(app.vault.contents.get("C.md")).toBe("also [[Z]], edited since\n");
		withText(details, "button", "Reject")?.dispatch("click");
		await pollUntil(() => (details.findAll("ccb-review").length === 0 ? true : undefined), "the details again");
		expect(app.vault.contents.get("C.md")).toBe("also [[Z]], edited since\n");
		expect(app.vault.contents.get("Z.md")).toBe("# A\n");
	});
});
