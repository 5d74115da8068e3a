import type { Events, Vault } from "obsidian";
import { excludedFiles, type ExcludedFiles } from "../../vault/privacy/excluded-file-rules";

interface VaultWithConfig {
	getConfig?: (key: string) => unknown;
}

/**
 * Reads the list from `vault.getConfig("userIgnoreFilters")`. Neither is in obsidian.d.ts: the key is the one
 * Obsidian stores in `<config folder>/app.json`, and `Vault.getConfig` and the `config-changed` event are
 * documented by the community typings (obsidian-typings, src/obsidian/augmentations/Vault.d.ts, marked
 * unofficial). Anything of another shape reads as an empty list, so a change in Obsidian cannot break the bridge.
 * Processes without Obsidian read the same key from app.json and apply it through the same `excludedFiles`.
 */
export function readExcludedFiles(vault: Vault): ExcludedFiles {
	const getConfig = (vault as unknown as VaultWithConfig).getConfig;
	return excludedFiles(typeof getConfig === "function" ? getConfig.call(vault, "userIgnoreFilters") : undefined);
}

/** Calls `onChange` when Obsidian's settings change (the unofficial `config-changed` event, see above); returns what to register. */
export function onVaultConfigChanged(vault: Vault, onChange: () => void): ReturnType<Events["on"]> {
	const events: Events = vault;
	return events.on("config-changed", (key: unknown) => {
		if (key === "userIgnoreFilters") onChange();
	});
}
