import { createAuthToken } from "../../server/auth";

/** `app.loadLocalStorage` / `app.saveLocalStorage` (obsidian.d.ts): per-vault storage outside the vault folder. */
export interface VaultLocalStorage {
	loadLocalStorage(key: string): unknown;
	saveLocalStorage(key: string, data: unknown): void;
}

const TOKEN_KEY = "claude-code-bridge-mcp-token";

/**
 * The bearer token of the vault tools' HTTP endpoint. Kept in Obsidian's local storage for this vault (the pinned
 * Obsidian API has no SecretStorage), never in data.json or the vault, so it survives restarts and Claude Code's
 * configuration keeps working; rotating it replaces it at once.
 */
export class McpTokenStore {
	constructor(private readonly storage: VaultLocalStorage) {}

	/** The token, made and stored on first use. */
	current(): string {
		const stored = this.storage.loadLocalStorage(TOKEN_KEY);
		if (typeof stored === "string" && /^[0-9a-f]{32,}$/.test(stored)) return stored;
		return this.rotate();
	}

	rotate(): string {
		const token = createAuthToken();
		this.storage.saveLocalStorage(TOKEN_KEY, token);
		return token;
	}
}
