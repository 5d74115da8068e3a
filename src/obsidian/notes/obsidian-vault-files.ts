import { TFile, normalizePath, type App } from "obsidian";
import type { VaultFileEntry, VaultFileBytes } from "../../vault/notes/vault-files";

/** The Obsidian vault as the bridge's file port: listings come from Obsidian's index, not from disk walks. */
export class ObsidianVaultFiles implements VaultFileBytes {
	constructor(private readonly app: App) {}

	list(): VaultFileEntry[] {
		return this.app.vault.getFiles().map((file) => ({ path: file.path, size: file.stat.size }));
	}

	stat(relativePath: string): Promise<{ size: number } | undefined> {
		const file = this.app.vault.getAbstractFileByPath(normalizePath(relativePath));
		return Promise.resolve(file instanceof TFile ? { size: file.stat.size } : undefined);
	}

	async readBytes(relativePath: string): Promise<Uint8Array> {
		const file = this.app.vault.getAbstractFileByPath(normalizePath(relativePath));
		if (!(file instanceof TFile)) throw new Error(`Not found: ${relativePath}`);
		return new Uint8Array(await this.app.vault.readBinary(file));
	}
}
