import { Notifier } from "../../../src/ide/notifier";
import type { Mention } from "../../../src/ide/workspace/selection";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { TagCommands, describeOutcomes } from "../../../src/obsidian/editor/tag-commands";
import { App, MarkdownView, Menu, Plugin, TFile, TFolder, notices } from "../../__mocks__/obsidian";
import { BrowserWindows } from "../harness/cm6-dom";
import { EditorDriver } from "../harness/cm6-editor";
import { privacyByPath } from "../../helpers/path-privacy";

const COMMAND = "tag-for-claude";
const NOTES: Record<string, string> = {
	"Notes/alpha.md": "# Alpha\nfirst line\nsecond line\nthird line\n",
	"Notes/😀 emoji.md": "😀 one\n😀 two",
	"Private/diary.md": "dear diary",
};

/** Tagging in a realistic Obsidian: real CodeMirror editors, the fake workspace, a real Notifier. */
class TagWorld {
	readonly app = new App("/vault", "Vault");
	readonly plugin = new Plugin(this.app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
	readonly mentions: Mention[] = [];
	connected = true;
	bridgeOn = true;
	readonly notifier = new Notifier({
		broadcast: (method, params) => {
			if (method === "at_mentioned") this.mentions.push(params as Mention);
		},
		notifyClient: () => undefined,
		hasClients: () => this.connected,
		currentSelection: () => undefined,
		privacy: privacyByPath((path) => path.startsWith("/vault/Private/")),
		debounceMs: 100,
		welcomeDelayMs: 0,
		maxQueuedMentions: 10,
		queuedMentionTtlMs: 60_000,
		queuedMentionSpacingMs: 10,
	});

	constructor() {
		for (const [path, text] of Object.entries(NOTES)) this.app.vault.contents.set(path, text);
		const paths = new VaultPaths("/vault");
		new TagCommands(this.plugin as never, {
			paths: () => (this.bridgeOn ? paths : undefined),
			notifier: () => (this.bridgeOn ? this.notifier : undefined),
		}).register();
		this.plugin.load();
		this.app.workspace.finishLayout();
	}

	async open(path: string): Promise<EditorDriver> {
		const leaf = this.app.workspace.getLeaf("tab");
		const file = this.app.vault.getFileByPath(path);
		if (!file) throw new Error(`no note ${path}`);
		await leaf.openFile(file, { active: true });
		this.app.workspace.flushEvents();
		if (!(leaf.view instanceof MarkdownView)) throw new Error("no Markdown view");
		return EditorDriver.of(leaf.view).focus();
	}

	/** The file explorer's context menu on `files` (one: file-menu; several: files-menu). */
	contextMenu(...files: (TFile | TFolder)[]): Menu {
		const menu = new Menu();
		if (files.length === 1) this.app.workspace.trigger("file-menu", menu, files[0], "file-explorer-context-menu");
		else this.app.workspace.trigger("files-menu", menu, files, "file-explorer-context-menu");
		return menu;
	}
}

describe("Tag for Claude Code, with real CodeMirror editors", () => {
	let windows: BrowserWindows;
	let world: TagWorld;

	beforeEach(() => {
		notices.splice(0);
		windows = BrowserWindows.install();
		world = new TagWorld();
	});

	afterEach(() => {
		world?.plugin.unload();
		world?.notifier.dispose();
		windows?.uninstall();
	});

	it("registers the command with the default hotkey Mod+Alt+K", () => {
		expect(world.plugin.commands).toEqual([
			expect.objectContaining({
				id: COMMAND,
				name: "Tag for Claude Code",
				hotkeys: [{ modifiers: ["Mod", "Alt"], key: "k" }],
			}),
		]);
	});

	it("tags the whole note when nothing is selected", async () => {
		const driver = await world.open("Notes/alpha.md");
		driver.click(driver.offsetOf("second"));
		expect(world.plugin.runCommand(COMMAND)).toBe(true);
		expect(world.mentions).toEqual([{ filePath: "/vault/Notes/alpha.md" }]);
		expect(notices).toEqual(["Tagged for Claude Code."]);
	});

	it("tags the selected lines (0-based); a selection ending at a line's start does not include that line", async () => {
		const driver = await world.open("Notes/alpha.md");
		driver.drag(driver.offsetOf("line"), driver.offsetOf("third")).mouseUp();
		world.plugin.runCommand(COMMAND);
		driver.drag(driver.offsetOf("first"), driver.offsetOf("second")).mouseUp();
		world.plugin.runCommand(COMMAND);
		// A backwards selection (dragged upwards) tags the same lines.
		driver.drag(driver.offsetOf("third line", true), driver.offsetOf("second")).mouseUp();
		world.plugin.runCommand(COMMAND);
		expect(world.mentions).toEqual([
			{ filePath: "/vault/Notes/alpha.md", lineStart: 1, lineEnd: 2 },
			{ filePath: "/vault/Notes/alpha.md", lineStart: 1, lineEnd: 1 },
			{ filePath: "/vault/Notes/alpha.md", lineStart: 2, lineEnd: 3 },
		]);
	});

	it("tags the main selection's lines when there are several cursors", async () => {
		const driver = await world.open("Notes/alpha.md");
		driver.selectRanges([
			[driver.offsetOf("Alpha"), driver.offsetOf("Alpha", true)],
			[driver.offsetOf("third"), driver.offsetOf("third line", true)],
		]);
		world.plugin.runCommand(COMMAND);
		expect(world.mentions).toEqual([{ filePath: "/vault/Notes/alpha.md", lineStart: 3, lineEnd: 3 }]);
	});

	it("tags a note whose name has an emoji and spaces by its absolute path", async () => {
		await world.open("Notes/😀 emoji.md");
		world.plugin.runCommand(COMMAND);
		expect(world.mentions).toEqual([{ filePath: "/vault/Notes/😀 emoji.md" }]);
	});

	it("tags the active file when it is not a Markdown note (a canvas), and is hidden with nothing open", () => {
		expect(world.plugin.runCommand(COMMAND, true)).toBe(false);
		world.app.workspace.activeFile = new TFile("Boards/plan.canvas");
		expect(world.plugin.runCommand(COMMAND)).toBe(true);
		expect(world.mentions).toEqual([{ filePath: "/vault/Boards/plan.canvas" }]);
	});

	it("stays available while the bridge is off, and then says so instead of tagging", async () => {
		world.bridgeOn = false;
		await world.open("Notes/alpha.md");
		expect(world.plugin.runCommand(COMMAND, true)).toBe(true);
		world.plugin.runCommand(COMMAND);
		expect(notices).toEqual(["Claude Code Bridge is off: turn it on in its settings to tag notes."]);

		const menu = world.contextMenu(new TFile("Notes/alpha.md"));
		expect(menu.items.map((item) => item.title)).toEqual(["Tag for Claude Code"]);
		menu.items[0]?.click();
		expect(notices).toEqual([
			"Claude Code Bridge is off: turn it on in its settings to tag notes.",
			"Claude Code Bridge is off: turn it on in its settings to tag notes.",
		]);
		expect(world.mentions).toEqual([]);
	});

	it("queues a tag while Claude Code is not connected, and says a private note was not sent", async () => {
		world.connected = false;
		await world.open("Notes/alpha.md");
		world.plugin.runCommand(COMMAND);
		world.connected = true;
		await world.open("Private/diary.md");
		world.plugin.runCommand(COMMAND);
		expect(notices).toEqual([
			"Claude Code is not connected: the tag is queued and sent when it connects (1 waiting).",
			"Not sent: the note is private (excluded in the settings).",
		]);
		expect(world.mentions).toEqual([]);
	});

	it("adds a context-menu item that tags a folder (trailing /), a note, and several files at once", () => {
		const folderMenu = world.contextMenu(new TFolder("Projects"));
		const filesMenu = world.contextMenu(new TFile("Notes/alpha.md"), new TFile("Notes/😀 emoji.md"));
		expect([...folderMenu.items, ...filesMenu.items].map((item) => [item.title, item.icon])).toEqual([
			["Tag for Claude Code", "at-sign"],
			["Tag for Claude Code", "at-sign"],
		]);
		folderMenu.items[0]?.click();
		filesMenu.items[0]?.click();
		expect(world.mentions).toEqual([
			{ filePath: "/vault/Projects/" },
			{ filePath: "/vault/Notes/alpha.md" },
			{ filePath: "/vault/Notes/😀 emoji.md" },
		]);
		expect(notices).toEqual(["Tagged for Claude Code.", "Tagged 2 items for Claude Code."]);
	});

	it("describes mixed outcomes in one notice", () => {
		expect(describeOutcomes(["sent", "private", "private"], 0)).toBe(
			"Tagged for Claude Code. 2 private notes were not sent.",
		);
		expect(describeOutcomes(["queued", "queued"], 2)).toBe(
			"Claude Code is not connected: the tag is queued and sent when it connects (2 waiting).",
		);
	});
});
