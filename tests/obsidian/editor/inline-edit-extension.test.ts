import { WorkspaceWindow } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";
import { COMMAND, InlineEditWorld, settle, type NoteEditor } from "./inline-edit-world";

const NOTE = "First paragraph here.\n\nSecond paragraph here.\n";
const PATH = "Note.md";

let windows: BrowserWindows;
let world: InlineEditWorld;

beforeEach(() => {
	windows = BrowserWindows.install();
	world = new InlineEditWorld({ [PATH]: NOTE });
});

afterEach(() => {
	world?.plugin.unload();
	windows?.uninstall();
});

async function proposeIn(note: NoteEditor, needle: string, replacement: string): Promise<void> {
	note.driver.dragOver(needle).mouseUp();
	world.plugin.runCommand(COMMAND);
	await settle();
	note.ask("change it");
	await settle();
	world.service.claude.reply([`<replacement>${replacement}</replacement>`]);
	await settle();
}

describe("the inline edit's editor extension", () => {
	it("in the editor itself, Ctrl+Enter accepts every change and Escape dismisses; with none open, the keys are left to Obsidian", async () => {
		const note = await world.open(PATH);
		const press = (key: string, ctrlKey = false): boolean => {
			const event = new KeyboardEvent("keydown", { key, ctrlKey, bubbles: true, cancelable: true });
			note.driver.focus().cm.contentDOM.dispatchEvent(event);
			return event.defaultPrevented;
		};
		await proposeIn(note, "First paragraph here.", "First paragraph, rewritten.");
		expect(press("Escape")).toBe(true);
		await settle();
		expect(note.panel).toBeNull();
		expect(note.driver.text).toBe(NOTE);
		await proposeIn(note, "Second paragraph here.", "Second one.");
		expect(press("Enter", true)).toBe(true);
		await settle(30);
		expect(world.disk(PATH)).toBe("First paragraph here.\n\nSecond one.\n");
		expect(note.panel).toBeNull();
		expect(press("Escape")).toBe(false);
		expect(press("Enter", true)).toBe(false);
	});

	it("gives every editor its own inline edit: split panes of one note each have theirs", async () => {
		const left = await world.open(PATH);
		const right = await world.open(PATH, world.app.workspace.getLeaf("split"));
		expect(right.cm).not.toBe(left.cm);
		await proposeIn(right, "Second paragraph here.", "Second, changed.");
		expect(right.panel).not.toBeNull();
		expect(left.panel).toBeNull();
		expect(world.service.sessions).toHaveLength(1);
		right.decide("accept", 1);
		await settle(30);
		expect(right.driver.text).toBe("First paragraph here.\n\nSecond, changed.\n");
		expect(world.disk(PATH)).toBe(right.driver.text);
	});

	it("works in a pop-out window: the panel and the suggestions are in that window's editor", async () => {
		world.app.workspace.createPopoutWindow = () => windows.openPopout();
		const leaf = world.app.workspace.getLeaf("window");
		const note = await world.open(PATH, leaf);
		expect(leaf.group.container).toBeInstanceOf(WorkspaceWindow);
		expect(note.cm.dom.ownerDocument).not.toBe(document);
		await proposeIn(note, "First paragraph here.", "First, shorter.");
		expect(note.panel?.ownerDocument).toBe(note.cm.dom.ownerDocument);
		expect(note.suggestions.added.join("")).toContain("shorter");
		note.decide("accept", 1);
		await settle(30);
		expect(world.disk(PATH)).toBe("First, shorter.\n\nSecond paragraph here.\n");
	});
});
