import { TFile, getAllTags, normalizePath, type App } from "obsidian";
import { TAGS_NOT_KNOWN } from "../../vault/privacy/privacy";
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

	/**
	 * A note's tags from the metadata cache; `TAGS_NOT_KNOWN` while the cache has no entry for it yet (just
	 * created or synced in) or Obsidian does not know the note, so the privacy rules count it as private until
	 * Obsidian has parsed it. Other files have no tags.
	 */
	tagsOf(relativePath: string): readonly string[] {
		const path = normalizePath(relativePath);
		const file = this.app.vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) return path.toLowerCase().endsWith(".md") ? TAGS_NOT_KNOWN : [];
		if (file.extension !== "md") return [];
		const cache = this.app.metadataCache.getFileCache(file);
		return cache ? (getAllTags(cache) ?? []) : TAGS_NOT_KNOWN;
	}
}
