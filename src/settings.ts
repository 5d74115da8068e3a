import { SELECTION_DEBOUNCE_MS } from "./server/limits";

/** What the plugin stores in data.json. The token is never part of it: it lives in memory and the lock file. */
export interface BridgeSettings {
	/** Run the server. */
	enabled: boolean;
	/** Listen on this port; null for a random free port. */
	fixedPort: number | null;
	/** Quiet time before a selection change is sent. */
	selectionDebounceMs: number;
	/** Vault folders whose notes are never broadcast or read through the bridge. */
	privateFolders: string[];
	/** Tags whose notes are never broadcast or read through the bridge. */
	privateTags: string[];
	/** Offer Claude's proposed edits for review in Obsidian (openDiff); off: Claude Code uses its terminal diff. */
	reviewEditsInObsidian: boolean;
	debugLogging: boolean;
}

export const DEFAULT_SETTINGS: BridgeSettings = {
	enabled: true,
	fixedPort: null,
	selectionDebounceMs: SELECTION_DEBOUNCE_MS,
	privateFolders: [],
	privateTags: [],
	reviewEditsInObsidian: true,
	debugLogging: false,
};

export const MAX_SELECTION_DEBOUNCE_MS = 2000;

/** Reads stored data of any shape; unknown or invalid values fall back to defaults and unknown keys (a token, say) are dropped. */
export function migrateSettings(stored: unknown): BridgeSettings {
	const settings: BridgeSettings = { ...DEFAULT_SETTINGS, privateFolders: [], privateTags: [] };
	if (typeof stored !== "object" || stored === null) return settings;
	const record = stored as Record<string, unknown>;
	if (typeof record.enabled === "boolean") settings.enabled = record.enabled;
	if (isPort(record.fixedPort)) settings.fixedPort = record.fixedPort;
	if (isDebounce(record.selectionDebounceMs)) settings.selectionDebounceMs = record.selectionDebounceMs;
	settings.privateFolders = stringList(record.privateFolders);
	settings.privateTags = stringList(record.privateTags);
	if (typeof record.reviewEditsInObsidian === "boolean") settings.reviewEditsInObsidian = record.reviewEditsInObsidian;
	if (typeof record.debugLogging === "boolean") settings.debugLogging = record.debugLogging;
	return settings;
}

export function isPort(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535;
}

export function isDebounce(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_SELECTION_DEBOUNCE_MS;
}

/** One entry per line or comma, trimmed, empties dropped. */
export function parseList(text: string): string[] {
	return text
		.split(/[\n,]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== "");
}

function stringList(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "") : [];
}
