import type { PermissionRule } from "../../agent/gate/permission-rules";
/** `app.loadLocalStorage` / `app.saveLocalStorage` (obsidian.d.ts): per-vault storage on this device, outside the vault. */
export interface VaultLocalStorage {
	loadLocalStorage(key: string): unknown;
	saveLocalStorage(key: string, data: unknown): void;
}

const CLI_PATH_KEY = "claude-code-bridge-claude-path";
const ALWAYS_ALLOW_KEY = "claude-code-bridge-always-allow";
const REWIND_POINTS_KEY = "claude-code-bridge-rewind-points";
/** Rewound conversations remembered (the newest kept): a rewind is usually followed by a message soon. */
const MAX_REWIND_POINTS = 50;
/** A session id or a message id of the CLI's record (a UUID); anything else found in storage is ignored. */
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

	/**
	 * Where a rewind took a past conversation back to (a message of the CLI's record) while no message was sent from
	 * there: the CLI records a rewind only with the next message, so a later resume must go on from there itself.
	 */
	rewindPoint(sessionId: string): string | undefined {
		return this.rewindPoints().find(([session]) => session === sessionId)?.[1];
	}

	/** Remembers a rewind's point for the session (newest last), or forgets it (`at` undefined: a message went on). */
	setRewindPoint(sessionId: string, at: string | undefined): void {
		const kept = this.rewindPoints().filter(([session]) => session !== sessionId);
		if (at !== undefined && RECORD_ID.test(sessionId) && RECORD_ID.test(at)) kept.push([sessionId, at]);
		const newest = kept.slice(-MAX_REWIND_POINTS);
		this.storage.saveLocalStorage(REWIND_POINTS_KEY, newest.length === 0 ? null : newest);
	}

	private rewindPoints(): [string, string][] {
		const stored = this.storage.loadLocalStorage(REWIND_POINTS_KEY);
		if (!Array.isArray(stored)) return [];
		return (stored as unknown[]).flatMap((item): [string, string][] =>
			Array.isArray(item) &&
			typeof item[0] === "string" &&
			typeof item[1] === "string" &&
			RECORD_ID.test(item[0]) &&
			RECORD_ID.test(item[1])
				? [[item[0], item[1]]]
				: [],
		);
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
