import { MarkdownView, normalizePath, type App, type WorkspaceLeaf } from "obsidian";
import { selectionSnapshot, type SelectionSnapshot } from "../../ide/workspace/selection";
import type { VaultLocation, VaultPaths } from "../../vault/vault-paths";
import { lineCount } from "../../ide/workspace/text-range";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "../../ide/workspace/workspace-port";
import { sameText } from "./line-endings";

/**
 * A tab that shows a note: loaded (its view is a MarkdownView) or deferred. Since Obsidian 1.7.2 background tabs
 * restored at startup hold a placeholder view until shown; their saved view state still names the note.
 */
interface NoteTab {
	leaf: WorkspaceLeaf;
	path: string;
	/** The loaded view, or undefined while the tab is deferred. */
	view: MarkdownView | undefined;
}

/** The read-only IDE tools' view of Obsidian's workspace: note tabs (Markdown views, loaded or deferred) only. */
export class ObsidianWorkspace implements WorkspacePort {
	constructor(
		private readonly app: App,
		private readonly paths: VaultPaths,
	) {}

	currentSelection(): SelectionSnapshot | undefined {
		const view = this.app.workspace.getActiveViewOfType(MarkdownView);
		if (!view?.file) return undefined;
		const editor = view.editor;
		const from = editor.getCursor("from");
		const to = editor.getCursor("to");
		return selectionSnapshot(
			this.paths.toAbsolute(view.file.path),
			editor.getSelection(),
			{ line: from.line, character: from.ch },
			{ line: to.line, character: to.ch },
		);
	}

	async openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		const path = normalizePath(target.relative);
		const file = this.app.vault.getFileByPath(path);
		if (!file) throw new Error(`Note not found in the vault: ${path}`);
		const existing = this.tabOf(path)?.leaf;
		const leaf = existing ?? this.app.workspace.getLeaf(options.preview ? false : "tab");
		if (!existing) await leaf.openFile(file, { active: options.makeFrontmost });
		// revealLeaf loads a deferred tab; a background one is loaded only when its editor is needed.
		if (options.makeFrontmost) await this.app.workspace.revealLeaf(leaf);
		if (!options.selection) return;
		await leaf.loadIfDeferred();
		const view = leaf.view;
		if (!(view instanceof MarkdownView)) return;
		const { start, end } = options.selection;
		const from = { line: start.line, ch: start.character };
		const to = { line: end.line, ch: end.character };
		view.editor.setSelection(from, to);
		view.editor.scrollIntoView({ from, to }, true);
	}

	openEditors(): OpenEditor[] {
		const active = this.app.workspace.getActiveViewOfType(MarkdownView);
		const editors = new Map<string, OpenEditor>();
		for (const { path, view } of this.noteTabs()) {
			const isActive = view !== undefined && view === active;
			const known = editors.get(path);
			if (known) {
				known.isActive ||= isActive;
				if (known.lineCount === undefined && view) known.lineCount = lineCount(view.getViewData());
				continue;
			}
			const editor: OpenEditor = {
				location: { relative: path, absolute: this.paths.toAbsolute(path) },
				isActive,
			};
			// A deferred tab has no editor yet; its line count is not known without reading the note.
			if (view) editor.lineCount = lineCount(view.getViewData());
			editors.set(path, editor);
		}
		return [...editors.values()];
	}

	/**
	 * Obsidian saves notes by itself within seconds; dirty means the editor's text differs from the file now.
	 * CodeMirror turns CRLF into LF, so the comparison ignores line-ending style. A deferred tab has shown no
	 * editor since the restart, so it holds nothing unsaved.
	 */
	async isDirty(target: VaultLocation): Promise<boolean | undefined> {
		const tab = this.tabOf(normalizePath(target.relative));
		if (!tab) return undefined;
		const file = tab.view?.file;
		if (!tab.view || !file) return false;
		return !sameText(tab.view.getViewData(), await this.app.vault.read(file));
	}

	async save(target: VaultLocation): Promise<boolean> {
		const tab = this.tabOf(normalizePath(target.relative));
		if (!tab) return false;
		if (tab.view) await tab.view.save();
		return true;
	}

	/** The tab showing this note, a loaded one first. */
	private tabOf(path: string): NoteTab | undefined {
		const tabs = this.noteTabs().filter((tab) => tab.path === path);
		return tabs.find((tab) => tab.view !== undefined) ?? tabs[0];
	}

	private noteTabs(): NoteTab[] {
		const tabs: NoteTab[] = [];
		this.app.workspace.iterateAllLeaves((leaf) => {
			const view = leaf.view;
			if (view instanceof MarkdownView) {
				if (view.file) tabs.push({ leaf, path: view.file.path, view });
				return;
			}
			if (!leaf.isDeferred) return;
			const state = leaf.getViewState();
			const file = state.state?.file;
			if (state.type === "markdown" && typeof file === "string")
				tabs.push({ leaf, path: normalizePath(file), view: undefined });
		});
		return tabs;
	}
}
