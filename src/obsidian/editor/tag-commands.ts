import { Notice, TFile, TFolder, type Menu, type Plugin, type TAbstractFile } from "obsidian";
import type { MentionOutcome } from "../../ide/notifier";
import type { Mention } from "../../ide/workspace/selection";
import type { VaultPaths } from "../../vault/vault-paths";
import type { BridgeAccess } from "./bridge-access";

const TAG_TITLE = "Tag for Claude Code";
export const BRIDGE_OFF_NOTICE = "Claude Code Bridge is off: turn it on in its settings to tag notes.";

/** What the user tags, by vault path: a note (with a 0-based line range when text is selected) or a folder. */
interface TagTarget {
	path: string;
	folder?: boolean;
	lineStart?: number;
	lineEnd?: number;
}

/**
 * "Tag for Claude Code": the command (default hotkey Mod+Alt+K) and the file explorer's context menus.
 *
 * Both are there whenever something can be tagged, also while the bridge is off: Obsidian hides a command only
 * when it cannot apply to what is on screen, and a hotkey that silently does nothing looks broken. Tagging while
 * the bridge is off says so and how to turn it on.
 *
 * On Windows, AltGr arrives as Ctrl+Alt, so the default Mod+Alt+K also matches AltGr+K, which types a letter on
 * several keyboard layouts. A command callback never sees the key event (obsidian.d.ts `Command`), and Obsidian's
 * hotkey matching is not open to plugins, so the plugin cannot let that keystroke through. (A `Scope` handler
 * would see `getModifierState("AltGraph")`, but it would be a second shortcut that Settings → Hotkeys can neither
 * show nor remove.) docs/using.md and the settings tab say how to rebind the command.
 */
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
				const target = this.activeTarget();
				if (!target) return false;
				if (!checking) this.send([target]);
				return true;
			},
		});
		plugin.registerEvent(plugin.app.workspace.on("file-menu", (menu, file) => this.addMenuItem(menu, [file])));
		plugin.registerEvent(plugin.app.workspace.on("files-menu", (menu, files) => this.addMenuItem(menu, files)));
	}

	/**
	 * The editor the user is in (a note's, or an embedded one's: `activeEditor`) with its main selection's lines,
	 * or the whole note without a selection; else the active file (a canvas, a PDF).
	 */
	private activeTarget(): TagTarget | undefined {
		const workspace = this.plugin.app.workspace;
		const active = workspace.activeEditor;
		const file = active?.file;
		if (active?.editor && file?.extension === "md") {
			const from = active.editor.getCursor("from");
			const to = active.editor.getCursor("to");
			if (from.line === to.line && from.ch === to.ch) return { path: file.path };
			// A selection that ends at the start of a line does not include that line.
			const lineEnd = to.ch === 0 && to.line > from.line ? to.line - 1 : to.line;
			return { path: file.path, lineStart: from.line, lineEnd };
		}
		const activeFile = workspace.getActiveFile();
		return activeFile ? { path: activeFile.path } : undefined;
	}

	private addMenuItem(menu: Menu, files: TAbstractFile[]): void {
		if (files.length === 0 || !files.every((file) => file instanceof TFile || file instanceof TFolder)) return;
		const targets = files.map((file): TagTarget => ({ path: file.path, folder: file instanceof TFolder }));
		// Not offered for private notes and folders (and what leads into them): tagging them would be refused.
		// While the bridge is off the rules are not known here, so the item is offered and says the bridge is off.
		const notifier = this.bridge.notifier();
		const paths = this.bridge.paths();
		if (notifier && paths && targets.every((target) => notifier.isPrivate(mentionOf(target, paths).filePath)))
			return;
		menu.addItem((item) =>
			item
				.setTitle(TAG_TITLE)
				.setIcon("at-sign")
				.onClick(() => this.send(targets)),
		);
	}

	private send(targets: TagTarget[]): void {
		const notifier = this.bridge.notifier();
		const paths = this.bridge.paths();
		if (!notifier || !paths) {
			new Notice(BRIDGE_OFF_NOTICE);
			return;
		}
		const outcomes = targets.map((target) => notifier.mention(mentionOf(target, paths)));
		new Notice(describeOutcomes(outcomes, notifier.queuedMentions));
	}
}

/** The `at_mentioned` params: an absolute path, a folder's ending in "/". */
function mentionOf(target: TagTarget, paths: VaultPaths): Mention {
	const absolute = paths.toAbsolute(target.path);
	if (target.folder) return { filePath: `${absolute}/` };
	return target.lineStart === undefined
		? { filePath: absolute }
		: { filePath: absolute, lineStart: target.lineStart, lineEnd: target.lineEnd };
}

export function describeOutcomes(outcomes: MentionOutcome[], waiting: number): string {
	const count = (outcome: MentionOutcome) => outcomes.filter((entry) => entry === outcome).length;
	const parts: string[] = [];
	if (count("sent") > 0)
		parts.push(count("sent") === 1 ? "Tagged for Claude Code." : `Tagged ${count("sent")} items for Claude Code.`);
	if (count("queued") > 0)
		parts.push(`Claude Code is not connected: the tag is queued and sent when it connects (${waiting} waiting).`);
	if (count("private") > 0)
		parts.push(
			count("private") === 1
				? "Not sent: the note is private (excluded in the settings)."
				: `${count("private")} private notes were not sent.`,
		);
	return parts.join(" ");
}
