import { MarkdownView, type App, type TFile, type WorkspaceLeaf } from "obsidian";
import { selectionSnapshot, type SelectionSnapshot } from "../bridge/selection";
import type { VaultLocation, VaultPaths } from "../bridge/vault-paths";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "../bridge/workspace/workspace-port";

/** The read-only IDE tools' view of Obsidian's workspace: note editors (MarkdownView) only. */
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
		return selectionSnapshot(this.paths.toAbsolute(view.file.path), editor.getSelection(), { line: from.line, character: from.ch }, { line: to.line, character: to.ch });
	}

	async openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		const file = this.app.vault.getFileByPath(target.relative);
		if (!file) throw new Error(`Note not found in the vault: ${target.relative}`);
		const leaf = this.leafShowing(file) ?? this.app.workspace.getLeaf(options.preview ? false : "tab");
		if (!(leaf.view instanceof MarkdownView) || leaf.view.file?.path !== file.path) await leaf.openFile(file, { active: options.makeFrontmost });
		if (options.makeFrontmost) await this.app.workspace.revealLeaf(leaf);
		const view = leaf.view;
		if (options.selection && view instanceof MarkdownView) {
			const { start, end } = options.selection;
			const from = { line: start.line, ch: start.character };
			const to = { line: end.line, ch: end.character };
			view.editor.setSelection(from, to);
			view.editor.scrollIntoView({ from, to }, true);
		}
	}

	openEditors(): OpenEditor[] {
		const active = this.app.workspace.getActiveViewOfType(MarkdownView);
		const editors = new Map<string, OpenEditor>();
		this.app.workspace.iterateAllLeaves((leaf) => {
			const view = leaf.view;
			if (!(view instanceof MarkdownView) || !view.file) return;
			const path = view.file.path;
			const isActive = view === active;
			const known = editors.get(path);
			if (known) known.isActive ||= isActive;
			else editors.set(path, { location: { relative: path, absolute: this.paths.toAbsolute(path) }, isActive, lineCount: view.editor.lineCount() });
		});
		return [...editors.values()];
	}

	/** Obsidian saves notes by itself within seconds; dirty means the editor's text differs from the file now. */
	async isDirty(target: VaultLocation): Promise<boolean | undefined> {
		const view = this.viewOf(target.relative);
		if (!view?.file) return undefined;
		return view.getViewData() !== (await this.app.vault.read(view.file));
	}

	async save(target: VaultLocation): Promise<boolean> {
		const view = this.viewOf(target.relative);
		if (!view) return false;
		await view.save();
		return true;
	}

	private viewOf(relativePath: string): MarkdownView | undefined {
		let found: MarkdownView | undefined;
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (!found && leaf.view instanceof MarkdownView && leaf.view.file?.path === relativePath) found = leaf.view;
		});
		return found;
	}

	private leafShowing(file: TFile): WorkspaceLeaf | undefined {
		return this.viewOf(file.path)?.leaf;
	}
}
