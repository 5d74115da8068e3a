import { Menu, MarkdownView, TFile } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";
import { SecondaryEditor } from "../harness/cm6-editor";
import { COMMAND, InlineEditWorld, settle } from "./inline-edit-world";

const PATH = "Note.md";

/**
 * The hotkeys Obsidian's own commands have by default (Settings → Hotkeys with nothing changed: the core commands,
 * core plugins and the editor's keys), as modifiers+key.
 */
const OBSIDIAN_DEFAULT_HOTKEYS = [
	..."123456789".split("").map((digit) => `Mod+${digit}`),
	..."ABCDEFGHIKLNOPSTVWXYZ".split("").map((letter) => `Mod+${letter}`),
	..."FNTWZ".split("").map((letter) => `Mod+Shift+${letter}`),
	"Mod+Alt+F",
	"Mod+,",
	"Mod+;",
	"Mod+/",
	"Mod+[",
	"Mod+]",
	"Mod+ENTER",
	"Mod+Alt+ENTER",
	"Mod+Alt+Shift+ENTER",
	"Alt+ENTER",
	"Mod+Alt+ARROWLEFT",
	"Mod+Alt+ARROWRIGHT",
	"Ctrl+TAB",
	"Ctrl+Shift+TAB",
	"F1",
	"F2",
];

let windows: BrowserWindows;
let world: InlineEditWorld;

beforeEach(() => {
	windows = BrowserWindows.install();
	world = new InlineEditWorld({ [PATH]: "A paragraph.\n" });
});

afterEach(() => {
	world?.plugin.unload();
	windows?.uninstall();
});

describe("Edit with Claude", () => {
	it("is a command with the default hotkey Mod+J, which none of Obsidian's own commands uses", () => {
		expect(world.plugin.commands).toEqual([
			expect.objectContaining({
				id: COMMAND,
				name: "Edit with Claude",
				hotkeys: [{ modifiers: ["Mod"], key: "j" }],
			}),
		]);
		const ours = world.plugin.commands.flatMap((command) =>
			(command.hotkeys ?? []).map((hotkey) => [...hotkey.modifiers, hotkey.key.toUpperCase()].join("+")),
		);
		expect(ours.filter((hotkey) => OBSIDIAN_DEFAULT_HOTKEYS.includes(hotkey))).toEqual([]);
	});

	it("is offered in a note's editor (Live Preview and Source mode), not in Reading view, nor with no note open; its service loads on first use", async () => {
		expect(world.plugin.runCommand(COMMAND, true)).toBe(false);
		const note = await world.open(PATH);
		expect(world.plugin.runCommand(COMMAND, true)).toBe(true);
		expect(world.loads).toBe(0);
		note.view.mode = "preview";
		expect(world.plugin.runCommand(COMMAND, true)).toBe(false);
		note.view.mode = "source";
		world.plugin.runCommand(COMMAND);
		await settle();
		expect(note.panel).not.toBeNull();
		expect(world.loads).toBeGreaterThan(0);
	});

	it("is in the editor's context menu of a note, and opens the inline edit there; not in an embed's or canvas card's editor", async () => {
		const note = await world.open(PATH);
		const menu = new Menu();
		world.app.workspace.trigger("editor-menu", menu, note.view.editor, note.view);
		expect(menu.items.map((item) => item.title)).toEqual(["Edit with Claude"]);
		menu.items[0]?.click();
		await settle();
		expect(note.panel).not.toBeNull();

		const embed = new SecondaryEditor(world.app as never, new TFile("Other.md") as never, "Embedded text.");
		const embedMenu = new Menu();
		world.app.workspace.trigger("editor-menu", embedMenu, embed.info.editor, embed.info);
		expect(embedMenu.items).toEqual([]);
		expect(embed.info).not.toBeInstanceOf(MarkdownView);
		embed.close();
	});

	it("stops the inline edit's Claude when its editor closes", async () => {
		const note = await world.open(PATH);
		world.plugin.runCommand(COMMAND);
		await settle();
		expect(world.service.sessions).toHaveLength(1);
		note.view.leaf.detach();
		await settle();
		expect(world.service.claude.closed).toBe(true);
	});
});
