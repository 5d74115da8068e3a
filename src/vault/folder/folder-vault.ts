import { readFileSync } from "node:fs";
import { noteTags } from "../markdown/note-tags";
import { ownString } from "../../shared/own-string";
import type { YamlCodec } from "../../shared/yaml-codec";
import { libraryYamlCodec } from "./yaml-library-codec";
import { FolderFiles } from "./folder-files";
import { FolderDiagnosticsNotes } from "./folder-diagnostics-notes";
import { FolderNoteStore, NoteMemo, type FolderNoteStoreOptions } from "./folder-note-store";
import { FolderVaultIndex } from "./folder-vault-index";
import type { SavedFolderIndex } from "./saved-folder-index";

export interface FolderVaultOptions extends FolderNoteStoreOptions {
	/** The YAML of every facet: tags, facts and the frontmatter check (default: the `yaml` library's). */
	yaml?: YamlCodec;
	/** Where the vault tools' index keeps its summaries between sessions (`FolderVaultIndex`); none without. */
	savedIndex?: SavedFolderIndex;
}

/**
 * A vault folder on disk, once: one store with one watcher set, read by every surface. `files` is the IDE's file
 * port, `notes` the diagnostics' `DiagnosticsNotes`, `index` the vault tools' `VaultIndex`, and `tagsOf` the privacy
 * tag reader (`noteTags`), each keeping what it derives per note version. Made on first use, so a process that
 * serves only the vault tools (`mcp --vault`) keeps nothing for the others.
 */
export class FolderVault {
	readonly store: FolderNoteStore;
	private readonly tags: NoteMemo<readonly string[]>;
	private filesFacet: FolderFiles | undefined;
	private notesFacet: FolderDiagnosticsNotes | undefined;
	private indexFacet: FolderVaultIndex | undefined;
	private readonly yaml: YamlCodec;
	private readonly savedIndex: SavedFolderIndex | undefined;

	constructor(options: FolderVaultOptions) {
		this.store = new FolderNoteStore(options);
		this.yaml = options.yaml ?? libraryYamlCodec;
		this.savedIndex = options.savedIndex;
		// Own strings: a tag cut from the note's text would keep the whole text in memory.
		this.tags = new NoteMemo(this.store, (_path, read) => noteTags(read.text, this.yaml).map(ownString));
	}

	get root(): string {
		return this.store.root;
	}

	get files(): FolderFiles {
		return (this.filesFacet ??= new FolderFiles(this.store));
	}

	get notes(): FolderDiagnosticsNotes {
		return (this.notesFacet ??= new FolderDiagnosticsNotes(this.store, this.yaml));
	}

	get index(): FolderVaultIndex {
		return (this.indexFacet ??= new FolderVaultIndex(this.store, this.yaml, this.savedIndex));
	}

	/**
	 * Tags of a note as Obsidian reads them (`noteTags`), for the private-tag rules: kept per note version, so
	 * privacy (asked for every note of a listing) reads each note once. `fresh` checks the version with one stat
	 * first instead of relying on the watcher's event (the IDE channel asks per request, as it always did).
	 * A `.md` path the store does not list (through a symbolic link, or not seen yet) is read from disk.
	 */
	tagsOf(relativePath: string, options: { fresh?: boolean } = {}): readonly string[] {
		// `Note.MD` is read too: a tag found in a file Obsidian might not treat as a note only errs private.
		if (!/\.md$/i.test(relativePath)) return [];
		if (this.store.isNote(relativePath)) {
			if (options.fresh) this.store.verify(relativePath);
			const tags = this.tags.get(relativePath);
			if (tags) return tags;
		}
		try {
			return noteTags(readFileSync(this.store.absolute(relativePath), "utf8"), this.yaml);
		} catch {
			return [];
		}
	}

	dispose(): void {
		this.filesFacet = undefined;
		this.notesFacet?.dispose();
		this.indexFacet?.dispose();
		this.tags.dispose();
		this.store.dispose();
	}
}
