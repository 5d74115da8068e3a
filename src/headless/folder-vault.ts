import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { VaultFileEntry, VaultFilesPort } from "../vault/notes/vault-files";
import type { VaultPaths } from "../vault/vault-paths";
import { NoteTagCache } from "./note-tag-cache";

/** A folder on disk as a vault: what the headless host serves instead of Obsidian's vault. */
export class FolderVault implements VaultFilesPort {
	private readonly tags = new NoteTagCache();

	constructor(private readonly paths: VaultPaths) {}

	list(): VaultFileEntry[] {
		const entries: VaultFileEntry[] = [];
		const walk = (relativeFolder: string): void => {
			const folder = relativeFolder === "" ? this.paths.root : join(this.paths.root, relativeFolder);
			for (const dirent of readdirSync(folder, { withFileTypes: true })) {
				if (dirent.name.startsWith(".")) continue;
				const relativePath = relativeFolder === "" ? dirent.name : `${relativeFolder}/${dirent.name}`;
				// Symlinked folders are not followed (no loops, nothing outside the vault listed).
				if (dirent.isDirectory()) walk(relativePath);
				else if (dirent.isFile()) entries.push({ path: relativePath, size: statSync(join(folder, dirent.name)).size });
			}
		};
		walk("");
		return entries;
	}

	// stat and readBytes are synchronous behind the async port: for a note-sized file one read call costs less than
	// fs.promises' chunked reads on the thread pool and their callbacks (the bench's 1 MiB files/read).
	async stat(relativePath: string): Promise<{ size: number } | undefined> {
		try {
			const stats = statSync(this.paths.toAbsolute(relativePath));
			return stats.isFile() ? { size: stats.size } : undefined;
		} catch {
			return undefined;
		}
	}

	async readBytes(relativePath: string): Promise<Uint8Array> {
		return readFileSync(this.paths.toAbsolute(relativePath));
	}

	readText(relativePath: string): string {
		return readFileSync(this.paths.toAbsolute(relativePath), "utf8");
	}

	/**
	 * Tags of a note as Obsidian reads them (`noteTags`). Privacy asks for every note of a listing, so the answer
	 * is kept per path until the file's size, mtime or ctime changes: one stat instead of a read per call.
	 */
	tagsOf(relativePath: string): string[] {
		// `Note.MD` is read too: a tag found in a file Obsidian might not treat as a note only errs private.
		if (!/\.md$/i.test(relativePath)) return [];
		return this.tags.of(this.paths.toAbsolute(relativePath));
	}
}
