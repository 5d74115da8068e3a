import { Component, getAllTags, normalizePath, type CachedMetadata, type EventRef } from "obsidian";
import type { FrontmatterProblem, NoteFacts } from "../../vault/markdown/note-model";
import { factsFromText } from "../../vault/notes/note-facts";
import { TAGS_NOT_KNOWN } from "../../vault/privacy/privacy";
import { ShardedMap } from "../../shared/sharded-map";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { FrontmatterDetail } from "./cache-facts";
import { TextReading } from "./text-reading";
import { LinkResolver } from "../../vault/notes/link-resolver";
import { obsidianYamlCodec } from "./obsidian-yaml-codec";
import type { WorkPace } from "../../vault/notes/notes";
import { WorkSlices } from "../../vault/notes/work-slices";

/** A file as vault and metadata-cache events name it (TAbstractFile / TFile). */
export interface EventFile {
	path: string;
}

/** A file's modification time and size: what tells two versions of a note apart without reading it. */
export interface FileStamp {
	mtime: number;
	size: number;
}

/** The file fields the store reads; Obsidian's TFile has them (`stat` as the vault last saw the file). */
export interface NoteFile {
	path: string;
	extension: string;
	stat: FileStamp;
}

/** The parts of `app.vault` the store uses (obsidian.d.ts `Vault`). */
export interface NoteStoreVault {
	getMarkdownFiles(): NoteFile[];
	getFiles(): NoteFile[];
	getFileByPath(path: string): NoteFile | null;
	cachedRead(file: NoteFile): Promise<string>;
	on(name: "create" | "modify" | "delete", callback: (file: EventFile) => unknown): EventRef;
	on(name: "rename", callback: (file: EventFile, oldPath: string) => unknown): EventRef;
}

/** The parts of `app.metadataCache` the store uses. */
export interface NoteStoreMetadataCache {
	getFileCache(file: NoteFile): CachedMetadata | null;
	getFirstLinkpathDest(linkpath: string, sourcePath: string): NoteFile | null;
	on(name: "changed", callback: (file: EventFile, data: string, cache: CachedMetadata) => unknown): EventRef;
}

/** What the store read from the text of the version a cache entry was made from: its frontmatter and its tags. */
export interface IndexedReading {
	/** The cache entry whose text was read. */
	cache: CachedMetadata;
	/** The text-based frontmatter check (Obsidian's cache does not say why YAML did not parse); null when valid or absent. */
	problem: FrontmatterProblem | null;
	/** What the cache does not say about the frontmatter: key lines, property links and tags; undefined without one. */
	detail(): FrontmatterDetail | undefined;
	/** The tags privacy reads (`noteTags`, the one tag reader, the same a text about to be written is judged by). */
	tags: readonly string[];
}

/**
 * A note read from its text because the cache is behind it (created or changed, not parsed yet): the text and
 * the disk's stamp when it was read (undefined when not asked); `text` undefined and `stamp` null when the note is
 * gone from the disk though the vault still lists it.
 */
export interface UnindexedRead {
	stamp: FileStamp | null | undefined;
	text: string | undefined;
	/** The note model from `text` (links unresolved), made when first asked. */
	facts(): NoteFacts;
}

/** What a reader of the store hears, after the store was updated. */
export interface NoteStoreListener {
	/** Anything known about the note changed (parsed, read, moved, gone): what was derived from it is stale. */
	noteChanged?(path: string): void;
	/** Obsidian parsed a note: its cache now holds its current text. */
	parsed?(path: string): void;
	/** The file list changed (a file created, deleted or renamed). */
	listChanged?(): void;
	/** The vault reported the note created or changed (or a reader wrote it): its cache is behind until `changed`. */
	awaitingIndex?(path: string): void;
}

export interface ObsidianNoteStoreOptions {
	/** Obsidian's YAML (`obsidianYamlCodec`, the default). */
	yaml?: YamlCodec;
	/**
	 * With a pace (the plugin's `windowPace`), what is read from a parsed note's text (its tags, its frontmatter's
	 * problem) is read after the `changed` event, in slices, or at once when a reader asks first: Obsidian hands
	 * over thousands of parsed notes while it indexes a vault, each on the main thread. Without, at the event.
	 */
	pace?: WorkPace;
}

/**
 * Every note of the Obsidian vault as the plugin's readers share it (the diagnostics' `ObsidianDiagnosticsNotes`
 * and the vault tools' `ObsidianVaultIndex` are views over it), as `FolderNoteStore` is for a folder: the one
 * subscriber to the vault's and the metadata cache's note events (no reader subscribes to Obsidian itself), and the
 * one place that keeps what every reader needs: the version Obsidian indexed (its stamp), what was read from the
 * text of that version (frontmatter, tags), the notes read from their text because the cache is behind them, and
 * the files by name for links among a subset. What a view derives from a note (its facts) it keeps itself, and
 * drops when told `noteChanged`.
 *
 * The one staleness rule: a note the vault reported created or modified is behind the cache until its `changed`
 * event comes; a rename moves that state with the file (obsidian.d.ts: `changed` "is not called when a file is
 * renamed", the cache entry moves with the unchanged file). Until then such a note is read from its text
 * (`keepRead`) and its model made by the shared core.
 */
export class ObsidianNoteStore extends Component {
	readonly yaml: YamlCodec;
	/** Notes the vault reported created or changed whose new version Obsidian has not parsed yet, in report order. */
	private readonly awaiting = new Set<string>();
	private structureChanges = 0;
	/** Per note, what was read from the text of the version the cache holds (or an earlier one). */
	private readonly readings = new ShardedMap<IndexedReading>();
	/** The notes whose frontmatter, as last read, has anything like a link (`[[` or `](`): only their `detail()` can have links. */
	private readonly linkers = new Set<string>();
	/** Notes whose text privacy asked for (their tags), read a few at a time. */
	private readonly wanted = new Set<string>();
	private fetching = false;
	/** mtime and size of the file as Obsidian indexed it, from its last `changed` event. */
	private readonly indexedStamps = new ShardedMap<FileStamp>();
	/** Notes read from their text because the cache is behind them; kept until `changed` (or the cache catches up). */
	private readonly reads = new Map<string, UnindexedRead>();
	private readonly listeners = new Set<NoteStoreListener>();
	/** Every file by name (`LinkResolver`), for links among a subset; built when first needed and after the list changed. */
	private byName: { version: number; index: LinkResolver } | undefined;
	private paths: string[] | undefined;
	/** Changes of the notes' list the events do not see: notes found on disk before the vault lists them, or gone. */
	private diskStructureChanges = 0;
	private readonly pace: WorkPace | undefined;
	/** Readings whose text is still to be read (with a pace), in the order Obsidian parsed the notes. */
	private readonly unread = new Map<string, TextReading>();
	private reading = false;

	constructor(
		readonly vault: NoteStoreVault,
		readonly metadataCache: NoteStoreMetadataCache,
		options: ObsidianNoteStoreOptions = {},
	) {
		super();
		this.yaml = options.yaml ?? obsidianYamlCodec;
		this.pace = options.pace;
	}

	override onload(): void {
		this.registerEvent(
			this.metadataCache.on("changed", (file, data, cache) => {
				const path = file.path;
				this.awaiting.delete(path);
				const stat = this.vault.getFileByPath(path)?.stat;
				this.setReading(path, data, cache);
				if (stat) this.indexedStamps.set(path, { mtime: stat.mtime, size: stat.size });
				this.reads.delete(path);
				this.tell(path, true);
			}),
		);
		this.registerEvent(
			this.vault.on("create", (file) => {
				this.markAwaitingIndex(file.path);
				this.listChanged();
			}),
		);
		this.registerEvent(this.vault.on("modify", (file) => this.markAwaitingIndex(file.path)));
		this.registerEvent(
			this.vault.on("delete", (file) => {
				this.awaiting.delete(file.path);
				this.forget(file.path);
				this.listChanged();
			}),
		);
		this.registerEvent(
			this.vault.on("rename", (file, oldPath) => {
				const path = file.path;
				if (this.awaiting.delete(oldPath)) this.awaiting.add(path);
				// The cache entry moves with the unchanged file (as fresh or as stale as it was); a text read for the
				// old path is the new path's text, and only the frontmatter is read again.
				const read = this.reads.get(oldPath);
				this.forget(oldPath);
				this.forget(path);
				if (read?.text !== undefined) this.keepRead(path, read.stamp, read.text);
				this.listChanged();
			}),
		);
	}

	/** Adds a reader; the returned function removes it (give it to the reader's `register`). */
	listen(listener: NoteStoreListener): () => void {
		this.listeners.add(listener);
		return () => void this.listeners.delete(listener);
	}

	/** Changes whenever a file is created, deleted or renamed, or a note is found on disk only or gone from it. */
	get structureVersion(): number {
		return this.structureChanges + this.diskStructureChanges;
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
		if (!isNotePath(path)) return;
		this.awaiting.add(path);
		for (const listener of this.listeners) listener.awaitingIndex?.(path);
	}

	/** Vault paths of every Markdown note Obsidian lists, kept until the file list changes. */
	notePaths(): readonly string[] {
		this.paths ??= this.vault.getMarkdownFiles().map((file) => file.path);
		return this.paths;
	}

	/** Whether `notePaths` has its list at hand (made since the list last changed), or must ask the vault for it. */
	hasNotePaths(): boolean {
		return this.paths !== undefined;
	}

	/** The note's file as the vault lists it; undefined for anything not a Markdown file. */
	noteFile(path: string): NoteFile | undefined {
		if (!path.toLowerCase().endsWith(".md")) return undefined;
		return this.vault.getFileByPath(path) ?? undefined;
	}

	/** The stamp of the version Obsidian last parsed; before its first `changed` since load, the vault's view of the file. */
	indexedStamp(file: NoteFile): FileStamp {
		return this.indexedStamps.get(file.path) ?? file.stat;
	}

	/**
	 * `getFirstLinkpathDest`; with `exists`, among the files it accepts only, so a private note never shadows a
	 * public one of the same name. An answer of Obsidian's it accepts stands: removing other files cannot change
	 * Obsidian's first choice, and a link that leads nowhere leads nowhere in a smaller vault too. Otherwise the
	 * link is resolved as Obsidian does (exact path, then beside the source, then the shortest path) among the vault's
	 * files by name.
	 */
	linkDestination(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		const first = this.metadataCache.getFirstLinkpathDest(linkpath, sourcePath)?.path;
		if (!exists || first === undefined || exists(first)) return first;
		const version = this.structureVersion;
		if (this.byName?.version !== version) {
			const index = new LinkResolver();
			for (const file of this.vault.getFiles()) index.add(file.path);
			this.byName = { version, index };
		}
		return this.byName.index.resolve(linkpath, sourcePath, exists);
	}

	/** What was read from the text of the note's cached version, or of an earlier one; undefined when never read. */
	indexedReading(path: string): IndexedReading | undefined {
		return this.readings.get(path);
	}

	/** The notes whose frontmatter, as last read, has anything like a link: the others' `detail()` has none (a search over every note looks at these alone). */
	frontmatterLinkers(): ReadonlySet<string> {
		return this.linkers;
	}

	/** Reads the note's text as the vault last saw it, for the cache entry now held (its frontmatter and tags). */
	async readIndexedText(file: NoteFile, cache: CachedMetadata): Promise<void> {
		const text = await this.vault.cachedRead(file);
		this.setReading(file.path, text, cache);
		this.tell(file.path);
	}

	/**
	 * A note's tags for the private-tag rules: `noteTags` of the text of the version Obsidian indexed, the one tag
	 * reader (a text about to be written is judged by it too, so a note reads the same listed as written).
	 * `TAGS_NOT_KNOWN` while the cache has no entry for it (just created or synced in) or Obsidian does not know the
	 * note, so privacy counts it as private until Obsidian has parsed it; other files have none. Until the text of
	 * the version is read (at its `changed` event, or asked for here at once), Obsidian's own reading of that same
	 * version (`getAllTags`) stands in.
	 */
	tagsOf(relativePath: string): readonly string[] {
		const path = normalizePath(relativePath);
		const file = this.vault.getFileByPath(path);
		if (!file) return path.toLowerCase().endsWith(".md") ? TAGS_NOT_KNOWN : [];
		if (file.extension !== "md") return [];
		const cache = this.metadataCache.getFileCache(file);
		if (!cache) return TAGS_NOT_KNOWN;
		const reading = this.readings.get(path);
		if (reading?.cache === cache) return reading.tags;
		this.want(path);
		return (getAllTags(cache) ?? []).map((tag) => tag.replace(/^#/, ""));
	}

	/** The note as read from its text while the cache is behind it; undefined when it was not read. */
	unindexedRead(path: string): UnindexedRead | undefined {
		return this.reads.get(path);
	}

	/** Paths of the notes read from their text, the vault's or the disk's only. */
	readPaths(): IterableIterator<string> {
		return this.reads.keys();
	}

	/** Keeps a note's text read while the cache is behind it (`text` undefined, `stamp` null: gone from the disk). */
	keepRead(path: string, stamp: FileStamp | null | undefined, text: string | undefined): void {
		// A note only on disk, or gone from it, changes what links resolve to.
		if (!this.reads.has(path) && (stamp === null || !this.vault.getFileByPath(path))) this.diskStructureChanges++;
		let facts: NoteFacts | undefined;
		this.reads.set(path, {
			stamp,
			text,
			facts: () => (facts ??= text === undefined ? emptyFacts(path) : factsFromText(path, text, this.yaml)),
		});
		this.tell(path);
	}

	/** Drops a text read: the cache has caught up, or the text cannot be read now. */
	dropRead(path: string): void {
		if (this.reads.delete(path)) this.tell(path);
	}

	private setReading(path: string, text: string, cache: CachedMetadata): void {
		const end = cache.frontmatterPosition?.end.line;
		// Only the frontmatter's lines are kept, for the detail some reader may ask for.
		const head = end === undefined ? undefined : text.split("\n", end + 1).join("\n");
		const reading = new TextReading(cache, head, text, this.yaml);
		this.readings.set(path, reading);
		if (head?.includes("[[") || head?.includes("](")) this.linkers.add(path);
		else this.linkers.delete(path);
		this.unread.delete(path);
		if (!this.pace) return reading.read();
		this.unread.set(path, reading);
		this.readUnread(this.pace);
	}

	/** Reads the texts of the readings not read yet, in slices, until none is left. */
	private readUnread(pace: WorkPace): void {
		if (this.reading) return;
		this.reading = true;
		void (async () => {
			// The first slice starts after the event that queued the first note.
			await pace.yieldToMain();
			const slices = new WorkSlices(pace);
			for (const [path, reading] of this.unread) {
				reading.read();
				this.unread.delete(path);
				if (slices.due()) await slices.next();
			}
			this.reading = false;
			if (this.unread.size > 0) this.readUnread(pace);
		})();
	}

	/** Reads the texts privacy asked for, `TEXTS_AT_ONCE` at a time, so a whole listing does not read every note at once. */
	private want(path: string): void {
		this.wanted.add(path);
		if (this.fetching) return;
		this.fetching = true;
		void (async () => {
			while (this.wanted.size > 0) {
				const batch = [...this.wanted].slice(0, TEXTS_AT_ONCE);
				for (const each of batch) this.wanted.delete(each);
				await Promise.all(batch.map((each) => this.readForTags(each)));
			}
			this.fetching = false;
		})();
	}

	private async readForTags(path: string): Promise<void> {
		const file = this.noteFile(path);
		const cache = file ? this.metadataCache.getFileCache(file) : null;
		if (!file || !cache || this.readings.get(path)?.cache === cache) return;
		await this.readIndexedText(file, cache).catch(() => undefined);
	}

	private listChanged(): void {
		this.structureChanges++;
		this.paths = undefined;
		this.tell(undefined);
	}

	private forget(path: string): void {
		this.unread.delete(path);
		this.readings.delete(path);
		this.linkers.delete(path);
		this.indexedStamps.delete(path);
		this.reads.delete(path);
		this.tell(path);
	}

	/** Tells every reader that the note at `path` changed (`parsed`: by Obsidian's parse), or with none, the list. */
	private tell(path: string | undefined, parsed = false): void {
		for (const listener of this.listeners) {
			if (path === undefined) listener.listChanged?.();
			else listener.noteChanged?.(path);
			if (parsed) listener.parsed?.(path ?? "");
		}
	}
}

/** A Markdown file Obsidian would list: not under a folder or name starting with a dot (Obsidian skips those). */
export function isNotePath(path: string): boolean {
	return path.toLowerCase().endsWith(".md") && !path.split("/").some((part) => part.startsWith("."));
}

/** How many note texts privacy's reads ask the vault for at once. */
const TEXTS_AT_ONCE = 16;

function emptyFacts(path: string): NoteFacts {
	return { path, links: [], headings: [], blockIds: [], tags: [] };
}
