import type { ProjectConfigTrustStore } from "../../agent/vault-config/project-config-trust";
import type { VaultLocalStorage } from "./device-agent-settings";

const KEY = "claude-code-bridge-trusted-claude-config";

/**
 * The user's trust in this vault's own Claude Code configuration, kept in Obsidian's local storage for the vault
 * (on this device, outside the vault and data.json): the vault's folder and the fingerprint of what they reviewed.
 * A vault folder moved or copied elsewhere asks again.
 */
export class ClaudeConfigTrustStore implements ProjectConfigTrustStore {
	constructor(
		private readonly storage: VaultLocalStorage,
		private readonly vaultPath: string,
	) {}

	trustedFingerprint(): string | undefined {
		const stored = this.storage.loadLocalStorage(KEY);
		if (typeof stored !== "object" || stored === null) return undefined;
		const { vault, fingerprint } = stored as Record<string, unknown>;
		return vault === this.vaultPath && typeof fingerprint === "string" && /^[0-9a-f]{64}$/.test(fingerprint)
			? fingerprint
			: undefined;
	}

	trust(fingerprint: string): void {
		this.storage.saveLocalStorage(KEY, { vault: this.vaultPath, fingerprint });
	}

	revoke(): void {
		this.storage.saveLocalStorage(KEY, null);
	}
}
