import { SELECTION_DEBOUNCE_MS } from "./ide/ide-limits";

/** The two project settings files of Claude Code (bridge/claude-permissions SETTINGS_FILES): shared, or personal. */
export type SettingsFileChoice = "shared" | "local";

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
	/** Treat the notes Obsidian's "Excluded files" list names (its folder and file paths) as private. */
	excludedFilesArePrivate: boolean;
	/** Write `permissions.deny` rules so that Claude Code's own Read/Grep/Edit stay out of the private folders. */
	keepPrivateFromClaudeTools: boolean;
	/** Which project settings file of Claude Code holds those rules. */
	claudeSettingsFile: SettingsFileChoice;
	/** Offer Claude's proposed edits for review in Obsidian (openDiff); off: Claude Code uses its terminal diff. */
	reviewEditsInObsidian: boolean;
	debugLogging: boolean;
	/** Claude's own vault tools (an MCP server for the model). Their HTTP token is not here: local storage. */
	vaultTools: VaultToolsSettings;
	/** The "Claude Code" panel. */
	agentPanel: AgentPanelSettings;
}

/**
 * How the panel's sessions start, and where they are exported. What could run a program or skip a question (the
 * `claude` path, the "always allow" rules, trust in the vault's own Claude Code configuration) is never here: it is
 * kept on the device (src/obsidian/agent/device-agent-settings.ts), since anyone who can write to the vault can
 * write data.json.
 */
export interface AgentPanelSettings {
	/** A new session's model alias; empty: the CLI's default. */
	model: string;
	/** A new session's permission mode. */
	permissionMode: "default" | "plan" | "acceptEdits";
	/** Exported sessions are written as notes in this folder. */
	exportFolder: string;
	/** The panel offered the deny rules for Claude Code's own file tools and the user answered: never offered again. */
	denyRulesOffered: boolean;
}

export const DEFAULT_AGENT_PANEL_SETTINGS: AgentPanelSettings = {
	model: "",
	permissionMode: "default",
	exportFolder: "Claude sessions",
	denyRulesOffered: false,
};

export interface VaultToolsSettings {
	/** Serve the vault tools (the stdio relay and the HTTP endpoint). */
	enabled: boolean;
	/** Show vault-tool writes in Obsidian's review view before they land. */
	reviewWrites: boolean;
	/** The HTTP endpoint's port, kept across restarts; null until the first start picks a free one. */
	httpPort: number | null;
	/** Notes in this folder are offered as MCP prompts. */
	promptsFolder: string;
}

export const DEFAULT_VAULT_TOOLS_SETTINGS: VaultToolsSettings = {
	enabled: true,
	reviewWrites: true,
	httpPort: null,
	promptsFolder: "Claude prompts",
};

export const DEFAULT_SETTINGS: BridgeSettings = {
	enabled: true,
	fixedPort: null,
	selectionDebounceMs: SELECTION_DEBOUNCE_MS,
	privateFolders: [],
	privateTags: [],
	excludedFilesArePrivate: false,
	keepPrivateFromClaudeTools: false,
	claudeSettingsFile: "shared",
	reviewEditsInObsidian: true,
	debugLogging: false,
	vaultTools: DEFAULT_VAULT_TOOLS_SETTINGS,
	agentPanel: DEFAULT_AGENT_PANEL_SETTINGS,
};

export const MAX_SELECTION_DEBOUNCE_MS = 2000;

/** Reads stored data of any shape; unknown or invalid values fall back to defaults and unknown keys (a token, say) are dropped. */
export function migrateSettings(stored: unknown): BridgeSettings {
	const settings: BridgeSettings = {
		...DEFAULT_SETTINGS,
		privateFolders: [],
		privateTags: [],
		vaultTools: { ...DEFAULT_VAULT_TOOLS_SETTINGS },
		agentPanel: { ...DEFAULT_AGENT_PANEL_SETTINGS },
	};
	if (typeof stored !== "object" || stored === null) return settings;
	const record = stored as Record<string, unknown>;
	if (typeof record.enabled === "boolean") settings.enabled = record.enabled;
	if (isPort(record.fixedPort)) settings.fixedPort = record.fixedPort;
	if (isDebounce(record.selectionDebounceMs)) settings.selectionDebounceMs = record.selectionDebounceMs;
	settings.privateFolders = stringList(record.privateFolders);
	settings.privateTags = stringList(record.privateTags);
	if (typeof record.excludedFilesArePrivate === "boolean")
		settings.excludedFilesArePrivate = record.excludedFilesArePrivate;
	if (typeof record.keepPrivateFromClaudeTools === "boolean")
		settings.keepPrivateFromClaudeTools = record.keepPrivateFromClaudeTools;
	if (record.claudeSettingsFile === "shared" || record.claudeSettingsFile === "local")
		settings.claudeSettingsFile = record.claudeSettingsFile;
	if (typeof record.reviewEditsInObsidian === "boolean")
		settings.reviewEditsInObsidian = record.reviewEditsInObsidian;
	if (typeof record.debugLogging === "boolean") settings.debugLogging = record.debugLogging;
	settings.vaultTools = migrateVaultToolsSettings(record.vaultTools);
	settings.agentPanel = migrateAgentPanelSettings(record.agentPanel);
	return settings;
}

function migrateAgentPanelSettings(stored: unknown): AgentPanelSettings {
	// `cliPath` and `alwaysAllow` of older versions (or planted in a synced data.json) are dropped, never honoured.
	const settings: AgentPanelSettings = { ...DEFAULT_AGENT_PANEL_SETTINGS };
	if (typeof stored !== "object" || stored === null) return settings;
	const record = stored as Record<string, unknown>;
	if (typeof record.model === "string") settings.model = record.model.trim();
	if (
		record.permissionMode === "default" ||
		record.permissionMode === "plan" ||
		record.permissionMode === "acceptEdits"
	)
		settings.permissionMode = record.permissionMode;
	if (typeof record.exportFolder === "string" && record.exportFolder.trim() !== "")
		settings.exportFolder = record.exportFolder.trim();
	if (typeof record.denyRulesOffered === "boolean") settings.denyRulesOffered = record.denyRulesOffered;
	return settings;
}

function migrateVaultToolsSettings(stored: unknown): VaultToolsSettings {
	const settings = { ...DEFAULT_VAULT_TOOLS_SETTINGS };
	if (typeof stored !== "object" || stored === null) return settings;
	const record = stored as Record<string, unknown>;
	if (typeof record.enabled === "boolean") settings.enabled = record.enabled;
	if (typeof record.reviewWrites === "boolean") settings.reviewWrites = record.reviewWrites;
	if (isPort(record.httpPort)) settings.httpPort = record.httpPort;
	if (typeof record.promptsFolder === "string") settings.promptsFolder = record.promptsFolder.trim();
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
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "")
		: [];
}
