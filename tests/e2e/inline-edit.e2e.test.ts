import type { EditorView } from "@codemirror/view";
import { REPLACEMENT_OPEN } from "../../src/agent/inline-edit/inline-edit-prompt";
import { PRIVATE_NOTE_REFUSAL } from "../../src/assembly/inline-edit-assembly";
import { MarkdownView, type FakeElement } from "../__mocks__/obsidian";
import { pollUntil } from "../helpers/wait-until";
import { BrowserWindows } from "../obsidian/harness/cm6-dom";
import { EditorDriver } from "../obsidian/harness/cm6-editor";
import { startBuiltPanel, type BuiltPanel } from "../security/harness/built-panel";
import { messagesOf, requestText, toolNames } from "./harness/messages-request";
import { slowTextTurn, textTurn } from "./harness/sse-reply";

/**
 * Issue 30's inline edit as a user meets it: the built plugin (main.js) in the Obsidian stand-in, a real CodeMirror
 * editor in jsdom, the pinned real Claude Code found on PATH, and the mock model API. "The disk" is the stand-in's
 * vault, which the plugin reads and writes through Obsidian's API (the CLI never writes here: it has no tools).
 * Two Claude Code launches in all: one inline edit dismissed with Escape, one accepted in part and undone.
 */

jest.setTimeout(240_000);

const NOTE = "# Trip\n\nThe cat sat on the mat. It was warm there.\n\nWe went home.\n";
const PASSAGE = "The cat sat on the mat.";
const COMMAND = "edit-with-claude";
const TIMEOUT = { timeoutMs: 90_000 };

let windows: BrowserWindows | undefined;
let built: BuiltPanel | undefined;
afterEach(async () => {
	await built?.stop();
	windows?.uninstall();
	built = undefined;
	windows = undefined;
});

/** A note opened in a tab, its editor focused. */
async function open(panel: BuiltPanel, path: string): Promise<{ driver: EditorDriver; cm: EditorView }> {
	const file = panel.app.vault.getFileByPath(path);
	if (!file) throw new Error(`no note ${path}`);
	const leaf = panel.app.workspace.getLeaf("tab");
	await leaf.openFile(file, { active: true });
	panel.app.workspace.flushEvents();
	if (!(leaf.view instanceof MarkdownView)) throw new Error("no Markdown view");
	const driver = EditorDriver.of(leaf.view).focus();
	return { driver, cm: driver.cm };
}

const panelOf = (cm: EditorView): HTMLElement | null => cm.dom.querySelector(".ccb-inline-panel");
const statusOf = (cm: EditorView): string => panelOf(cm)?.querySelector(".ccb-inline-status")?.textContent ?? "";
const texts = (cm: EditorView, selector: string): string[] =>
	[...cm.contentDOM.querySelectorAll(selector)].map((element) => element.textContent ?? "");

function ask(cm: EditorView, words: string): void {
	const input = panelOf(cm)?.querySelector<HTMLInputElement>(".ccb-inline-input");
	if (!input) throw new Error("no request box");
	input.value = words;
	input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
}

function press(cm: EditorView, key: string): void {
	cm.focus();
	cm.contentDOM.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
}

/** Selects the passage and runs "Edit with Claude"; resolves once the request box shows. */
async function startEdit(panel: BuiltPanel, driver: EditorDriver): Promise<void> {
	driver.dragOver(PASSAGE).mouseUp();
	expect(panel.plugin.runCommand(COMMAND)).toBe(true);
	await pollUntil(() => panelOf(driver.cm), "the inline edit's panel");
}

const find = (root: FakeElement, cls: string, text?: string): FakeElement | undefined =>
	root.findAll(cls).find((element) => text === undefined || element.textContent.includes(text));

describe("inline edit with the real CLI, through the built plugin", () => {
	it("refuses a private note, shows the proposal in the editor with the file untouched, Escape leaves it byte-identical, accepting one of two changes writes exactly that, and the journal's Undo restores it", async () => {
		windows = BrowserWindows.install();
		built = await startBuiltPanel({
			files: { "Trip.md": NOTE, "Private/Diary.md": "Dear diary: MARMALADE.\n" },
			data: { privateFolders: ["Private"] },
		});
		const panel = built;
		const { app, mock } = panel;
		mock.alsoMain = (body) => requestText(body).includes(REPLACEMENT_OPEN);

		// A private note: refused with the reason before anything starts.
		const diary = await open(panel, "Private/Diary.md");
		diary.driver.click(0);
		panel.plugin.runCommand(COMMAND);
		await pollUntil(() => statusOf(diary.cm) === PRIVATE_NOTE_REFUSAL || undefined, "the refusal");
		press(diary.cm, "Escape");
		expect(panelOf(diary.cm)).toBeNull();

		// Claude's proposal streams into the editor as suggestions; Escape leaves the note byte-identical.
		const trip = await open(panel, "Trip.md");
		await startEdit(panel, trip.driver);
		mock.enqueue(slowTextTurn(["<replacement>The old cat ", "sat on the ", "rug.</replacement>"], 250));
		ask(trip.cm, "make it cosier");
		await pollUntil(
			() => (statusOf(trip.cm) === "Claude is writing…" && texts(trip.cm, "ins").includes("old ")) || undefined,
			"the proposal streaming into the editor",
			TIMEOUT,
		);
		await pollUntil(() => statusOf(trip.cm).startsWith("2 changes") || undefined, "the whole proposal", TIMEOUT);
		const request = mock.mainRequests[0];
		expect(toolNames(request?.body ?? {})).toEqual([]);
		expect(JSON.stringify(messagesOf(request?.body ?? {}))).toContain(PASSAGE);
		expect(requestText(request?.body ?? {})).not.toContain("MARMALADE");
		expect(texts(trip.cm, ".ccb-suggest-removed")).toEqual(["mat"]);
		expect(app.vault.contents.get("Trip.md")).toBe(NOTE);
		press(trip.cm, "Escape");
		expect(panelOf(trip.cm)).toBeNull();
		expect(trip.driver.text).toBe(NOTE);
		expect(app.vault.contents.get("Trip.md")).toBe(NOTE);

		// A second inline edit: accepting one of its two changes writes exactly that one.
		await startEdit(panel, trip.driver);
		mock.enqueue(textTurn("<replacement>The old cat sat on the rug.</replacement>"));
		ask(trip.cm, "make it cosier");
		await pollUntil(() => statusOf(trip.cm).startsWith("2 changes") || undefined, "the proposal", TIMEOUT);
		expect(app.vault.contents.get("Trip.md")).toBe(NOTE);
		trip.cm.contentDOM.querySelector<HTMLElement>('[data-ccb-inline="accept"][data-ccb-change="2"]')?.click();
		const written = NOTE.replace("on the mat.", "on the rug.");
		await pollUntil(
			() => app.vault.contents.get("Trip.md") === written || undefined,
			"the accepted change written",
		);
		expect(trip.driver.text).toBe(written);
		press(trip.cm, "Escape");
		expect(panelOf(trip.cm)).toBeNull();
		expect(app.vault.contents.get("Trip.md")).toBe(written);

		// The activity journal lists it; its Undo puts the note back, and the editor shows it.
		panel.plugin.runCommand("open-activity");
		const activity = await pollUntil(
			() => app.workspace.getLeavesOfType("claude-code-bridge-activity")[0]?.view,
			"the activity view",
		);
		const root = (activity as unknown as { contentEl: FakeElement }).contentEl;
		const entry = await pollUntil(() => find(root, "ccb-activity-entry", "Inline edit"), "the inline edit's entry");
		entry.dispatch("click");
		const undo = await pollUntil(() => find(root, "ccb-activity-undo"), "its Undo");
		undo.dispatch("click");
		await pollUntil(() => app.vault.contents.get("Trip.md") === NOTE || undefined, "the undo");
		await pollUntil(() => trip.driver.text === NOTE || undefined, "the editor showing the note as it was");

		// Inline edits are no conversations: none is left among the panel's past sessions.
		expect(await (await panel.engine()).pastSessions()).toEqual([]);
	});
});
