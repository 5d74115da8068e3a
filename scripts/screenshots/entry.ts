import { inlineEditPageHtml, renderInlineEdit } from "./inline-edit-html";
import { pageHtml, type Theme, type ViewName } from "./page";
import { renderViews } from "./views-html";

/** Each picture of `npm run screenshots`: its file name (without .png) and its page, from the plugin class main.js exports. */
export async function renderPages(
	MainPlugin: Parameters<typeof renderViews>[0],
	repository: string,
): Promise<{ name: string; html: string }[]> {
	const views = await renderViews(MainPlugin);
	const pages: { name: string; html: string }[] = [];
	for (const view of ["review", "settings"] as ViewName[]) {
		for (const theme of ["light", "dark"] as Theme[])
			pages.push({
				name: `${view}-${theme}`,
				html: pageHtml(view, views[view], theme, repository, view === "review" ? views.reviewTitle : ""),
			});
	}
	// The inline edit's editor runs in jsdom: drawn after the views above, which need no DOM.
	const inlineEdit = await renderInlineEdit();
	for (const theme of ["light", "dark"] as Theme[])
		pages.push({ name: `inline-edit-${theme}`, html: inlineEditPageHtml(inlineEdit, theme, repository, "Lisbon") });
	return pages;
}
