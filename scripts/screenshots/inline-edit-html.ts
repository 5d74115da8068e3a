/**
 * The inline edit's picture for `npm run screenshots`: the plugin's "Edit with Claude" in a real CodeMirror editor in
 * jsdom (the tests' world: tests/obsidian/editor/inline-edit-world.ts, with a scripted Claude), on the same prose
 * note as the review's picture, with Claude's proposal for its first paragraph shown as suggestions and the panel
 * below it. The editor's DOM and the styles CodeMirror mounted are taken as they are; nothing in them changes
 * between runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BrowserWindows } from "../../tests/obsidian/harness/cm6-dom";
import { COMMAND, InlineEditWorld, settle } from "../../tests/obsidian/editor/inline-edit-world";
import { NOTE, NOTE_PATH } from "./views-html";
import type { Theme } from "./page";

export const INLINE_PASSAGE =
	"We land on Friday morning and take the metro into Baixa. The hotel is a short walk from the station, so we can leave the bags and go straight out.";
export const INLINE_PROPOSAL =
	"We land on Friday morning and take the airport metro into Baixa. The hotel is a short walk from Rossio station, so we can drop the bags and head straight out.";
export const INLINE_REQUEST = "say which metro and which station";

export interface InlineEditHtml {
	/** The editor (`.cm-editor`) with the inline edit open. */
	editor: string;
	/** The styles CodeMirror mounted for it. */
	styles: string;
}

/** The editor's HTML with Claude's proposal shown in it, as the user sees it before deciding. */
export async function renderInlineEdit(): Promise<InlineEditHtml> {
	const windows = BrowserWindows.install();
	const world = new InlineEditWorld({ [NOTE_PATH]: NOTE });
	try {
		const note = await world.open(NOTE_PATH);
		note.driver.dragOver(INLINE_PASSAGE).mouseUp();
		if (!world.plugin.runCommand(COMMAND)) throw new Error("Edit with Claude is not available");
		await settle();
		note.ask(INLINE_REQUEST);
		await settle();
		world.service.claude.reply([`<replacement>${INLINE_PROPOSAL}</replacement>`]);
		await settle();
		note.cm.contentDOM.blur();
		const styles = [...document.head.querySelectorAll("style")].map((style) => style.textContent).join("\n");
		// The pointer rests on no change; the request box shows its placeholder (what was asked is in the panel's words).
		return { editor: note.cm.dom.outerHTML, styles };
	} finally {
		world.plugin.unload();
		windows.uninstall();
	}
}

/** A whole page: the theme approximation, CodeMirror's styles, the plugin's styles.css, the editor in a note's tab. */
export function inlineEditPageHtml(html: InlineEditHtml, theme: Theme, repository: string, title: string): string {
	const themeCss = readFileSync(join(repository, "scripts", "screenshots", "obsidian-theme.css"), "utf8");
	const pluginCss = readFileSync(join(repository, "styles.css"), "utf8");
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>inline edit (${theme})</title>
<style>${themeCss}</style>
<style>${html.styles}</style>
<style>${EDITOR_CSS}</style>
<style>${pluginCss}</style>
</head><body class="theme-${theme}"><div class="workspace-leaf"><div class="view-header">${escapeHtml(title)}</div><div class="view-content markdown-source-view">${html.editor}</div></div></body></html>
`;
}

/**
 * The note's editor as Obsidian's default theme draws it, roughly: the text font and size, a readable line length,
 * lines wrapped (Obsidian turns CodeMirror's line wrapping on; the stand-in's editor leaves it off).
 */
const EDITOR_CSS = `
.markdown-source-view .cm-editor { background: var(--background-primary); color: var(--text-normal); }
.markdown-source-view .cm-scroller { font-family: var(--font-text); font-size: var(--font-text-size); line-height: var(--line-height-normal); }
.markdown-source-view .cm-content { max-width: 700px; margin: 0 auto; padding: var(--size-4-6) 0; caret-color: var(--text-normal); white-space: pre-wrap; overflow-wrap: anywhere; flex-shrink: 1; }
.markdown-source-view .cm-line { padding: 0 var(--size-4-4); }
.markdown-source-view .cm-editor.cm-focused { outline: none; }
`;

function escapeHtml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
