import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import type { ActivityEntry } from "../../../src/journal/activity-entries";
import { Journal } from "../../../src/journal/journal";
import type { CallRecord } from "../../../src/journal/journal-records";
import { contentHash } from "../../../src/journal/content-hash";
import { MemoryJournalStore } from "../../../src/journal/memory-journal-store";
import { Undo } from "../../../src/journal/undo";
import { pluginJournal } from "../../../src/obsidian/activity/plugin-journal";
import { ACTIVITY_ROW_HEIGHT, ActivityView } from "../../../src/obsidian/activity/activity-view";
import { ACTIVITY_EXPORT_FORMAT } from "../../../src/journal/activity-export";
import { App, FakeElement } from "../../__mocks__/obsidian";
import { unreachableByKeyboard } from "../../helpers/keyboard-reach";
import { pollUntil } from "../../helpers/wait-until";
import { testSeal } from "../../journal/test-seal";
import { makeTempDir } from "../../helpers/temp-dir";

/** The user's data folder for the device key of the undo writes made here (never the real one). */
const DATA_HOME = makeTempDir("activity-data");
afterAll(() => DATA_HOME.remove());

function call(index: number, overrides: Partial<CallRecord> = {}): CallRecord {
	return {
		type: "call",
		id: `c${index}`,
		at: 1_000_000 + index,
		session: { key: `s${index % 3}`, surface: index % 2 === 0 ? "vault-tools-http" : "ide", client: "claude-code" },
		tool: index % 5 === 0 ? "search" : "read_note",
		notes: [`Notes/N${index}.md`],
		args: `path: Notes/N${index}.md`,
		outcome: index % 7 === 0 ? "error" : "ok",
		durationMs: 3,
		answerBytes: 100 + index,
		...overrides,
	};
}

async function viewOver(records: CallRecord[]): Promise<{ app: App; view: ActivityView; journal: Journal }> {
	const app = new App("/vault", "Vault");
	const store = new MemoryJournalStore();
	await store.append(records);
	const journal = new Journal({ store, bounds: { maxEntries: 100_000 }, seal: testSeal() });
	const leaf = app.workspace.getLeaf("tab");
	const view = new ActivityView(leaf as unknown as RealLeaf, () => ({ journal }));
	view.load();
	await view.onOpen();
	return { app, view, journal };
}

/** A time of day as the machine's locale writes hours and minutes ("09:41", "9:41 AM"). */
const TIME = "\\d{1,2}:\\d\\d(?:\\s?[AP]M)?";

const root = (view: ActivityView): FakeElement => view.contentEl as unknown as FakeElement;
/** Rows drawn above the first one in view (the view's overscan). */
const OVERSCAN_ROWS = 10;
const rowsOf = (view: ActivityView): FakeElement[] => root(view).findAll("ccb-activity-entry");
const one = (view: ActivityView, cls: string): FakeElement => {
	const found = root(view).findAll(cls)[0];
	if (!found) throw new Error(`no ${cls}`);
	return found;
};

describe("ActivityView", () => {
	it("lists the journal's calls newest first, grouped by conversation: its title, where it took place, each call in words", async () => {
		const { view } = await viewOver([
			call(1, { session: { key: "a", surface: "ide" } }),
			call(2, { session: { key: "b", surface: "panel", title: "Tidy the Lisbon note" } }),
			call(3, { session: { key: "a", surface: "ide" } }),
		]);
		const rows = root(view)
			.findAll("ccb-activity-row")
			.map((row) =>
				row.hasClass("ccb-activity-session")
					? `${row.findAll("ccb-activity-conversation-title")[0]?.text} | ${row.findAll("ccb-activity-conversation-meta")[0]?.text}`
					: row.findAll("ccb-activity-summary")[0]?.textContent,
			);
		expect(rows).toEqual([
			// No words of the user's reach the journal from a terminal: the conversation is told by what it did first.
			expect.stringMatching(new RegExp(`^Read N1 at ${TIME} \\| From the terminal · ${TIME} · 2 calls$`)),
			"Read N3",
			"Read N1",
			expect.stringMatching(new RegExp(`^Tidy the Lisbon note \\| In the panel · ${TIME} · 1 call$`)),
			"Read N2",
		]);
		// No journal's wire words on the rows: no session keys, client names or tool names.
		const listed = one(view, "ccb-activity-window").textContent;
		for (const wire of ["claude-code", "read_note", "Notes/"]) expect(listed).not.toContain(wire);
	});

	it("filters by conversation, place, tool, outcome, note and free text, each box narrowing what is shown", async () => {
		const { view } = await viewOver(Array.from({ length: 30 }, (_, index) => call(index + 1)));
		const pick = (cls: string, value: string): void => {
			const element = one(view, cls);
			element.value = value;
			element.dispatch(cls.includes("note") || cls.includes("text") ? "input" : "change");
		};
		expect(view.shown).toHaveLength(30);
		view.setFilter({ tool: "search" });
		expect(view.shown.map((entry) => entry.id).sort()).toEqual(["c10", "c15", "c20", "c25", "c30", "c5"]);
		pick("ccb-activity-filter-place", "terminal");
		expect(view.shown.map((entry) => entry.id).sort()).toEqual(["c15", "c25", "c5"]);
		pick("ccb-activity-filter-session", "s0");
		expect(view.shown.map((entry) => entry.id)).toEqual(["c15"]);
		pick("ccb-activity-filter-session", "");
		pick("ccb-activity-filter-place", "");
		view.setFilter({});
		pick("ccb-activity-filter-outcome", "error");
		expect(view.shown.map((entry) => entry.id).sort()).toEqual(["c14", "c21", "c28", "c7"]);
		pick("ccb-activity-filter-outcome", "");
		pick("ccb-activity-filter-note", "n2");
		expect(view.shown).toHaveLength(11);
		pick("ccb-activity-filter-text", "N21.md");
		expect(view.shown.map((entry) => entry.id)).toEqual(["c21"]);
		expect(rowsOf(view).map((row) => row.findAll("ccb-activity-summary")[0]?.textContent)).toEqual(["Read N21"]);
		pick("ccb-activity-filter-text", "nothing like this");
		expect(root(view).findAll("ccb-activity-empty")[0]?.text).toBe("No entries match the filters.");
		// The words on the rows are searched too.
		pick("ccb-activity-filter-note", "");
		pick("ccb-activity-filter-text", "searched notes");
		expect(view.shown.map((entry) => entry.id).sort()).toEqual(["c10", "c15", "c20", "c25", "c30", "c5"]);
		// The filters offer words: where, how it ended, conversations by their titles.
		const options = (cls: string): string[] => one(view, cls).children.map((option) => option.text);
		expect(options("ccb-activity-filter-place")).toEqual([
			"Everywhere",
			"In the panel",
			"From the terminal",
			"Vault tools",
			"Other",
		]);
		expect(options("ccb-activity-filter-outcome")).toEqual([
			"Any outcome",
			"Done",
			"Rejected changes",
			"Failed",
			"Refused",
		]);
		expect(options("ccb-activity-filter-session")[1]).toMatch(new RegExp(`^Read N\\d+ at ${TIME}$`));
	});

	it("draws only a window of rows for 10,000 entries, follows scrolling, and keeps filtering", async () => {
		const { view } = await viewOver(Array.from({ length: 10_000 }, (_, index) => call(index + 1)));
		const scroll = one(view, "ccb-activity-scroll");
		expect(view.shown).toHaveLength(10_000);
		expect(one(view, "ccb-activity-sizer").cssProps.get("--ccb-activity-height")).toBe(
			`${10_003 * ACTIVITY_ROW_HEIGHT}px`,
		);
		expect(root(view).findAll("ccb-activity-row").length).toBeLessThanOrEqual(60);

		scroll.clientHeight = 20 * ACTIVITY_ROW_HEIGHT;
		scroll.scrollTop = 5000 * ACTIVITY_ROW_HEIGHT;
		scroll.dispatch("scroll");
		const drawn = root(view).findAll("ccb-activity-row");
		expect(drawn.length).toBeLessThanOrEqual(40);
		expect(one(view, "ccb-activity-window").cssProps.get("--ccb-activity-offset")).toBe(
			`${4990 * ACTIVITY_ROW_HEIGHT}px`,
		);
		// Row 4990 of the list: session s1 (c10000 first) takes rows 0 to 3334, session s0 starts at 3335 with c9999,
		// so row 4990 is s0's entry 1654, newest first: c(9999 - 3 × 1654) = c5037.
		expect(drawn[0]?.findAll("ccb-activity-summary")[0]?.textContent).toBe("Read N5037");

		const note = one(view, "ccb-activity-filter-note");
		note.value = "N9999.md";
		note.dispatch("input");
		expect(view.shown.map((entry: ActivityEntry) => entry.id)).toEqual(["c9999"]);
		expect(rowsOf(view)).toHaveLength(1);
	});

	it("exports what the filters show, as a Markdown note and as JSON, into the folder the user names", async () => {
		const { app, view, journal } = await viewOver(Array.from({ length: 12 }, (_, index) => call(index + 1)));
		view.setFilter({ tool: "search" });
		const folder = one(view, "ccb-activity-export-folder");
		folder.value = "Logs/Claude";
		const button = (text: string): FakeElement | undefined =>
			root(view)
				.findAll("ccb-activity-bar")[0]
				?.children.find((child) => child.tag === "button" && child.text === text);
		button("Export as Markdown")?.dispatch("click");
		button("Export as JSON")?.dispatch("click");
		const written = (extension: string): string | undefined =>
			[...app.vault.contents.entries()].find(
				([path]) => path.startsWith("Logs/Claude/Claude activity ") && path.endsWith(extension),
			)?.[1];
		const markdown = await pollUntil(() => written(".md"), "the Markdown export");
		const json = await pollUntil(() => written(".json"), "the JSON export");
		const searches = await journal.entries({ tool: "search" });
		expect(searches.map((entry) => entry.id).sort()).toEqual(["c10", "c5"]);
		for (const entry of searches) expect(markdown).toContain(`| ${entry.id} | search |`);
		expect(markdown).not.toContain("read_note");
		const parsed = JSON.parse(json) as { format: string; entries: ActivityEntry[] };
		expect(parsed.format).toBe(ACTIVITY_EXPORT_FORMAT);
		expect(parsed.entries).toEqual(searches);
	});
});

/** What Claude Code hands an automatic call: the note it checks, if any. */
function argumentsOf(tool: string): Pick<CallRecord, "notes" | "args"> {
	return tool === "checkDocumentDirty"
		? { notes: ["Trips/Lisbon.md"], args: "filePath=Trips/Lisbon.md" }
		: { notes: [], args: "" };
}

/** A conversation in the terminal: Claude Code's automatic IDE calls around a read and a rejected change. */
function terminalConversation(): CallRecord[] {
	const session = { key: "t", surface: "ide" as const, client: "claude-code", pid: 4242, connection: 1 };
	const automatic = [
		"closeAllDiffTabs",
		"getWorkspaceFolders",
		"getOpenEditors",
		"getCurrentSelection",
		"getDiagnostics",
		"checkDocumentDirty",
	];
	const proposal =
		"# Four days in Lisbon\n\nWe land on Friday morning and take the airport metro into Baixa. The hotel is a short walk.\n";
	return [
		...automatic.map((tool, index) => call(100 + index, { session, tool, ...argumentsOf(tool) })),
		call(110, { session, tool: "read_note", notes: ["Trips/Lisbon.md"], args: "path=Trips/Lisbon.md" }),
		// As journals before this version kept it: the whole proposed text named as if it were a note.
		call(111, {
			session,
			tool: "openDiff",
			notes: ["Trips/Lisbon.md", proposal],
			args: `old_file_path=Trips/Lisbon.md new_file_path=Trips/Lisbon.md new_file_contents=${proposal} tab_name="✻ [Claude Code] Lisbon.md ⧉"`,
			outcome: "rejected",
		}),
		...automatic.slice(4).map((tool, index) => call(120 + index, { session, tool, ...argumentsOf(tool) })),
	];
}

describe("the activity view in the writer's words", () => {
	const summaries = (view: ActivityView): (string | undefined)[] =>
		root(view)
			.findAll("ccb-activity-row")
			.map((row) =>
				row.hasClass("ccb-activity-entry")
					? row.findAll("ccb-activity-summary")[0]?.textContent
					: row.hasClass("ccb-activity-automatic")
						? `[${row.text}]`
						: "(conversation)",
			);

	it("folds Claude Code's automatic IDE calls into one row per conversation, opened by the row or by the filter", async () => {
		const { view } = await viewOver(terminalConversation());
		expect(summaries(view)).toEqual([
			"(conversation)",
			"Proposed a change to Lisbon",
			"Read Lisbon",
			"[8 automatic calls]",
		]);
		expect(view.shown.map((entry) => entry.tool)).toEqual(["openDiff", "read_note"]);
		const fold = one(view, "ccb-activity-automatic");
		expect(fold.tag).toBe("button");
		expect(fold.attributes.get("aria-expanded")).toBe("false");
		fold.dispatch("click");
		expect(summaries(view)).toEqual([
			"(conversation)",
			"Checked for unsaved changes in Lisbon",
			"Checked the notes for problems",
			"Proposed a change to Lisbon",
			"Read Lisbon",
			"Check for unsaved changes in Lisbon",
			"Checked the notes for problems",
			"Looked at your selection",
			"Looked at the notes you have open",
			"Looked at the vault's folder",
			"Closed the review tabs",
			"[Hide 8 automatic calls]",
		]);
		expect(one(view, "ccb-activity-automatic").attributes.get("aria-expanded")).toBe("true");
		one(view, "ccb-activity-automatic").dispatch("click");
		expect(view.shown).toHaveLength(2);
		const toggle = one(view, "ccb-activity-filter-automatic").children.find((child) => child.tag === "input");
		if (!toggle) throw new Error("no checkbox");
		(toggle as unknown as { checked: boolean }).checked = true;
		toggle.dispatch("change");
		expect(view.shown).toHaveLength(10);
		expect(one(view, "ccb-activity-automatic").text).toBe("Hide 8 automatic calls");
	});

	it("says only reads when every folded call only looked", async () => {
		const session = { key: "r", surface: "ide" as const };
		const { view } = await viewOver(
			["getDiagnostics", "getDiagnostics", "checkDocumentDirty"].map((tool, index) =>
				call(index + 1, { session, tool, notes: [], args: "" }),
			),
		);
		expect(one(view, "ccb-activity-automatic").text).toBe("3 automatic reads");
	});

	it("shows a rejected change by its note's name and in words, never the proposed text as a note", async () => {
		const { view } = await viewOver(terminalConversation());
		const [rejected] = rowsOf(view);
		expect(rejected?.findAll("ccb-activity-summary")[0]?.textContent).toBe("Proposed a change to Lisbon");
		expect(rejected?.findAll("ccb-activity-outcome")[0]?.text).toBe("Rejected change");
		expect(one(view, "ccb-activity-window").textContent).not.toContain("Friday");
		rejected?.dispatch("click");
		const details = one(view, "ccb-activity-details");
		await pollUntil(() => details.findAll("ccb-activity-facts")[0], "the details");
		expect(details.findAll("ccb-activity-note").map((link) => link.text)).toEqual(["Lisbon"]);
		expect(details.findAll("ccb-activity-note")[0]?.attributes.get("aria-label")).toBe("Open Trips/Lisbon.md");
	});

	it("keeps the details pane folded away until a row is chosen, and folds it again on Close", async () => {
		const { view } = await viewOver(terminalConversation());
		const details = one(view, "ccb-activity-details");
		expect(details.hasClass("is-empty")).toBe(true);
		rowsOf(view)[1]?.dispatch("click");
		await pollUntil(() => details.findAll("ccb-activity-facts")[0], "the details");
		expect(details.hasClass("is-empty")).toBe(false);
		expect(details.findAll("ccb-activity-details-header")[0]?.textContent).toContain("Read Lisbon");
		expect(rowsOf(view)[1]?.attributes.get("aria-current")).toBe("true");
		details.findAll("ccb-activity-details-close")[0]?.dispatch("click");
		expect(details.hasClass("is-empty")).toBe(true);
		expect(details.children).toEqual([]);
		expect(rowsOf(view).some((row) => row.hasClass("is-selected"))).toBe(false);
	});

	it("lets the keyboard reach every row, fold, filter and button; arrows move between rows, Enter opens one", async () => {
		const { view } = await viewOver([
			...terminalConversation(),
			call(200, { session: { key: "p", surface: "panel", title: "Plan the trip" } }),
		]);
		const focused: FakeElement[] = [];
		const focus = jest.spyOn(FakeElement.prototype, "focus").mockImplementation(function (this: FakeElement) {
			focused.push(this);
		});
		try {
			const rows = (): FakeElement[] =>
				root(view)
					.findAll("ccb-activity-row")
					.filter((row) => !row.hasClass("ccb-activity-session"));
			const [first] = rows();
			expect(first?.attributes.get("role")).toBe("button");
			expect(first?.attributes.get("tabindex")).toBe("0");
			// The panel's conversation is the newest: its one call, then the terminal's (past its heading).
			first?.dispatch("keydown", { key: "ArrowDown" });
			expect(focused.at(-1)?.findAll("ccb-activity-summary")[0]?.textContent).toBe("Proposed a change to Lisbon");
			focused.at(-1)?.dispatch("keydown", { key: "End" });
			expect(focused.at(-1)?.hasClass("ccb-activity-automatic")).toBe(true);
			focused.at(-1)?.dispatch("keydown", { key: "ArrowUp" });
			expect(focused.at(-1)?.findAll("ccb-activity-summary")[0]?.textContent).toBe("Read Lisbon");
			focused.at(-1)?.dispatch("keydown", { key: "Enter" });
			const details = one(view, "ccb-activity-details");
			await pollUntil(() => details.findAll("ccb-activity-facts")[0], "the details");
			// The chosen row is drawn anew, selected, and keeps the focus.
			expect(focused.at(-1)?.hasClass("is-selected")).toBe(true);
			rows()
				.find((row) => row.hasClass("ccb-activity-automatic"))
				?.dispatch("click");
			expect(unreachableByKeyboard(root(view))).toEqual([]);
		} finally {
			focus.mockRestore();
		}
	});

	it("titles a terminal conversation by the note Claude changed in it, else when it began: its words are not in the journal", async () => {
		const terminal = (key: string) => ({ key, surface: "ide" as const, client: "claude-code" });
		const plan = "Trips/Trip plan.md";
		const { view } = await viewOver([
			call(1, { session: terminal("a"), tool: "getWorkspaceFolders", notes: [], args: "" }),
			call(2, { session: terminal("a"), tool: "getDiagnostics", notes: [plan], args: `uri=${plan}` }),
			call(3, {
				session: terminal("a"),
				tool: "openDiff",
				notes: [plan],
				args: `old_file_path=${plan} new_file_path=${plan}`,
				outcome: "ok",
			}),
			call(4, { session: terminal("b"), tool: "getOpenEditors", notes: [], args: "" }),
			call(5, { session: terminal("b"), tool: "getDiagnostics", notes: [plan], args: `uri=${plan}` }),
		]);
		const titles = root(view)
			.findAll("ccb-activity-conversation-title")
			.map((title) => title.text);
		expect(titles).toEqual([
			expect.stringMatching(new RegExp(`^Conversation at ${TIME}$`)),
			expect.stringMatching(new RegExp(`^Edits to Trip plan at ${TIME}$`)),
		]);
		const { children } = one(view, "ccb-activity-filter-session");
		expect(children.map((option) => option.text).slice(1)).toEqual(titles);
	});

	it("shows a title read back from the journal as text only: no control characters, bounded, and none at all when it is not text", async () => {
		const { view } = await viewOver([
			call(1, {
				session: { key: "x", surface: "panel", title: `Fix\u202e the\nnote ${"very ".repeat(40)}` },
			}),
			call(2, { session: { key: "y", surface: "panel", title: { html: "<b>" } as unknown as string } }),
		]);
		const titles = root(view)
			.findAll("ccb-activity-conversation-title")
			.map((title) => title.text);
		expect(titles[0]).toMatch(new RegExp(`^Read N2 at ${TIME}$`));
		expect(titles[1]?.startsWith("Fix the note very very")).toBe(true);
		expect(titles[1]?.length).toBeLessThanOrEqual(80);
		expect(titles[1]).not.toMatch(/[\u202e\n]/);
	});
});

describe("an activity journal read back with records this device did not write", () => {
	it("lists such an entry as unreadable, in words, and its details offer no undo and show nothing of it but why", async () => {
		const planted = {
			...call(1, {
				notes: ["Private/diary.md"],
				args: "path=Private/diary.md",
				at: Date.now() + 1_000,
				session: { key: "evil", surface: "panel" },
			}),
			mac: "ab".repeat(32),
		};
		const { view } = await viewOver([planted]);
		const [row] = rowsOf(view);
		expect(row?.findAll("ccb-activity-outcome")[0]?.text).toBe("Unreadable");
		expect(row?.findAll("ccb-activity-summary")[0]?.text).toBe(
			"Unreadable: this device did not write it as it reads now (another device or an older version wrote it, or it was changed in the journal's folder)",
		);
		expect(row?.hasClass("ccb-outcome-unreadable")).toBe(true);
		row?.dispatch("click");
		const details = one(view, "ccb-activity-details");
		await pollUntil(() => (details.textContent.includes("Unreadable") ? true : undefined), "the details");
		expect(details.textContent).toContain("Nothing of it is shown, and it cannot be undone.");
		expect(details.textContent).not.toContain("diary");
		expect(details.findAll("ccb-activity-undo")).toEqual([]);
	});
});

describe("the activity view while Claude works", () => {
	it("shows new calls by itself, at most one read of the journal per burst, keeping the filters and the rows in view", async () => {
		// Recent calls: the journal's age bound keeps them when the new ones are written.
		const { view, journal } = await viewOver(
			Array.from({ length: 200 }, (_, index) =>
				call(index + 1, { at: Date.now() - 1_000_000 + index, session: { key: "s1", surface: "ide" } }),
			),
		);
		view.setFilter({ tool: "read_note" });
		const scroll = one(view, "ccb-activity-scroll");
		scroll.clientHeight = 10 * ACTIVITY_ROW_HEIGHT;
		scroll.scrollTop = 50 * ACTIVITY_ROW_HEIGHT;
		scroll.dispatch("scroll");
		const rowsInView = root(view).findAll("ccb-activity-row");
		const firstInView = rowsInView[OVERSCAN_ROWS]?.findAll("ccb-activity-summary")[0]?.textContent;
		expect(firstInView).toBeDefined();
		const reads = jest.spyOn(journal, "entries");
		const record = (tool: string, note: string): void => {
			const id = journal.begin({ session: { key: "s1", surface: "ide" }, tool, notes: [note], args: "" });
			journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 1 });
		};
		for (let index = 0; index < 30; index++) record("read_note", `Live/R${index}.md`);
		record("search", "Live/S.md");
		await pollUntil(
			() => view.shown.find((entry) => entry.notes.includes("Live/R29.md")),
			"the new calls in the list",
			{ timeoutMs: 20_000 },
		);
		expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
		expect(view.shown.some((entry) => entry.tool === "search")).toBe(false);
		// 30 new rows above: the list scrolled by as much, so the same rows are in view.
		expect(scroll.scrollTop).toBe(80 * ACTIVITY_ROW_HEIGHT);
		expect(
			root(view).findAll("ccb-activity-row")[OVERSCAN_ROWS]?.findAll("ccb-activity-summary")[0]?.textContent,
		).toBe(firstInView);
		reads.mockRestore();
	});
});

describe("undoing a whole conversation from the activity view", () => {
	const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

	/** Conversation s1 edits A twice and B once (B changed by the user since); conversation s2 edits C. */
	async function sessionView(): Promise<{ app: App; view: ActivityView }> {
		const app = new App("/vault", "Vault");
		const journal = new Journal({ store: new MemoryJournalStore(), seal: testSeal() });
		const edit = async (key: string, path: string, before: string, after: string): Promise<void> => {
			const id = journal.begin({
				session: { key, surface: "vault-tools-http", client: "claude-code", title: `Edits of ${key}` },
				tool: "edit_note",
				notes: [path],
				args: `path=${path}`,
			});
			await journal.recordChange(
				id,
				{
					kind: "edit",
					path,
					before: { hash: contentHash(bytes(before)), bytes: before.length },
					after: contentHash(bytes(after)),
				},
				[{ hash: contentHash(bytes(before)), bytes: bytes(before) }],
			);
			journal.finish(id, { outcome: "ok", durationMs: 1, answerBytes: 1 });
		};
		await edit("s1", "A.md", "a0\n", "a1\n");
		await edit("s1", "B.md", "b0\n", "b1\n");
		await edit("s2", "C.md", "c0\n", "c1\n");
		await edit("s1", "A.md", "a1\n", "a2\n");
		app.vault.writeExternally("A.md", "a2\n");
		app.vault.writeExternally("B.md", "b1 and the user's words\n");
		app.vault.writeExternally("C.md", "c1\n");
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
		return { app, view };
	}

	const sessionButton = (view: ActivityView, key: string): FakeElement | undefined =>
		root(view)
			.findAll("ccb-activity-session")
			.find((row) => row.findAll("ccb-activity-conversation-title")[0]?.text === `Edits of ${key}`)
			?.findAll("ccb-activity-undo-session")[0];

	it("takes back every change of the conversation, newest first, after a second press; a note changed since goes to review, and other conversations stay", async () => {
		const { app, view } = await sessionView();
		sessionButton(view, "s1")?.dispatch("click");
		expect(sessionButton(view, "s1")?.text).toBe("Undo 3 changes? Press again");
		expect(app.vault.contents.get("A.md")).toBe("a2\n");
		sessionButton(view, "s1")?.dispatch("click");
		await pollUntil(
			() => (app.vault.contents.get("A.md") === "a0\n" ? true : undefined),
			"A.md back to its first text",
		);
		const details = one(view, "ccb-activity-details");
		await pollUntil(
			() => (details.findAll("ccb-activity-conflict")[0]?.text.startsWith("B.md") ? true : undefined),
			"B.md's review",
		);
		expect(app.vault.contents.get("B.md")).toBe("b1 and the user's words\n");
		expect(app.vault.contents.get("C.md")).toBe("c1\n");
		const accept = details.findAll("ccb-review-accept")[0];
		accept?.dispatch("click");
		await pollUntil(
			() => (app.vault.contents.get("B.md") === "b0\n" ? true : undefined),
			"B.md's earlier text, accepted",
		);
		await pollUntil(
			() =>
				root(view)
					.findAll("ccb-activity-outcome")
					.filter((cell) => cell.text === "Undone").length === 2
					? true
					: undefined,
			"the two undone calls",
		);
		expect(sessionButton(view, "s2")?.text).toBe("Undo conversation");
	});
});
