import { App, MarkdownView, Plugin, TFile, TFolder, notices } from "../__mocks__/obsidian";
import type { Mention } from "../../src/bridge/selection";
import { VaultPaths } from "../../src/bridge/vault-paths";
import type { Notifier } from "../../src/bridge/notifier";
import { TagCommands, describeOutcomes } from "../../src/obsidian/tag-commands";

interface Cursor {
	line: number;
	ch: number;
}

function fakeEditor(from: Cursor, to: Cursor) {
	return {
		somethingSelected: () => from.line !== to.line || from.ch !== to.ch,
		getCursor: (which: string) => (which === "to" ? to : from),
	};
}

function setUp(hasNotifier = true) {
	const app = new App("/vault", "Vault");
	const plugin = new Plugin(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
	const sent: Mention[] = [];
	const notifier = { mention: (mention: Mention) => (sent.push(mention), "sent" as const), queuedMentions: 0 };
	const paths = new VaultPaths("/vault");
	const commands = new TagCommands(plugin as never, { paths: () => paths, notifier: () => (hasNotifier ? (notifier as unknown as Notifier) : undefined) });
	commands.register();
	return { app, plugin, commands, sent };
}

function activeNote(app: App, path: string, from: Cursor, to: Cursor): void {
	const view = new MarkdownView();
	view.file = new TFile(path);
	view.editor = fakeEditor(from, to);
	app.workspace.activeView = view;
}

describe("Tag for Claude Code", () => {
	beforeEach(() => notices.splice(0));

	it("registers the command with the default hotkey Mod+Alt+K", () => {
		const { plugin } = setUp();
		expect(plugin.commands).toEqual([expect.objectContaining({ id: "tag-for-claude", name: "Tag for Claude Code", hotkeys: [{ modifiers: ["Mod", "Alt"], key: "k" }] })]);
	});

	it("tags the whole note without a selection", () => {
		const { app, commands } = setUp();
		activeNote(app, "Daily/today.md", { line: 3, ch: 2 }, { line: 3, ch: 2 });
		expect(commands.mentionOfActiveNote()).toEqual({ filePath: "/vault/Daily/today.md" });
	});

	it("tags the selected 0-based line range; a selection ending at a line start excludes that line", () => {
		const { app, commands } = setUp();
		activeNote(app, "a.md", { line: 2, ch: 4 }, { line: 5, ch: 1 });
		expect(commands.mentionOfActiveNote()).toEqual({ filePath: "/vault/a.md", lineStart: 2, lineEnd: 5 });
		activeNote(app, "a.md", { line: 2, ch: 0 }, { line: 5, ch: 0 });
		expect(commands.mentionOfActiveNote()).toEqual({ filePath: "/vault/a.md", lineStart: 2, lineEnd: 4 });
	});

	it("falls back to the active file when it is not a Markdown editor, and is unavailable with nothing open", () => {
		const { app, commands, plugin } = setUp();
		const command = plugin.commands[0] as unknown as { checkCallback: (checking: boolean) => boolean };
		expect(command.checkCallback(true)).toBe(false);
		app.workspace.activeFile = new TFile("drawing.canvas");
		expect(commands.mentionOfActiveNote()).toEqual({ filePath: "/vault/drawing.canvas" });
		expect(command.checkCallback(true)).toBe(true);
	});

	it("sends through the notifier and says so; says the bridge is off when it is", () => {
		const { app, plugin, sent } = setUp();
		activeNote(app, "a.md", { line: 0, ch: 0 }, { line: 0, ch: 0 });
		(plugin.commands[0] as unknown as { checkCallback: (checking: boolean) => boolean }).checkCallback(false);
		expect(sent).toEqual([{ filePath: "/vault/a.md" }]);
		expect(notices).toEqual(["Tagged for Claude Code."]);

		const off = setUp(false);
		activeNote(off.app, "a.md", { line: 0, ch: 0 }, { line: 0, ch: 0 });
		(off.plugin.commands[0] as unknown as { checkCallback: (checking: boolean) => boolean }).checkCallback(false);
		expect(notices.at(-1)).toMatch(/^Claude Code Bridge is off/);
	});

	it("adds a file-menu item that tags files, folders (trailing /) and several files", () => {
		const { app, sent } = setUp();
		const items: { title: string; click: () => void }[] = [];
		const menu = {
			addItem: (build: (item: unknown) => void) => {
				const item = { title: "", click: () => undefined as unknown, setTitle(t: string) { this.title = t; return this; }, setIcon() { return this; }, onClick(c: () => void) { this.click = c; return this; } };
				build(item);
				items.push(item);
			},
		};
		app.workspace.trigger("file-menu", menu, new TFolder("Projects"));
		app.workspace.trigger("files-menu", menu, [new TFile("a.md"), new TFile("b.md")]);
		expect(items.map((item) => item.title)).toEqual(["Tag for Claude Code", "Tag for Claude Code"]);
		items.forEach((item) => item.click());
		expect(sent).toEqual([{ filePath: "/vault/Projects/" }, { filePath: "/vault/a.md" }, { filePath: "/vault/b.md" }]);
	});

	it("describes queued and private outcomes", () => {
		expect(describeOutcomes(["queued"], 2)).toBe("Claude Code is not connected: the tag is queued and sent when it connects (2 waiting).");
		expect(describeOutcomes(["private"], 0)).toBe("Not sent: the note is private (excluded in the settings).");
		expect(describeOutcomes(["sent", "sent"], 0)).toBe("Tagged 2 items for Claude Code.");
	});
});
