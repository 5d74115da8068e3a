import type { Events, Vault } from "obsidian";

/** Obsidian's "Excluded files" (Settings → Files and links), split into what the privacy rules can use and what they cannot. */
export interface ExcludedFiles {
	/** Vault paths (folders, or single files) the list names. */
	paths: string[];
	/** Regular-expression entries (`/…/`): a path rule cannot express them, so they are not applied. */
	patterns: string[];
}

interface VaultWithConfig {
	getConfig?: (key: string) => unknown;
}

/**
 * Reads the list from `vault.getConfig("userIgnoreFilters")`. Neither is in obsidian.d.ts: the key is the one
 * Obsidian stores in `<config folder>/app.json`, and `Vault.getConfig` and the `config-changed` event are
 * documented by the community typings (obsidian-typings, src/obsidian/augmentations/Vault.d.ts, marked
 * unofficial). Anything of another shape reads as an empty list, so a change in Obsidian cannot break the bridge.
 */
export function readExcludedFiles(vault: Vault): ExcludedFiles {
	const getConfig = (vault as unknown as VaultWithConfig).getConfig;
	const value = typeof getConfig === "function" ? getConfig.call(vault, "userIgnoreFilters") : undefined;
	const entries = Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "") : [];
	const patterns = entries.filter((entry) => /^\/.+\/[a-z]*$/.test(entry.trim()));
	const paths = entries
		.filter((entry) => !patterns.includes(entry))
		.map((entry) => entry.trim().replace(/^\/+|\/+$/g, ""))
		.filter((entry) => entry !== "");
	return { paths, patterns };
}

/** Calls `onChange` when Obsidian's settings change (the unofficial `config-changed` event, see above); returns what to register. */
export function onVaultConfigChanged(vault: Vault, onChange: () => void): ReturnType<Events["on"]> {
	const events: Events = vault;
	return events.on("config-changed", (key: unknown) => {
		if (key === "userIgnoreFilters") onChange();
	});
}
