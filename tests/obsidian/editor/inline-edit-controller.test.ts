import { BrowserWindows } from "../harness/cm6-dom";
import { passageTooLong } from "../../../src/obsidian/editor/inline-edit-controller";
import { notices } from "../../__mocks__/obsidian";
import { pollUntil } from "../../helpers/wait-until";
import { COMMAND, InlineEditWorld, settle, type NoteEditor } from "./inline-edit-world";

const NOTE = "# Trip\n\nThe cat sat on the mat. It was warm there.\n\nWe went home.\n";
const PATH = "Trip.md";

let windows: BrowserWindows;
let world: InlineEditWorld;

beforeEach(() => {
	notices.splice(0);
	windows = BrowserWindows.install();
	world = new InlineEditWorld({ [PATH]: NOTE });
});

afterEach(() => {
	world?.plugin.unload();
	windows?.uninstall();
});

/** Opens the note, selects `needle` and runs "Edit with Claude"; the prompt is ready. */
async function editing(needle: string): Promise<NoteEditor> {
	const note = await world.open(PATH);
	note.driver.dragOver(needle).mouseUp();
	expect(world.plugin.runCommand(COMMAND)).toBe(true);
	await settle();
	return note;
}

/** Asks, and Claude's reply streams in `chunks`, then its turn ends. */
async function proposal(note: NoteEditor, chunks: readonly string[], words = "warmer"): Promise<void> {
	note.ask(words);
	await settle();
	world.service.claude.reply(chunks);
	await settle();
}

describe("an inline edit in the editor", () => {
	it("opens below the selection with the request box focused, and starts Claude after the privacy check; nothing is sent before a request", async () => {
		const note = await editing("The cat sat on the mat.");
		expect(note.panel).not.toBeNull();
		expect(note.panel?.ownerDocument.activeElement).toBe(note.input);
		expect(note.cm.contentDOM.querySelector(".ccb-inline-passage")?.textContent).toBe("The cat sat on the mat.");
		expect(world.service.sessions).toHaveLength(1);
		expect(world.service.claude.sent).toEqual([]);
	});

	it("streams Claude's proposal into the note as suggestions while the note and the file stay as they were", async () => {
		const note = await editing("The cat sat on the mat.");
		note.ask("warmer");
		await settle();
		const [message] = world.service.claude.sent;
		expect(message?.text).toBe("warmer");
		expect(JSON.stringify(message?.prompt)).toContain("The cat sat on the mat.");
		world.service.claude.emit({ kind: "text-delta", blockId: "b", text: "<replacement>The old cat sat on the r" });
		await settle();
		expect(note.status).toBe("Claude is writing…");
		expect(note.suggestions.added).toEqual(["old ", "r"]);
		expect(note.cm.contentDOM.querySelector(".ccb-inline-pending")?.textContent).toBe("mat.");
		world.service.claude.reply(["ug.</replacement>"]);
		await settle();
		expect(note.suggestions).toEqual({ removed: ["mat"], added: ["old ", "rug"] });
		expect(note.status).toBe("2 changes: accept or reject each, or all at once.");
		expect(note.driver.text).toBe(NOTE);
		expect(world.disk(PATH)).toBe(NOTE);
	});

	it("accepting one of two changes writes exactly that one into the editor and the file, recorded for Undo; the other stays to decide", async () => {
		const note = await editing("The cat sat on the mat.");
		await proposal(note, ["<replacement>The old cat sat on the rug.</replacement>"]);
		note.decide("accept", 2);
		await pollUntil(() => world.service.recorded[0], "the accepted change recorded");
		const written = NOTE.replace("the mat.", "the rug.");
		expect(note.driver.text).toBe(written);
		expect(world.disk(PATH)).toBe(written);
		expect(world.service.recorded[0]).toEqual({
			change: { path: PATH, text: written, summary: 'asked "warmer"; accepted 1 change of 2' },
			diskBefore: NOTE,
			diskAfter: written,
		});
		expect(note.suggestions).toEqual({ removed: [], added: ["old "] });
		expect(note.status).toBe("1 change: accept or reject it.");
		note.key(note.input, "Escape");
		await settle();
		expect(note.panel).toBeNull();
		expect(note.driver.text).toBe(written);
		expect(world.service.claude.closed).toBe(true);
	});

	it("reaches every change from the keyboard: Alt+Down and Alt+Up move between them, Enter on one decides it and the focus goes on", async () => {
		const note = await editing("The cat sat on the mat.");
		await proposal(note, ["<replacement>The old cat sat on the rug.</replacement>"]);
		expect(note.panel?.textContent).toContain("Alt+↓ goes to the next change");
		const change = (): string | null | undefined => note.focused?.getAttribute("data-ccb-change");
		note.key(note.input, "ArrowDown", false, true);
		expect(note.focused?.getAttribute("data-ccb-inline")).toBe("accept");
		expect(change()).toBe("1");
		// From the note's text too, through the editor's keymap.
		note.cm.focus();
		note.key(note.cm.contentDOM, "ArrowDown", false, true);
		expect(change()).toBe("1");
		note.key(note.focused as HTMLElement, "ArrowDown", false, true);
		expect(change()).toBe("2");
		note.key(note.focused as HTMLElement, "ArrowUp", false, true);
		expect(change()).toBe("1");
		note.key(note.focused as HTMLElement, "ArrowUp", false, true);
		expect(change()).toBe("2");
		// Enter or Space on a focused button is a click with no pointer (detail 0); jsdom has no activation behaviour.
		(note.focused as HTMLElement).click();
		await pollUntil(() => world.service.recorded[0], "the accepted change recorded");
		expect(world.disk(PATH)).toBe(NOTE.replace("the mat.", "the rug."));
		await pollUntil(() => (change() === "1" ? true : undefined), "the focus on the change left");
		note.key(note.focused as HTMLElement, "Escape");
		await settle();
		expect(note.panel).toBeNull();
		expect(note.driver.text).toBe(NOTE.replace("the mat.", "the rug."));
		expect(note.focused).toBe(note.cm.contentDOM);
	});

	it("rejecting changes writes nothing; when none is left the inline edit closes", async () => {
		const note = await editing("The cat sat on the mat.");
		await proposal(note, ["<replacement>The old cat sat on the rug.</replacement>"]);
		note.decide("reject", 1);
		await settle();
		note.decide("reject", 2);
		await settle();
		expect(note.panel).toBeNull();
		expect(note.driver.text).toBe(NOTE);
		expect(world.disk(PATH)).toBe(NOTE);
		expect(world.service.recorded).toEqual([]);
	});

	it("Escape while Claude writes stops it and leaves the note byte-identical; Ctrl+Enter accepts every change at once", async () => {
		const note = await editing("The cat sat on the mat.");
		note.ask("warmer");
		await settle();
		world.service.claude.emit({ kind: "text-delta", blockId: "b", text: "<replacement>A dog" });
		await settle();
		note.key(note.input, "Escape");
		await settle();
		expect(world.service.claude.interrupts).toBe(1);
		expect(note.panel).toBeNull();
		expect(note.driver.text).toBe(NOTE);
		expect(world.disk(PATH)).toBe(NOTE);

		note.driver.dragOver("We went home.").mouseUp();
		world.plugin.runCommand(COMMAND);
		await settle();
		await proposal(note, ["<replacement>We walked home slowly.</replacement>"], "slower");
		note.key(note.input, "Enter", true);
		await pollUntil(() => world.service.recorded[0], "the change recorded");
		expect(world.disk(PATH)).toBe(NOTE.replace("We went home.", "We walked home slowly."));
		expect(world.service.recorded[0]?.change.summary).toBe('asked "slower"; accepted the one change');
		expect(note.panel).toBeNull();
	});

	it("keeps the user's unsaved typing: it is saved first, so the journal's earlier text is the note as they had it", async () => {
		const note = await editing("We went home.");
		note.cm.dispatch({ changes: { from: 0, insert: "Draft. " } });
		expect(note.view.hasUnsavedChanges).toBe(true);
		await proposal(note, ["<replacement>We drove home.</replacement>"]);
		note.decide("accept", 1);
		await pollUntil(() => world.service.recorded[0], "the change recorded");
		expect(world.service.recorded[0]?.diskBefore).toBe(`Draft. ${NOTE}`);
		expect(world.disk(PATH)).toBe(`Draft. ${NOTE}`.replace("We went home.", "We drove home."));
	});

	it("withdraws the proposal when the user edits the passage, and writes nothing", async () => {
		const note = await editing("The cat sat on the mat.");
		await proposal(note, ["<replacement>The old cat sat on the rug.</replacement>"]);
		const at = note.driver.offsetOf("cat");
		note.cm.dispatch({ changes: { from: at, insert: "big " } });
		await settle();
		expect(note.status).toContain("the proposal was withdrawn");
		expect(note.suggestions).toEqual({ removed: [], added: [] });
		expect(world.service.recorded).toEqual([]);
	});

	it("refines the proposal with a follow-up in the same session, about the passage as the note holds it now", async () => {
		const note = await editing("The cat sat on the mat.");
		await proposal(note, ["<replacement>The old cat sat on the rug.</replacement>"]);
		note.decide("accept", 1);
		await pollUntil(() => world.service.recorded[0], "the first change recorded");
		await proposal(note, ["<replacement>The old cat sat.</replacement>"], "shorter");
		const followUp = world.service.claude.sent[1];
		expect(followUp?.text).toBe("shorter");
		expect(JSON.stringify(followUp?.prompt)).toContain("The old cat sat on the mat.");
		expect(world.service.sessions).toHaveLength(1);
		expect(note.suggestions.removed).toEqual([" on the mat"]);
	});

	it("a private note is refused with the reason, and nothing is sent or started", async () => {
		world.service.refused = "This note is private.";
		const note = await editing("The cat sat on the mat.");
		expect(note.status).toBe("This note is private.");
		expect(note.input.classList.contains("is-hidden")).toBe(true);
		expect(world.service.sessions).toEqual([]);
	});

	it("shows Claude's words when it answers without a proposal, and a passage too long is refused before anything starts", async () => {
		const note = await editing("The cat sat on the mat.");
		await proposal(note, ["Which mat do you mean?"]);
		expect(note.status).toBe("Which mat do you mean?");
		note.key(note.input, "Escape");
		await settle();
		note.cm.dispatch({ changes: { from: 0, insert: "x".repeat(60_000) } });
		note.cm.dispatch({ selection: { anchor: 0, head: 60_000 } });
		world.plugin.runCommand(COMMAND);
		await settle();
		expect(note.status).toBe(passageTooLong());
		expect(world.service.sessions).toHaveLength(1);
	});

	it("without a selection, edits the cursor's paragraph", async () => {
		const note = await world.open(PATH);
		note.driver.click(note.driver.offsetOf("warm"));
		world.plugin.runCommand(COMMAND);
		await settle();
		expect(note.cm.contentDOM.querySelector(".ccb-inline-passage")?.textContent).toBe(
			"The cat sat on the mat. It was warm there.",
		);
	});
});
