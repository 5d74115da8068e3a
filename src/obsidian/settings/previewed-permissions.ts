import { isSettingsFile, type PermissionRecord } from "../../ide/claude-permissions/permissions-file";

/** `app.loadLocalStorage` / `app.saveLocalStorage` (obsidian.d.ts): per-vault storage outside the vault folder. */
export interface VaultLocalStorage {
	loadLocalStorage(key: string): unknown;
	saveLocalStorage(key: string, data: unknown): void;
}

const KEY = "claude-code-bridge-previewed-permissions";

/**
 * The deny rules the user wrote from the settings tab on this device, after seeing the change, and the file they
 * went into. Kept in Obsidian's local storage for this vault, never in the vault or data.json, so a synced or shared
 * vault cannot make the automatic update act as if the user had approved: until this holds a write, it writes nothing.
 */
export class PreviewedPermissions {
	constructor(private readonly storage: VaultLocalStorage) {}

	/** What was last written after a preview on this device, or undefined. */
	load(): PermissionRecord | undefined {
		const stored = this.storage.loadLocalStorage(KEY);
		if (typeof stored !== "object" || stored === null) return undefined;
		const { settingsFile, rules } = stored as Record<string, unknown>;
		if (typeof settingsFile !== "string" || !isSettingsFile(settingsFile) || !Array.isArray(rules))
			return undefined;
		return { settingsFile, rules: rules.filter((rule): rule is string => typeof rule === "string") };
	}

	/** After a write the user previewed (or the automatic update of one): the file and the rules we added. */
	remember(record: PermissionRecord): void {
		this.storage.saveLocalStorage(KEY, { settingsFile: record.settingsFile, rules: [...record.rules] });
	}

	/** After the user took the rules out: the automatic update stops until the next previewed write. */
	forget(): void {
		this.storage.saveLocalStorage(KEY, null);
	}
}
