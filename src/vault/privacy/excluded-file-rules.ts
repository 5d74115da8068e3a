/** Obsidian's "Excluded files" (Settings → Files and links), split into what the privacy rules can use and what they cannot. */
export interface ExcludedFiles {
	/** Vault paths (folders, or single files) the list names. */
	paths: string[];
	/** Regular-expression entries (`/…/`): a path rule cannot express them, so they are not applied. */
	patterns: string[];
}

/**
 * The list as Obsidian stores it (`userIgnoreFilters`, in `<config folder>/app.json`), read the one way the
 * plugin and every process without Obsidian apply it: folder and file paths become private folders (without
 * leading or trailing slashes); `/…/` entries are patterns, not paths. Anything not a list of strings is empty.
 */
export function excludedFiles(userIgnoreFilters: unknown): ExcludedFiles {
	const entries = Array.isArray(userIgnoreFilters)
		? userIgnoreFilters.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "")
		: [];
	const patterns = entries.filter((entry) => /^\/.+\/[a-z]*$/.test(entry.trim()));
	const paths = entries
		.filter((entry) => !patterns.includes(entry))
		.map((entry) => entry.trim().replace(/^\/+|\/+$/g, ""))
		.filter((entry) => entry !== "");
	return { paths, patterns };
}
