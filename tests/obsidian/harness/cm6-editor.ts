import { EditorSelection } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import {
	Editor,
	createEditorView,
	destroyEditorView,
	type App,
	type MarkdownFileInfo,
	type MarkdownView,
	type TFile,
} from "../../__mocks__/obsidian";

/**
 * Drives one real CodeMirror editor as a user does: selections by mouse and keyboard, focus, key and mouse events.
 * Keyboard events go through CodeMirror's own keydown handling and keymap. jsdom has no layout, so a mouse drag
 * cannot be hit-tested: `drag` dispatches the transaction CodeMirror's mouse selection would (`select.pointer`),
 * and `mouseUp` fires the real DOM event that ends the gesture.
 */
export class EditorDriver {
	constructor(readonly cm: EditorView) {}

	static of(view: MarkdownView): EditorDriver {
		return new EditorDriver(view.editor.cm);
	}

	get text(): string {
		return this.cm.state.doc.toString();
	}

	/** The offset where `needle` starts (or ends, with `end`), failing loudly when the text lacks it. */
	offsetOf(needle: string, end = false): number {
		const index = this.text.indexOf(needle);
		if (index < 0) throw new Error(`the editor's text has no ${JSON.stringify(needle)}`);
		return end ? index + needle.length : index;
	}

	focus(): this {
		this.cm.focus();
		return this;
	}

	blur(): this {
		this.cm.contentDOM.blur();
		return this;
	}

	/** A mouse drag from `anchor` to `head` (offsets); the button is still down until `mouseUp`. */
	drag(anchor: number, head: number): this {
		this.cm.dispatch({ selection: EditorSelection.single(anchor, head), userEvent: "select.pointer" });
		return this;
	}

	/** Selects the first occurrence of `needle` by mouse, from its start to its end. */
	dragOver(needle: string): this {
		return this.drag(this.offsetOf(needle), this.offsetOf(needle, true));
	}

	/** Several cursors or ranges (Obsidian adds one per Alt/Ctrl-click); `main` is the one the user made last. */
	selectRanges(ranges: [anchor: number, head: number][], main = ranges.length - 1): this {
		this.cm.dispatch({
			selection: EditorSelection.create(
				ranges.map(([anchor, head]) => EditorSelection.range(anchor, head)),
				main,
			),
			userEvent: "select.pointer",
		});
		return this;
	}

	/** Puts the cursor at `offset` by a click (mouse down and up). */
	click(offset: number): this {
		return this.drag(offset, offset).mouseUp();
	}

	mouseUp(): this {
		const view = this.window();
		this.cm.contentDOM.dispatchEvent(
			new view.MouseEvent("mouseup", { bubbles: true, cancelable: true, button: 0 }),
		);
		return this;
	}

	keyDown(key: string, modifiers: { shiftKey?: boolean; altKey?: boolean; ctrlKey?: boolean } = {}): this {
		const view = this.window();
		this.cm.contentDOM.dispatchEvent(
			new view.KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...modifiers }),
		);
		return this;
	}

	keyUp(key: string, modifiers: { shiftKey?: boolean; altKey?: boolean; ctrlKey?: boolean } = {}): this {
		const view = this.window();
		this.cm.contentDOM.dispatchEvent(
			new view.KeyboardEvent("keyup", { key, bubbles: true, cancelable: true, ...modifiers }),
		);
		return this;
	}

	/** Shift held down, `key` pressed `times` times (keydown and keyup each), Shift still held. */
	shiftPress(key: string, times = 1): this {
		this.keyDown("Shift", { shiftKey: true });
		for (let i = 0; i < times; i++) this.keyDown(key, { shiftKey: true }).keyUp(key, { shiftKey: true });
		return this;
	}

	private window(): Window & typeof globalThis {
		const view = this.cm.contentDOM.ownerDocument.defaultView;
		if (!view) throw new Error("the editor is not in a window");
		return view;
	}
}

/**
 * An editor that is not a note's main editor: an embedded note, a hover preview or a canvas card. Its
 * MarkdownFileInfo is not a MarkdownView (obsidian.d.ts: editorInfoField "may be a MarkdownView but not necessarily").
 */
export class SecondaryEditor {
	readonly info: MarkdownFileInfo;
	readonly driver: EditorDriver;

	constructor(app: App, file: TFile, text: string, ownerDocument?: Document) {
		const info: { app: App; file: TFile; editor?: Editor } = { app, file };
		this.info = info;
		const cm = createEditorView(info, text, ownerDocument);
		info.editor = new Editor(cm);
		this.driver = new EditorDriver(cm);
	}

	close(): void {
		destroyEditorView(this.driver.cm);
	}
}
