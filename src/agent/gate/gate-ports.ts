/** What the tool gate needs from the vault and the activity journal. Types only: the assembly supplies them. */

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
	/** A visible file's text as it is on disk; undefined when there is none. Never asked for a private one. */
	readText(vaultPath: string): Promise<string | undefined>;
}

/** A reviewed write the CLI is about to make, kept in the activity journal with the file's bytes before it. */
export interface JournaledWrite {
	/** The CLI reported the tool's result: record what is on disk now (nothing when it failed). */
	finished(succeeded: boolean): Promise<void>;
}

export interface WriteJournal {
	/** Called when the gate allows a reviewed write, before the CLI runs it: keeps the file's bytes as they are now. */
	approved(write: { path: string; tool: string; summary: string; sessionId?: string }): Promise<JournaledWrite>;
}
