import { MarkdownView, Notice, TFile, TFolder, type Menu, type Plugin, type TAbstractFile } from "obsidian";
import type { MentionOutcome } from "../bridge/notifier";
import type { Mention } from "../bridge/selection";
import type { BridgeAccess } from "./bridge-access";

const TAG_TITLE = "Tag for Claude Code";

/** "Tag for Claude Code": the command (default hotkey Mod+Alt+K) and the file explorer's context menus. */
export class TagCommands {
	constructor(
		private readonly plugin: Plugin,
		private readonly bridge: BridgeAccess,
	) {}

	register(): void {
		const { plugin } = this;
		plugin.addCommand({
			id: "tag-for-claude",
			name: TAG_TITLE,
			hotkeys: [{ modifiers: ["Mod", "Alt"], key: "k" }],
			checkCallback: (checking) => {
				const mention = this.mentionOfActiveNote();
				if (!mention) return false;
				if (!checking) this.send([mention]);
				return true;
			},
		});
		plugin.registerEvent(plugin.app.workspace.on("file-menu", (menu, file) => this.addMenuItem(menu, [file])));
		plugin.registerEvent(plugin.app.workspace.on("files-menu", (menu, files) => this.addMenuItem(menu, files)));
	}

	/** With a selection: the note and its 0-based line range; without one: the whole note. */
	mentionOfActiveNote(): Mention | undefined {
		const paths = this.bridge.paths();
		const workspace = this.plugin.app.workspace;
		const view = workspace.getActiveViewOfType(MarkdownView);
		if (paths && view?.file) {
			const filePath = paths.toAbsolute(view.file.path);
			const editor = view.editor;
			if (!editor.somethingSelected()) return { filePath };
			const from = editor.getCursor("from");
			const to = editor.getCursor("to");
			// A selection that ends at the start of a line does not include that line.
			const lineEnd = to.ch === 0 && to.line > from.line ? to.line - 1 : to.line;
			return { filePath, lineStart: from.line, lineEnd };
		}
		const file = workspace.getActiveFile();
		return paths && file ? { filePath: paths.toAbsolute(file.path) } : undefined;
	}

	private addMenuItem(menu: Menu, files: TAbstractFile[]): void {
		const paths = this.bridge.paths();
		if (!paths || files.length === 0) return;
		const mentions = files.map((file): Mention => {
			const absolute = paths.toAbsolute(file.path);
			return { filePath: file instanceof TFolder ? `${absolute}/` : absolute };
		});
		const onlyFilesAndFolders = files.every((file) => file instanceof TFile || file instanceof TFolder);
		if (!onlyFilesAndFolders) return;
		menu.addItem((item) =>
			item
				.setTitle(TAG_TITLE)
				.setIcon("at-sign")
				.onClick(() => this.send(mentions)),
		);
	}

	private send(mentions: Mention[]): void {
		const notifier = this.bridge.notifier();
		if (!notifier) {
			new Notice("Claude Code Bridge is off: turn it on in its settings to tag notes.");
			return;
		}
		const outcomes = mentions.map((mention) => notifier.mention(mention));
		new Notice(describeOutcomes(outcomes, notifier.queuedMentions));
	}
}

export function describeOutcomes(outcomes: MentionOutcome[], waiting: number): string {
	const count = (outcome: MentionOutcome) => outcomes.filter((entry) => entry === outcome).length;
	const parts: string[] = [];
	if (count("sent") > 0) parts.push(count("sent") === 1 ? "Tagged for Claude Code." : `Tagged ${count("sent")} items for Claude Code.`);
	if (count("queued") > 0) parts.push(`Claude Code is not connected: the tag is queued and sent when it connects (${waiting} waiting).`);
	if (count("private") > 0) parts.push(count("private") === 1 ? "Not sent: the note is private (excluded in the settings)." : `${count("private")} private notes were not sent.`);
	return parts.join(" ");
}
