/** What the tool gate needs from the vault, as types; `PrivacyGateVault` (`privacy-gate-vault.ts`) implements it. */

/**
 * Where a path Claude gave leads, by the vault's privacy boundary: a vault path Claude may see (a new file judged
 * by its folder alone), a private or hidden one, or a place outside the vault.
 */
export type GatePath = { kind: "visible"; path: string } | { kind: "private" } | { kind: "outside" };

export interface GateVault {
	locate(path: string): Promise<GatePath>;
	/**
	 * Whether a search of this visible folder ("" for the vault's top) could meet a private note: a private folder
	 * or the config folder inside it, or any private tag set (a tagged note can be anywhere).
	 */
	mayHoldPrivate(vaultPath: string): boolean;
	/**
	 * A visible file as it is on disk, read once: its bytes (the journal's pre-image) and their text (the review's
	 * original); undefined when there is none. Never asked for a private one.
	 */
	readFile(vaultPath: string): Promise<{ bytes: Uint8Array; text: string } | undefined>;
}
