import { EditorView, type ViewUpdate } from "@codemirror/view";
import { Component, MarkdownView, editorInfoField, type Plugin, type TFile } from "obsidian";
import { cursorSnapshot, selectionSnapshot, type SelectionSnapshot } from "../../ide/workspace/selection";
import { snapshotFromState } from "./editor-selection";
import type { BridgeAccess } from "./bridge-access";

/**
 * Feeds the Notifier from the editor: selection changes in the editor the user is in (a CodeMirror update
 * listener), the end of a selection gesture (mouse up, Shift released, in every window), and the switch to
 * another note. Only Markdown notes are reported; privacy is applied behind the Notifier's port.
 */
export class EditorTracker {
	private activePath: string | undefined;
	/** One listener set per window (the main one and each popout), removed when the window closes. */
	private readonly windows = new Map<Document, Component>();

	constructor(
		private readonly plugin: Plugin,
		private readonly bridge: BridgeAccess,
	) {}

	register(): void {
		const { plugin } = this;
		const workspace = plugin.app.workspace;
		plugin.registerEditorExtension(EditorView.updateListener.of((update) => this.onEditorUpdate(update)));
		// Plugins load in the main window, so the active document is the main window's now.
		this.watchWindow(activeDocument);
		// Popouts already open (the plugin was enabled or reloaded meanwhile) show up through their leaves.
		workspace.onLayoutReady(() =>
			workspace.iterateAllLeaves((leaf) => this.watchWindow(leaf.view.containerEl.ownerDocument)),
		);
		plugin.registerEvent(workspace.on("window-open", (popout) => this.watchWindow(popout.doc)));
		plugin.registerEvent(workspace.on("window-close", (popout) => this.unwatchWindow(popout.doc)));
		// `file-open` marks every switch of the active note, also inside the same tab (a link, the quick switcher,
		// back/forward), where the leaf stays and the editor's state is swapped without an update listener seeing it.
		plugin.registerEvent(workspace.on("file-open", (file) => this.onFileOpen(file)));
		plugin.registerEvent(workspace.on("active-leaf-change", () => this.onActiveLeafChange()));
	}

	/** The active note's selection now, or undefined when no Markdown note is active. */
	currentSelection(): SelectionSnapshot | undefined {
		const paths = this.bridge.paths();
		const view = this.plugin.app.workspace.getActiveViewOfType(MarkdownView);
		if (!paths || !view?.file) return undefined;
		const editor = view.editor;
		const from = editor.getCursor("from");
		const to = editor.getCursor("to");
		return selectionSnapshot(
			paths.toAbsolute(view.file.path),
			editor.getRange(from, to),
			{ line: from.line, character: from.ch },
			{ line: to.line, character: to.ch },
		);
	}

	private watchWindow(doc: Document | undefined): void {
		if (!doc || this.windows.has(doc)) return;
		const listeners = this.plugin.addChild(new Component());
		listeners.registerDomEvent(doc, "mouseup", () => this.bridge.notifier()?.flush());
		listeners.registerDomEvent(doc, "keyup", (event) => {
			if (event.key === "Shift") this.bridge.notifier()?.flush();
		});
		this.windows.set(doc, listeners);
	}

	private unwatchWindow(doc: Document): void {
		const listeners = this.windows.get(doc);
		if (!listeners) return;
		this.windows.delete(doc);
		this.plugin.removeChild(listeners);
	}

	/**
	 * The listener runs for every CodeMirror editor: other panes, background tabs, hover previews, embeds, canvas
	 * cards. Only the editor the user is in counts: the focused one, or the active editor (whose selection also
	 * moves while focus is in the outline or a search result). For a note's own editor, both the info field and
	 * `activeEditor` hold its MarkdownView.
	 */
	private onEditorUpdate(update: ViewUpdate): void {
		if (!update.selectionSet) return;
		const info = update.state.field(editorInfoField, false);
		if (!info || !(update.view.hasFocus || info === this.plugin.app.workspace.activeEditor)) return;
		const file = info.file;
		const paths = this.bridge.paths();
		const notifier = this.bridge.notifier();
		if (!file || file.extension !== "md" || !paths || !notifier) return;
		const absolutePath = paths.toAbsolute(file.path);
		this.activePath = absolutePath;
		notifier.selectionChanged(snapshotFromState(update.state, absolutePath));
	}

	private onFileOpen(file: TFile | null): void {
		if (!file || file.extension !== "md") return;
		const view = this.plugin.app.workspace.getActiveViewOfType(MarkdownView);
		// The view may not hold the new note yet when the event fires; then its cursor is not the note's.
		const cursor = view?.file === file ? view.editor.getCursor("head") : { line: 0, ch: 0 };
		this.noteOpened(file, cursor);
	}

	private onActiveLeafChange(): void {
		const view = this.plugin.app.workspace.getActiveViewOfType(MarkdownView);
		if (view?.file) this.noteOpened(view.file, view.editor.getCursor("head"));
	}

	/** Another note became active: its cursor goes out once (both events fire on a tab switch). */
	private noteOpened(file: TFile, cursor: { line: number; ch: number }): void {
		const paths = this.bridge.paths();
		if (!paths) return;
		const absolutePath = paths.toAbsolute(file.path);
		if (absolutePath === this.activePath) return;
		this.activePath = absolutePath;
		this.bridge
			.notifier()
			?.activeNoteChanged(cursorSnapshot(absolutePath, { line: cursor.line, character: cursor.ch }));
	}
}
