import type { EditorView } from "@codemirror/view";
import { MarkdownView, editorInfoField, type Menu, type Plugin } from "obsidian";
import type { InlineEditService } from "../../agent/inline-edit/inline-edit-service";
import type { EditedNote, InlineEditController } from "./inline-edit-controller";
import { inlineEditExtension } from "./inline-edit-extension";

const EDIT_TITLE = "Edit with Claude";

/**
 * "Edit with Claude": the command (default hotkey Mod+J, which Obsidian itself leaves free), the editor's context
 * menu item, and the editor extension that shows the inline edit in the note. Offered in a note's own editor, in
 * Live Preview and Source mode; the service (privacy, Claude Code, the journal) loads on first use.
 */
export class InlineEditCommands {
	private readonly controllers = new Set<InlineEditController>();

	constructor(
		private readonly plugin: Plugin,
		private readonly service: () => Promise<InlineEditService>,
	) {}

	register(): void {
		const { plugin } = this;
		plugin.registerEditorExtension(
			inlineEditExtension({
				service: this.service,
				noteOf: (view) => noteOf(view),
				controllers: this.controllers,
			}),
		);
		plugin.addCommand({
			id: "edit-with-claude",
			name: EDIT_TITLE,
			hotkeys: [{ modifiers: ["Mod"], key: "j" }],
			checkCallback: (checking) => {
				const view = plugin.app.workspace.getActiveViewOfType(MarkdownView);
				const controller = view && view.getMode() === "source" ? this.controllerOf(view) : undefined;
				if (!controller) return false;
				if (!checking) controller.open();
				return true;
			},
		});
		plugin.registerEvent(
			plugin.app.workspace.on("editor-menu", (menu, _editor, info) => this.addMenuItem(menu, info)),
		);
	}

	private addMenuItem(menu: Menu, info: unknown): void {
		const controller = info instanceof MarkdownView ? this.controllerOf(info) : undefined;
		if (!controller) return;
		menu.addItem((item) =>
			item
				.setTitle(EDIT_TITLE)
				.setIcon("sparkles")
				.onClick(() => controller.open()),
		);
	}

	/** The controller of a note view's editor (split panes of one note each have their own view). */
	private controllerOf(view: MarkdownView): InlineEditController | undefined {
		return [...this.controllers].find((controller) => controller.view.state.field(editorInfoField, false) === view);
	}
}

/** A note's own editor: its MarkdownView (obsidian.d.ts `editorInfoField`: "may be a MarkdownView but not necessarily"). */
function noteOf(view: EditorView): EditedNote | undefined {
	const info = view.state.field(editorInfoField, false);
	if (!(info instanceof MarkdownView) || !info.file) return undefined;
	const file = info.file;
	return { path: file.path, save: () => info.save() };
}
