import { readProjectClaudeConfig, type ProjectClaudeConfig } from "./project-claude-config";

/**
 * Where this device keeps the user's trust in a vault's own Claude Code configuration: the fingerprint of the
 * configuration they reviewed and trusted. Never in the vault or the plugin's data.json, which others may write.
 */
export interface ProjectConfigTrustStore {
	/** The fingerprint trusted on this device for this vault, if any. */
	trustedFingerprint(): string | undefined;
	trust(fingerprint: string): void;
	revoke(): void;
}

/** The vault's configuration and whether it may load: none at all, trusted as it is now, or not (yet, or any more). */
export type ProjectConfigState =
	| { kind: "none" }
	| { kind: "trusted"; config: ProjectClaudeConfig }
	/** `changed`: the user trusted an earlier form of it; what they saw is not what would load now. */
	| { kind: "untrusted"; config: ProjectClaudeConfig; changed: boolean };

/** Reads the configuration now and judges it against the fingerprint the user trusted. */
export async function projectConfigState(
	vaultRoot: string,
	store: ProjectConfigTrustStore,
): Promise<ProjectConfigState> {
	const config = await readProjectClaudeConfig(vaultRoot);
	if (config.items.length === 0) return { kind: "none" };
	const trusted = store.trustedFingerprint();
	return trusted === config.fingerprint
		? { kind: "trusted", config }
		: { kind: "untrusted", config, changed: trusted !== undefined };
}

/** The answer a session start needs: may the CLI load the vault's configuration? Only what the user trusted, unchanged. */
export async function projectConfigTrusted(vaultRoot: string, store: ProjectConfigTrustStore): Promise<boolean> {
	try {
		return (await projectConfigState(vaultRoot, store)).kind === "trusted";
	} catch {
		return false;
	}
}
