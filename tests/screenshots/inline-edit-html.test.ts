/**
 * The inline edit's picture for `npm run screenshots` (scripts/screenshots/inline-edit-html.ts), without Chromium:
 * the editor's HTML with Claude's proposal as suggestions and the panel, the same on every run.
 */
import { resolve } from "node:path";
import {
	INLINE_PASSAGE,
	inlineEditPageHtml,
	renderInlineEdit,
	type InlineEditHtml,
} from "../../scripts/screenshots/inline-edit-html";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

describe("the inline edit's picture", () => {
	let html: InlineEditHtml;

	beforeAll(async () => {
		html = await renderInlineEdit();
	}, FIXTURE_TIMEOUT_MS);

	it("shows the proposal in the note's own text, struck and underlined with each change's buttons, and the panel", () => {
		expect(html.editor).toContain('<ins class="ccb-suggest-added">Rossio</ins>');
		expect(html.editor).toMatch(/class="ccb-suggest-removed"[^>]*>leave</);
		expect(html.editor).toContain('aria-label="Accept this change"');
		expect(html.editor).toContain("4 changes: accept or reject each, or all at once.");
		expect(html.editor).toContain("Accept all");
		expect(html.editor).not.toContain(INLINE_PASSAGE);
		expect(html.styles).toContain(".cm-scroller");
	});

	it("is the same on a second run, and makes a page with the theme, CodeMirror's styles and styles.css", async () => {
		expect(await renderInlineEdit()).toEqual(html);
		const page = inlineEditPageHtml(html, "dark", resolve(__dirname, "../.."), "Lisbon");
		expect(page).toContain('<body class="theme-dark">');
		expect(page).toContain(".ccb-inline-panel");
		expect(page).toContain(html.editor);
	});
});
