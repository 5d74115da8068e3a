import type { PermissionRule } from "../../agent/gate/permission-rules";
/** `app.loadLocalStorage` / `app.saveLocalStorage` (obsidian.d.ts): per-vault storage on this device, outside the vault. */
export interface VaultLocalStorage {
	loadLocalStorage(key: string): unknown;
	saveLocalStorage(key: string, data: unknown): void;
}

const CLI_PATH_KEY = "claude-code-bridge-claude-path";
const ALWAYS_ALLOW_KEY = "claude-code-bridge-always-allow";

/**
 * The panel's settings that can run a program or skip a question: which `claude` runs, and the tools allowed for
 * good. Kept in Obsidian's local storage for this vault, on this device only: a synced or shared data.json (which
 * anyone who can write to the vault can write) never sets them, and values found there are not imported.
 */
export class DeviceAgentSettings {
	constructor(private readonly storage: VaultLocalStorage) {}

	/** The explicit `claude` path; empty: find it. */
	cliPath(): string {
		const stored = this.storage.loadLocalStorage(CLI_PATH_KEY);
		return typeof stored === "string" ? stored.trim() : "";
	}

	setCliPath(path: string): void {
		const trimmed = path.trim();
		this.storage.saveLocalStorage(CLI_PATH_KEY, trimmed === "" ? null : trimmed);
	}

	/** Well-formed rules only: a tool name, and for Bash an optional non-empty command prefix. */
	alwaysAllow(): PermissionRule[] {
		const stored = this.storage.loadLocalStorage(ALWAYS_ALLOW_KEY);
		if (!Array.isArray(stored)) return [];
		const rules: PermissionRule[] = [];
		for (const item of stored as unknown[]) {
			if (typeof item !== "object" || item === null) continue;
			const { tool, commandPrefix } = item as Record<string, unknown>;
			if (typeof tool !== "string" || tool.trim() === "") continue;
			if (commandPrefix !== undefined && (typeof commandPrefix !== "string" || commandPrefix === "")) continue;
			rules.push(typeof commandPrefix === "string" ? { tool, commandPrefix } : { tool });
		}
		return rules;
	}

	setAlwaysAllow(rules: readonly PermissionRule[]): void {
		const kept = rules.map((rule) =>
			rule.commandPrefix === undefined
				? { tool: rule.tool }
				: { tool: rule.tool, commandPrefix: rule.commandPrefix },
		);
		this.storage.saveLocalStorage(ALWAYS_ALLOW_KEY, kept.length === 0 ? null : kept);
	}
}
