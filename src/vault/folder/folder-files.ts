import { readFileSync, statSync } from "node:fs";
import type { FolderNoteStore } from "./folder-note-store";

/**
 * The folder's files for the IDE (the shape of `VaultFileBytes`): the listing from the folder's one store, kept
 * current by its watcher; sizes, bytes and texts read from disk when asked.
 */
export class FolderFiles {
	constructor(private readonly store: FolderNoteStore) {}

	/** Every file of the vault (hidden names and symbolic links left out), with its size. */
	list(): { path: string; size: number }[] {
		this.store.refresh();
		return this.store.fileEntries();
	}

	/** Changes whenever the vault's watcher reports a change; undefined while nothing watches the vault (`FolderNoteStore.changeVersion`). */
	get changeVersion(): number | undefined {
		return this.store.changeVersion;
	}

	/** Whether the watcher watches every folder on the way to the path, so `changeVersion` covers it. */
	watchesWayTo(relativePath: string): boolean {
		return this.store.watchesWayTo(relativePath);
	}

	// stat and readBytes are synchronous behind the async port: for a note-sized file one read call costs less than
	// fs.promises' chunked reads on the thread pool and their callbacks (the bench's 1 MiB files/read).
	async stat(relativePath: string): Promise<{ size: number } | undefined> {
		try {
			const stats = statSync(this.store.absolute(relativePath));
			return stats.isFile() ? { size: stats.size } : undefined;
		} catch {
			return undefined;
		}
	}

	async readBytes(relativePath: string): Promise<Uint8Array> {
		return readFileSync(this.store.absolute(relativePath));
	}

	readText(relativePath: string): string {
		return readFileSync(this.store.absolute(relativePath), "utf8");
	}
}
