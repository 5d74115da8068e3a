import { EditorView, type ViewUpdate } from "@codemirror/view";
import { MarkdownView, editorInfoField, type Plugin } from "obsidian";
import { cursorSnapshot, selectionSnapshot, type SelectionSnapshot } from "../bridge/selection";
import { snapshotFromState } from "./editor-selection";
import type { BridgeAccess } from "./bridge-access";

/**
 * Feeds the Notifier from the editor: every selection change (a CodeMirror update listener), the end of a
 * selection gesture (mouse up, Shift released), and the switch to another note. Only Markdown notes of
 * this vault are reported.
 */
export class EditorTracker {
	private activePath: string | undefined;

	constructor(
		private readonly plugin: Plugin,
		private readonly bridge: BridgeAccess,
	) {}

	register(): void {
		const { plugin } = this;
		plugin.registerEditorExtension(EditorView.updateListener.of((update) => this.onEditorUpdate(update)));
		plugin.registerDomEvent(activeDocument, "mouseup", () => this.bridge.notifier()?.flush());
		plugin.registerDomEvent(activeDocument, "keyup", (event) => {
			if (event.key === "Shift") this.bridge.notifier()?.flush();
		});
		plugin.registerEvent(plugin.app.workspace.on("active-leaf-change", () => this.onActiveLeafChange()));
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

	private onEditorUpdate(update: ViewUpdate): void {
		if (!update.selectionSet) return;
		const file = update.state.field(editorInfoField, false)?.file;
		const paths = this.bridge.paths();
		const notifier = this.bridge.notifier();
		if (!file || file.extension !== "md" || !paths || !notifier) return;
		const absolutePath = paths.toAbsolute(file.path);
		this.activePath = absolutePath;
		notifier.selectionChanged(snapshotFromState(update.state, absolutePath));
	}

	private onActiveLeafChange(): void {
		const paths = this.bridge.paths();
		const view = this.plugin.app.workspace.getActiveViewOfType(MarkdownView);
		if (!paths || !view?.file) return;
		const absolutePath = paths.toAbsolute(view.file.path);
		if (absolutePath === this.activePath) return;
		this.activePath = absolutePath;
		const cursor = view.editor.getCursor("head");
		this.bridge.notifier()?.activeNoteChanged(cursorSnapshot(absolutePath, { line: cursor.line, character: cursor.ch }));
	}
}
