import { Prec, type Extension } from "@codemirror/state";
import { ViewPlugin, WidgetType, keymap, type EditorView } from "@codemirror/view";
import type { InlineEditController, InlineEditHost } from "./inline-edit-controller";
import { inlineEditDecorationsWith, inlineEditField } from "./inline-edit-state";

/**
 * The controller's module (the prompt, the proposal's suggestions and comparison, the panel), initialised when the
 * first editor opens, not with main.js (issue 31). CodeMirror makes a view plugin at once, so this is a synchronous
 * require and not an `import()`: esbuild keeps the module wrapped in main.js until this first call.
 */
function controllerModule(): typeof import("./inline-edit-controller") {
	return require("./inline-edit-controller") as typeof import("./inline-edit-controller");
}

/**
 * The inline edit's editor extension, registered once with `registerEditorExtension`, so every editor (split panes,
 * pop-out windows, Live Preview and Source mode alike) gets its own state field and controller: nothing of an
 * inline edit lives outside its editor. Escape dismisses and Mod+Enter accepts everything while an inline edit is
 * open, and Alt+↓/↑ move between its changes, ahead of Obsidian's own use of those keys in the editor.
 */
export function inlineEditExtension(host: InlineEditHost): Extension {
	const controller = ViewPlugin.define((view) => new (controllerModule().InlineEditController)(view, host));
	return [
		inlineEditField,
		inlineEditDecorationsWith(new PanelWidget(controller)),
		controller,
		Prec.highest(
			keymap.of([
				{ key: "Escape", run: (view) => view.plugin(controller)?.dismiss() ?? false },
				{ key: "Mod-Enter", run: (view) => view.plugin(controller)?.acceptAll() ?? false },
				{ key: "Alt-ArrowDown", run: (view) => view.plugin(controller)?.moveToChange(1) ?? false },
				{ key: "Alt-ArrowUp", run: (view) => view.plugin(controller)?.moveToChange(-1) ?? false },
			]),
		),
	];
}

/** The panel below the passage: its one element belongs to the editor's controller and is updated in place. */
class PanelWidget extends WidgetType {
	constructor(private readonly controller: ViewPlugin<InlineEditController>) {
		super();
	}

	override eq(other: PanelWidget): boolean {
		return other.controller === this.controller;
	}

	toDOM(view: EditorView): HTMLElement {
		return view.plugin(this.controller)?.panel.element ?? createDiv();
	}

	override ignoreEvent(): boolean {
		return true;
	}
}
