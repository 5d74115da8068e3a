import { readFileSync } from "node:fs";
import { join } from "node:path";

export type Theme = "light" | "dark";
export type ViewName = "review" | "settings" | "activity";

/** A whole page for one view in one theme: the theme approximation, then the plugin's styles.css, as Obsidian loads them. */
export function pageHtml(view: ViewName, fragment: string, theme: Theme, repository: string, title = ""): string {
	const themeCss = readFileSync(join(repository, "scripts", "screenshots", "obsidian-theme.css"), "utf8");
	const pluginCss = readFileSync(join(repository, "styles.css"), "utf8");
	const frame =
		view !== "settings"
			? `<div class="workspace-leaf"><div class="view-header">${escapeHtml(title)}</div><div class="view-content">${fragment}</div></div>`
			: `<div class="vertical-tab-content">${fragment}</div>`;
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${view} (${theme})</title>
<style>${themeCss}</style>
<style>${pluginCss}</style>
</head><body class="theme-${theme}">${frame}</body></html>
`;
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
