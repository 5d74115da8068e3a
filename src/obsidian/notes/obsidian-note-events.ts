import { Component, type CachedMetadata, type EventRef } from "obsidian";

/** A file as vault and metadata-cache events name it (TAbstractFile / TFile). */
export interface EventFile {
	path: string;
}

/** The events of `app.vault` the notes follow. */
export interface EventVault {
	on(name: "create" | "modify" | "delete", callback: (file: EventFile) => unknown): EventRef;
	on(name: "rename", callback: (file: EventFile, oldPath: string) => unknown): EventRef;
}

/** The event of `app.metadataCache` the notes follow. */
export interface EventMetadataCache {
	on(name: "changed", callback: (file: EventFile, data: string, cache: CachedMetadata) => unknown): EventRef;
}

/** What the note store (`ObsidianNoteStore`) hears, after the staleness state was updated. */
export interface NoteEventListener {
	/** Obsidian parsed a note: its cache now holds the text `data`. */
	changed?(file: EventFile, data: string, cache: CachedMetadata): void;
	created?(path: string): void;
	modified?(path: string): void;
	deleted?(path: string): void;
	renamed?(path: string, oldPath: string): void;
}

/**
 * The one subscriber to the vault's and the metadata cache's events in Obsidian, with the one staleness rule: a
 * note the vault reported created or modified is behind the cache until its `changed` event comes; a rename moves
 * that state with the file (obsidian.d.ts: `changed` "is not called when a file is renamed", the cache entry moves
 * with the unchanged file). The note store (`ObsidianNoteStore`) listens here and keeps what readers share; no
 * reader subscribes to Obsidian itself.
 */
export class ObsidianNoteEvents extends Component {
	private readonly awaiting = new Set<string>();
	private readonly listeners = new Set<NoteEventListener>();
	private structureChanges = 0;

	constructor(
		private readonly vault: EventVault,
		private readonly metadataCache: EventMetadataCache,
	) {
		super();
	}

	override onload(): void {
		this.registerEvent(
			this.metadataCache.on("changed", (file, data, cache) => {
				this.awaiting.delete(file.path);
				for (const listener of this.listeners) listener.changed?.(file, data, cache);
			}),
		);
		this.registerEvent(
			this.vault.on("create", (file) => {
				this.structureChanges++;
				if (isNotePath(file.path)) this.awaiting.add(file.path);
				for (const listener of this.listeners) listener.created?.(file.path);
			}),
		);
		this.registerEvent(
			this.vault.on("modify", (file) => {
				if (isNotePath(file.path)) this.awaiting.add(file.path);
				for (const listener of this.listeners) listener.modified?.(file.path);
			}),
		);
		this.registerEvent(
			this.vault.on("delete", (file) => {
				this.structureChanges++;
				this.awaiting.delete(file.path);
				for (const listener of this.listeners) listener.deleted?.(file.path);
			}),
		);
		this.registerEvent(
			this.vault.on("rename", (file, oldPath) => {
				this.structureChanges++;
				if (this.awaiting.delete(oldPath)) this.awaiting.add(file.path);
				for (const listener of this.listeners) listener.renamed?.(file.path, oldPath);
			}),
		);
	}

	/** Adds a reader; the returned function removes it (give it to the reader's `register`). */
	listen(listener: NoteEventListener): () => void {
		this.listeners.add(listener);
		return () => void this.listeners.delete(listener);
	}

	/** Whether the vault reported the note created or changed and Obsidian has not parsed that version yet. */
	isAwaitingIndex(path: string): boolean {
		return this.awaiting.has(path);
	}

	/** The notes awaiting indexing, in the order the vault reported them. */
	awaitingIndex(): ReadonlySet<string> {
		return this.awaiting;
	}

	/** A reader wrote the note itself (vault.process/create): its cache is behind until `changed`. */
	markAwaitingIndex(path: string): void {
		if (isNotePath(path)) this.awaiting.add(path);
	}

	/** Changes whenever a file is created, deleted or renamed (link resolution may then change). */
	get structureVersion(): number {
		return this.structureChanges;
	}
}

/** A Markdown file Obsidian would list: not under a folder or name starting with a dot (Obsidian skips those). */
export function isNotePath(path: string): boolean {
	return path.toLowerCase().endsWith(".md") && !path.split("/").some((part) => part.startsWith("."));
}
