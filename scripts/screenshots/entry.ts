import { pageHtml, type Theme } from "./page";
import { renderViews } from "./views-html";
import { renderActivity } from "./activity-html";

/** Each picture of `npm run screenshots`: its file name (without .png) and its page, from the plugin class main.js exports. */
export async function renderPages(
	MainPlugin: Parameters<typeof renderViews>[0],
	repository: string,
): Promise<{ name: string; html: string }[]> {
	const views = await renderViews(MainPlugin);
	const pages: { name: string; html: string }[] = [];
	for (const view of ["review", "settings"] as const) {
		for (const theme of ["light", "dark"] as Theme[])
			pages.push({
				name: `${view}-${theme}`,
				html: pageHtml(view, views[view], theme, repository, view === "review" ? views.reviewTitle : ""),
			});
	}
	const activity = await renderActivity(MainPlugin);
	for (const theme of ["light", "dark"] as Theme[])
		pages.push({
			name: `activity-${theme}`,
			html: pageHtml("activity", activity.html, theme, repository, activity.title),
		});
	return pages;
}
