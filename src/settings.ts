/** What the plugin stores in data.json. The token is never part of it: it lives in memory and the lock file. */
export interface BridgeSettings {
	/** Run the server. */
	enabled: boolean;
	/** Listen on this port; null for a random free port. */
	fixedPort: number | null;
	debugLogging: boolean;
}

export const DEFAULT_SETTINGS: BridgeSettings = {
	enabled: true,
	fixedPort: null,
	debugLogging: false,
};

/** Reads stored data of any shape; unknown or invalid values fall back to defaults and unknown keys are dropped. */
export function migrateSettings(stored: unknown): BridgeSettings {
	const settings: BridgeSettings = { ...DEFAULT_SETTINGS };
	if (typeof stored !== "object" || stored === null) return settings;
	const record = stored as Record<string, unknown>;
	if (typeof record.enabled === "boolean") settings.enabled = record.enabled;
	if (isPort(record.fixedPort)) settings.fixedPort = record.fixedPort;
	if (typeof record.debugLogging === "boolean") settings.debugLogging = record.debugLogging;
	return settings;
}

export function isPort(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535;
}
