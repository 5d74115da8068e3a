import { normalizePath } from "obsidian";

/** What the core Daily notes plugin exposes at run time (not in obsidian.d.ts): whether it is on, and its options. */
interface DailyNotesPlugin {
	enabled?: unknown;
	instance?: { options?: { folder?: unknown; format?: unknown } };
}

interface InternalPlugins {
	getPluginById?: (id: string) => unknown;
}

const DEFAULT_FORMAT = "YYYY-MM-DD";

/**
 * Today's daily note's vault path as the core Daily notes plugin names it (its folder and date format), or
 * undefined when the plugin is off or cannot be read. The plugin's settings are not public API, so every field
 * is checked; `formatDate` is `moment().format` in Obsidian.
 */
export function todaysDailyNote(app: unknown, formatDate: (pattern: string) => string): string | undefined {
	const internal = (app as { internalPlugins?: InternalPlugins }).internalPlugins;
	const plugin = internal?.getPluginById?.("daily-notes") as DailyNotesPlugin | null | undefined;
	if (!plugin || plugin.enabled !== true) return undefined;
	const options = plugin.instance?.options ?? {};
	const format =
		typeof options.format === "string" && options.format.trim() !== "" ? options.format.trim() : DEFAULT_FORMAT;
	const folder = typeof options.folder === "string" ? options.folder.trim() : "";
	const name = formatDate(format);
	if (name === "") return undefined;
	return normalizePath(folder === "" ? `${name}.md` : `${folder}/${name}.md`);
}
