import { Component, MarkdownView, type App } from "obsidian";
import type { MessageAttachment } from "../../agent/agent-session";
import type { PanelVault, VaultImageChoice } from "./panel-vault";

/**
 * The chip above the message box: the note the user was last in (and its selection), attached to the next message
 * unless removed with one click. A private note is never shown or attached. Clicking in the panel makes the panel
 * the active view, so the note is remembered while a Markdown view is active. When the note embeds images, the chip
 * offers to attach them to the next message ("Attach images from this note"); each is judged by the privacy boundary.
 */
export class ContextChip extends Component {
	/** The Markdown view the user was last in: its editor keeps its selection while the panel has the focus. */
	private view: MarkdownView | undefined;
	/** The path the user removed: it stays off until another note becomes active. */
	private dismissed: string | undefined;
	private readonly chipEl: HTMLElement;

	constructor(
		parent: HTMLElement,
		private readonly app: App,
		private readonly vault: PanelVault,
		/** Takes the note's embedded images for the next message; absent: not offered. */
		private readonly attachImages?: (images: VaultImageChoice[]) => void,
	) {
		super();
		this.chipEl = parent.createDiv({ cls: "ccb-agent-context" });
	}

	override onload(): void {
		this.registerEvent(this.app.workspace.on("active-leaf-change", () => this.refresh()));
		this.registerEvent(this.app.workspace.on("file-open", () => this.refresh()));
		this.refresh();
	}

	/** What the next message carries (nothing when removed, private, or no note was active). */
	current(): MessageAttachment | undefined {
		this.refresh();
		return this.attachable();
	}

	/**
	 * Follows the active Markdown view, when one is active; otherwise the note of the main area's most recent tab
	 * (as Obsidian's own commands do while a sidebar has the focus: a tab opened with "+" in the panel starts with
	 * the note the user was in), else keeps the last one; and redraws the chip.
	 */
	refresh(): void {
		const recent = this.app.workspace.getMostRecentLeaf()?.view;
		const active =
			this.app.workspace.getActiveViewOfType(MarkdownView) ??
			(recent instanceof MarkdownView ? recent : undefined);
		if (active?.file) {
			if (active.file.path !== this.view?.file?.path) this.dismissed = undefined;
			this.view = active;
		}
		this.draw();
	}

	private attachable(): MessageAttachment | undefined {
		const path = this.view?.file?.path;
		if (!this.view || path === undefined || path === this.dismissed || !this.vault.mayAttach(path))
			return undefined;
		const lines = selectedLines(this.view);
		return lines ? { path, lines } : { path };
	}

	private draw(): void {
		this.chipEl.empty();
		const note = this.attachable();
		this.chipEl.toggleClass("is-hidden", note === undefined);
		if (!note) return;
		const lines = note.lines ? ` (lines ${note.lines.from}–${note.lines.to})` : "";
		this.chipEl.createSpan({ cls: "ccb-agent-context-label", text: `${note.path}${lines}` });
		const attachImages = this.attachImages;
		const images = attachImages ? this.vault.embeddedImages(note.path) : [];
		if (attachImages && images.length > 0) {
			this.chipEl
				.createEl("button", {
					cls: "ccb-agent-context-images",
					text: images.length === 1 ? "Attach its image" : `Attach its ${images.length} images`,
					attr: { "aria-label": "Attach images from this note" },
				})
				.addEventListener("click", () => attachImages(this.vault.embeddedImages(note.path)));
		}
		const remove = this.chipEl.createEl("button", {
			cls: "ccb-agent-context-remove",
			text: "×",
			attr: { "aria-label": "Do not attach this note" },
		});
		remove.addEventListener("click", () => {
			this.dismissed = note.path;
			this.draw();
		});
	}
}

/** The selection's 1-based lines, when something is selected (no editor without a DOM: then none). */
function selectedLines(view: MarkdownView): MessageAttachment["lines"] {
	try {
		const editor = view.editor;
		if (!editor.somethingSelected()) return undefined;
		const from = editor.getCursor("from").line + 1;
		const to = editor.getCursor("to").line + 1;
		return { from, to };
	} catch {
		return undefined;
	}
}
