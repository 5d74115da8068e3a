import { inlineEditPageHtml, renderInlineEdit } from "./inline-edit-html";
import { pageHtml, type Theme } from "./page";
import { panelPageHtml, renderPanel } from "./panel-html";
import { renderViews } from "./views-html";
import { renderActivity } from "./activity-html";

/** A right sidebar's size; the whole conversation (from the first message to the question) needs a taller one. */
const PANEL_VIEWPORT = { width: 440, height: 900 };
const CONVERSATION_VIEWPORT = { width: 440, height: 1280 };

/** Each picture of `npm run screenshots`: its file name (without .png) and its page, from the plugin class main.js exports. */
export async function renderPages(
	MainPlugin: Parameters<typeof renderViews>[0],
	repository: string,
): Promise<{ name: string; html: string; viewport?: { width: number; height: number } }[]> {
	const views = await renderViews(MainPlugin);
	const panel = await renderPanel(MainPlugin);
	const pages: { name: string; html: string; viewport?: { width: number; height: number } }[] = [];
	for (const view of ["review", "settings"] as const) {
		for (const theme of ["light", "dark"] as Theme[])
			pages.push({
				name: `${view}-${theme}`,
				html: pageHtml(view, views[view], theme, repository, view === "review" ? views.reviewTitle : ""),
			});
	}
	// The panel as it stands in the right sidebar: empty, an edit waiting for the review, then the conversation on.
	for (const [name, fragment] of [
		["panel-empty", panel.empty],
		["panel-review-waiting", panel.reviewing],
		["panel", panel.conversation],
	] as const)
		for (const theme of ["light", "dark"] as Theme[])
			pages.push({
				name: `${name}-${theme}`,
				html: panelPageHtml(fragment, theme, repository),
				viewport: name === "panel" ? CONVERSATION_VIEWPORT : PANEL_VIEWPORT,
			});
	const activity = await renderActivity(MainPlugin);
	for (const theme of ["light", "dark"] as Theme[])
		pages.push({
			name: `activity-${theme}`,
			html: pageHtml("activity", activity.html, theme, repository, activity.title),
		});
	// The inline edit's editor runs in jsdom: drawn after the views above, which need no DOM.
	const inlineEdit = await renderInlineEdit();
	for (const theme of ["light", "dark"] as Theme[])
		pages.push({ name: `inline-edit-${theme}`, html: inlineEditPageHtml(inlineEdit, theme, repository, "Lisbon") });
	return pages;
}
