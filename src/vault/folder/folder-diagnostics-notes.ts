import type { NoteFacts } from "../markdown/note-model";
import type { YamlCodec } from "../../shared/yaml-codec";
import { libraryYamlCodec } from "./yaml-library-codec";
import { factsFromText } from "../notes/note-facts";
import type { DiagnosticsNotes } from "../notes/notes";
import { FolderNoteStore, NoteMemo, type FolderNoteStoreOptions } from "./folder-note-store";

/** Notes larger than this are listed (links to them resolve) but not scanned: their diagnostics are not computed. */
export const MAX_SCANNED_NOTE_BYTES = 4 * 1024 * 1024;

/**
 * The diagnostics' notes of a folder on disk (the headless host), over the folder's one store (`FolderVault`):
 * metadata scanned per note version, links resolved through the store's name index.
 */
export class FolderDiagnosticsNotes implements DiagnosticsNotes {
	private readonly store: FolderNoteStore;
	private readonly ownsStore: boolean;
	private readonly metadataMemo: NoteMemo<NoteFacts>;

	/** Over a folder's shared store, or (given options) over a store of its own. */
	constructor(source: FolderNoteStore | FolderNoteStoreOptions, yaml: YamlCodec = libraryYamlCodec) {
		this.ownsStore = !(source instanceof FolderNoteStore);
		this.store = source instanceof FolderNoteStore ? source : new FolderNoteStore(source);
		this.metadataMemo = new NoteMemo(this.store, (path, read) =>
			factsFromText(path, read.bytes > MAX_SCANNED_NOTE_BYTES ? "" : read.text, yaml),
		);
	}

	get structureVersion(): number {
		return this.store.structureVersion;
	}

	/** Lists the folder and starts watching it now rather than on the first call. */
	warmUp(): void {
		this.store.refresh();
	}

	refresh(): Promise<void> {
		this.store.refresh();
		return Promise.resolve();
	}

	async refreshNote(path: string): Promise<void> {
		await this.refresh();
		this.store.check(path);
	}

	notePaths(): Iterable<string> {
		return this.store.notePaths();
	}

	facts(path: string): NoteFacts | undefined {
		if (!this.store.isNote(path)) return undefined;
		// Gone or unreadable since it was listed: it has nothing to report.
		return this.metadataMemo.get(path) ?? { path, links: [], headings: [], blockIds: [], tags: [] };
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		return this.store.files.resolve(linkpath, sourcePath, exists);
	}

	dispose(): void {
		this.metadataMemo.dispose();
		if (this.ownsStore) this.store.dispose();
	}
}
