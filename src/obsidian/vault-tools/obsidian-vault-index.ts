import { Component, normalizePath, type CachedMetadata } from "obsidian";
import { factsFromText, linkFactsFromText } from "../../vault/notes/note-facts";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { FrontmatterFact, LinkFact, NoteFacts, TagFact } from "../../vault/markdown/note-model";
import type { FrontmatterNeed, WorkPace } from "../../vault/notes/notes";
import { WorkSlices } from "../../vault/notes/work-slices";
import { PreparedSearchTexts } from "../../vault/notes/prepared-search-texts";
import {
	LinksNotKeptError,
	NoteChangedError,
	type Backlink,
	type RenameReport,
	type StrandedLink,
	type VaultIndex,
} from "../../vault/notes/vault-index";
import { ShardedMap } from "../../shared/sharded-map";
import { linksInCacheTo, needsFrontmatterText } from "../notes/frontmatter-needs";
import { factsFromCache, frontmatterFromCache, tagsFromCache, type FrontmatterDetail } from "../notes/cache-facts";
import {
	ObsidianNoteStore,
	type NoteFile,
	type NoteStoreMetadataCache,
	type NoteStoreVault,
} from "../notes/obsidian-note-store";

/** A file or folder as the vault hands it out (TAbstractFile; a folder has no `extension`). */
export interface IndexedFile {
	path: string;
	extension?: string;
}

/** The parts of `app.vault` the index uses besides the store's (obsidian.d.ts `Vault`). */
export interface IndexVault extends NoteStoreVault {
	getAbstractFileByPath(path: string): IndexedFile | null;
	read(file: NoteFile): Promise<string>;
	process(file: NoteFile, fn: (data: string) => string): Promise<string>;
	create(path: string, data: string): Promise<unknown>;
	createFolder(path: string): Promise<unknown>;
}

/** The parts of `app.metadataCache` the index uses besides the store's. */
export interface IndexMetadataCache extends NoteStoreMetadataCache {
	resolvedLinks: Record<string, Record<string, number>>;
}

/** `app.fileManager.renameFile`: moves a file and rewrites links to it as the user's settings say. */
export interface IndexFileManager {
	renameFile(file: IndexedFile, newPath: string): Promise<void>;
}

export interface ObsidianVaultIndexOptions {
	vault: IndexVault;
	metadataCache: IndexMetadataCache;
	fileManager: IndexFileManager;
	/** The plugin's one note store (shared with the diagnostics); one of its own when absent. */
	store?: ObsidianNoteStore;
	/** Obsidian's YAML (`obsidianYamlCodec`), for notes read from their text. */
	yaml: YamlCodec;
	/** The pace of work over every note (`windowPace` in the plugin); absent, such work runs in one go. */
	pace?: WorkPace;
	/** A note's bytes read at once from the disk (`diskNoteBytes`), for search texts; absent, `cachedRead` reads them. */
	readNoteBytes?: (file: NoteFile) => Buffer | undefined;
}

interface CachedFacts {
	/** The cache entry (or text) they were read from. */
	from: CachedMetadata | string;
	/** The file list their links were resolved against; undefined while not resolved (tags and properties need none). */
	structure: number | undefined;
	facts: NoteFacts;
}

/** A note's tags and frontmatter read from one cache entry (`null`: it has none), made as asked. */
interface CachePart {
	cache: CachedMetadata;
	tags?: readonly TagFact[];
	frontmatter?: FrontmatterFact | null;
}

/** How many note texts a refresh reads at once (a restart over a warm cache reads every note's frontmatter). */
const READS_AT_ONCE = 64;

/**
 * The vault tools' index, a view over the plugin's note store (`ObsidianNoteStore`): facts from the metadata cache
 * with the frontmatter the store read from the text, link resolution from `getFirstLinkpathDest`, writes through
 * `vault.process` (compare and write in one step), new notes through `vault.create`, moves through
 * `fileManager.renameFile` (Obsidian rewrites the links). A note whose cache entry is missing or behind the vault is
 * read into the store at the next `refresh`, and its facts taken from the text until Obsidian has parsed it.
 */
export class ObsidianVaultIndex extends Component implements VaultIndex {
	private readonly store: ObsidianNoteStore;
	/** Each note's facts with their links resolved, kept until the store says the note changed. */
	private readonly factsCache = new ShardedMap<CachedFacts>();
	/** Each note's tags and frontmatter when asked without its other facts, kept as `factsCache` is. */
	private readonly parts = new ShardedMap<CachePart>();
	/**
	 * The notes `refresh` must look at: every note after the list changed (or at first), else only those the store
	 * said changed or await indexing since, and those whose read failed (tried again at the next call).
	 */
	private unchecked: Set<string> | "every note" = "every note";
	/**
	 * The needs (`refresh`) for which every note's frontmatter has been read, by a walk over every note since the
	 * list last changed; "every note" when none was left unread.
	 */
	private readonly covered = new Set<FrontmatterNeed>();
	/** Notes a walk over some notes left unread (their frontmatter not needed then), for the next walk to look at. */
	private readonly leftUnread = new Set<string>();
	/**
	 * Notes a walk for `backlinks` left unread whose cache entry lists links in properties (`frontmatterLinks`):
	 * `backlinks` reads those of them that lead to the note asked.
	 */
	private readonly cacheLinkers = new Set<string>();
	private listChanges = 0;
	/** Counts what the store said changed (a note, the list): a kept answer made before a change is not used. */
	private changes = 0;
	/** Search texts read for searches, each dropped when the vault or Obsidian says its note changed. */
	private readonly searchTexts: PreparedSearchTexts;
	/** The last backlinks found (a tool's pages ask for the same note's again), with the count they were made at. */
	private lastBacklinks: { path: string; changes: number; found: readonly Backlink[] } | undefined;

	readonly pace: WorkPace | undefined;

	constructor(private readonly options: ObsidianVaultIndexOptions) {
		super();
		this.pace = options.pace;
		this.store =
			options.store ?? new ObsidianNoteStore(options.vault, options.metadataCache, { yaml: options.yaml });
		this.searchTexts = new PreparedSearchTexts(
			(path) => {
				const file = this.store.noteFile(path);
				return file ? options.vault.cachedRead(file) : undefined;
			},
			this.pace,
			(path) => this.store.noteFile(path)?.stat.size ?? 0,
			(path) => {
				const file = options.readNoteBytes && this.store.noteFile(path);
				return file ? options.readNoteBytes?.(file) : undefined;
			},
		);
	}

	override onload(): void {
		if (!this.options.store) this.addChild(this.store);
		this.register(
			this.store.listen({
				noteChanged: (path) => {
					this.changes++;
					this.factsCache.delete(path);
					this.parts.delete(path);
					this.searchTexts.drop(path);
					// Not a note `refresh` has nothing to read for (it just read it, say): after a restart its reads of
					// every note's frontmatter made a set of every note, and the next call looked at each again.
					if (this.unchecked !== "every note" && this.wantsRead(path)) this.unchecked.add(path);
				},
				awaitingIndex: (path) => {
					this.changes++;
					this.searchTexts.drop(path);
					this.check(path);
				},
				listChanged: () => {
					this.changes++;
					this.listChanges++;
					this.unchecked = "every note";
					// A renamed note's reading is dropped: its frontmatter is unread again.
					this.covered.clear();
				},
			}),
		);
	}

	override onunload(): void {
		this.searchTexts.clear();
	}

	/**
	 * Reads the notes whose cache entry is missing or behind the vault, and the frontmatter of notes not read yet
	 * that `need` reads (`needsFrontmatterText`), a few at a time and in slices. After a restart every note's
	 * frontmatter is unread (the cache came from disk, no `changed` event): a call that reads only the links in
	 * properties reads the few notes whose cache entry may hold one, not 100k texts, and one that reads backlinks
	 * alone only those whose entry may hold a link it does not list (`backlinks` reads the rest that lead to the
	 * note asked).
	 */
	async refresh(need: FrontmatterNeed = "every note"): Promise<void> {
		const { vault, metadataCache } = this.options;
		const slices = new WorkSlices(this.pace);
		const unchecked = this.unchecked;
		this.unchecked = new Set();
		const listChanges = this.listChanges;
		// Every note once per need while notes' frontmatter may be left unread, else only the notes named since.
		const everyNote = unchecked === "every note" || !this.covers(need);
		// The store's list (made once per change of the list), each file looked up in the slices below. Made in a task
		// of its own: at 100k notes the vault's list and its paths are tens of milliseconds (after a restart, the call's
		// first task would hold them too).
		if (everyNote && !this.store.hasNotePaths() && this.pace) {
			await slices.next();
			this.store.notePaths();
			await slices.next();
		}
		const paths = everyNote ? this.store.notePaths() : [...new Set([...unchecked, ...this.leftUnread])];
		let left = false;
		let reads: Promise<void>[] = [];
		for (const path of paths) {
			// Named again below if still left.
			if (!everyNote) this.leftUnread.delete(path);
			const file = this.store.noteFile(path);
			const cache = file ? metadataCache.getFileCache(file) : undefined;
			if (!file) {
				// Gone since it was listed: nothing to read.
			} else if (!cache || this.store.isAwaitingIndex(file.path)) {
				reads.push(
					vault.read(file).then(
						(text) => this.store.keepRead(file.path, undefined, text),
						() => {
							this.store.dropRead(file.path);
							this.check(file.path);
						},
					),
				);
			} else if (cache.frontmatterPosition && this.store.indexedReading(file.path)?.cache !== cache) {
				if (needsFrontmatterText(need, cache)) {
					this.leftUnread.delete(file.path);
					reads.push(this.store.readIndexedText(file, cache).catch(() => this.check(file.path)));
				} else {
					if (everyNote) left = true;
					else this.leftUnread.add(file.path);
					if (need === "backlinks" && cache.frontmatterLinks?.length) this.cacheLinkers.add(file.path);
				}
			}
			if (reads.length >= READS_AT_ONCE) {
				await Promise.all(reads);
				reads = [];
			}
			if (slices.due()) await slices.next();
		}
		await Promise.all(reads);
		// What a walk over every note read stands for every note, unless the list changed meanwhile.
		if (everyNote && listChanges === this.listChanges) {
			if (!left) {
				this.covered.add("every note");
				this.leftUnread.clear();
			} else this.covered.add(need);
		}
	}

	/** Whether every note whose frontmatter `need` reads has been read (or is looked at through `unchecked`). */
	private covers(need: FrontmatterNeed): boolean {
		return (
			need === "none" ||
			this.covered.has("every note") ||
			this.covered.has(need) ||
			(need === "backlinks" && this.covered.has("links"))
		);
	}

	/** Whether `refresh` would read the note now: its cache entry is missing or behind, or its frontmatter's text not read for it. */
	private wantsRead(path: string): boolean {
		const file = this.store.noteFile(path);
		const cache = file && this.options.metadataCache.getFileCache(file);
		return (
			file !== undefined &&
			(!cache ||
				this.store.isAwaitingIndex(path) ||
				(cache.frontmatterPosition !== undefined && this.store.indexedReading(path)?.cache !== cache))
		);
	}

	/** The next refresh looks at this note. */
	private check(path: string): void {
		if (this.unchecked !== "every note") this.unchecked.add(path);
	}

	notePaths(): readonly string[] {
		return this.store.notePaths();
	}

	exists(path: string): Promise<boolean> {
		return Promise.resolve(this.options.vault.getAbstractFileByPath(normalizePath(path)) !== null);
	}

	async readText(path: string): Promise<string | undefined> {
		const file = this.store.noteFile(path);
		if (!file) return undefined;
		try {
			return await this.options.vault.cachedRead(file);
		} catch {
			return undefined;
		}
	}

	/** The note's search text when kept (read after a search, and the note has not changed since). */
	searchText(path: string): Buffer | undefined {
		return this.searchTexts.get(path);
	}

	/** The texts kept, and the others read (`cachedRead`) and lent, then kept in the background (`PreparedSearchTexts`). */
	scanSearchTexts(paths: readonly string[], each: (position: number, text: Buffer) => void): Promise<void> {
		return this.searchTexts.scan(paths, each);
	}

	facts(path: string): NoteFacts | undefined {
		const known = this.unresolvedFacts(path);
		if (!known) return undefined;
		const structure = this.store.structureVersion;
		if (known.structure === structure) return known.facts;
		for (const link of known.facts.links) {
			const target = this.resolveLink(link.linkpath, path);
			if (target === undefined) delete link.target;
			else link.target = target;
		}
		known.structure = structure;
		return known.facts;
	}

	/**
	 * A note's tags without its other facts (the tags overview and tag search ask every note): the facts' tags when
	 * they are made, else the same tags from the cache entry alone, kept beside them.
	 */
	tagsOf(path: string): readonly TagFact[] | undefined {
		const part = this.cachePart(path);
		if (part === undefined) return this.unresolvedFacts(path)?.facts.tags;
		return (part.tags ??= tagsFromCache(part.cache, this.detailFor(path, part.cache)));
	}

	/** A note's frontmatter without its other facts (property search and the properties overview), as `tagsOf`. */
	frontmatterOf(path: string): FrontmatterFact | undefined {
		const part = this.cachePart(path);
		if (part === undefined) return this.unresolvedFacts(path)?.facts.frontmatter;
		if (part.frontmatter === undefined)
			part.frontmatter = frontmatterFromCache(part.cache, this.detailFor(path, part.cache)) ?? null;
		return part.frontmatter ?? undefined;
	}

	/**
	 * What is kept of a note read from its current cache entry, when its facts are not made from that entry (a note
	 * read from its text, or made already, answers undefined: the facts have it).
	 */
	private cachePart(path: string): CachePart | undefined {
		const file = this.store.noteFile(path);
		if (!file || this.store.unindexedRead(path)) return undefined;
		const cache = this.options.metadataCache.getFileCache(file);
		if (!cache || this.factsCache.get(path)?.from === cache) return undefined;
		let part = this.parts.get(path);
		if (part?.cache !== cache) this.parts.set(path, (part = { cache }));
		return part;
	}

	/** The note's facts as kept, made when missing or made from another version; links resolved only by `facts`. */
	private unresolvedFacts(path: string): CachedFacts | undefined {
		const file = this.store.noteFile(path);
		if (!file) return undefined;
		const text = this.store.unindexedRead(path)?.text;
		const cache = text === undefined ? this.options.metadataCache.getFileCache(file) : null;
		const from = text ?? cache;
		if (from === null || from === undefined) return undefined;
		const known = this.factsCache.get(path);
		if (known && known.from === from) return known;
		const facts =
			typeof from === "string"
				? factsFromText(path, from, this.options.yaml)
				: factsFromCache(path, from, this.detailFor(path, from));
		const made: CachedFacts = { from, structure: undefined, facts };
		this.factsCache.set(path, made);
		return made;
	}

	/** `getFirstLinkpathDest`; when `exists` refuses its answer, resolved among the files it accepts (`ObsidianNoteStore.linkDestination`). */
	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		if (linkpath === "")
			return this.store.noteFile(sourcePath) && (exists?.(sourcePath) ?? true) ? sourcePath : undefined;
		return this.store.linkDestination(linkpath, sourcePath, exists);
	}

	/**
	 * The notes `resolvedLinks` says link to `path`, the notes read from their text, and the notes with a link in a
	 * property that leads to it (older Obsidian versions leave those out of `resolvedLinks`; a note whose property
	 * links only its cache entry has seen, after a `backlinks` refresh, has its frontmatter read here when one of
	 * them leads to `path`); their links that lead to `path`. Looks through every note in slices; the answer is
	 * kept until the store reports a change (the pages of a tool's answer ask for the same note's again).
	 */
	async backlinks(path: string): Promise<Backlink[]> {
		const last = this.lastBacklinks;
		if (last?.path === path && last.changes === this.changes) return [...last.found];
		const changes = this.changes;
		const slices = new WorkSlices(this.pace);
		const candidates = new Set<string>(this.store.readPaths());
		const { resolvedLinks } = this.options.metadataCache;
		// Each note looked up in `resolvedLinks` rather than a `for...in` over it: enumerating 100k keys is one task
		// of tens of milliseconds before the first slice could end. A source that is not a note has no facts to give.
		for (const source of this.store.notePaths()) {
			if ((resolvedLinks[source]?.[path] ?? 0) > 0) candidates.add(source);
			if (slices.due()) await slices.next();
		}
		// Notes whose links in properties only the cache entry has seen: read when one of them leads here (a few at
		// once: a note every other one names in a property, `up: "[[Index]]"`, has thousands).
		let reads: Promise<void>[] = [];
		for (const source of this.cacheLinkers) {
			const file = this.store.noteFile(source);
			const cache = file && this.options.metadataCache.getFileCache(file);
			if (!file || !cache?.frontmatterLinks?.length || this.store.indexedReading(source)?.cache === cache)
				this.cacheLinkers.delete(source);
			else if (linksInCacheTo(cache, path, (linkpath) => this.resolveLink(linkpath, source))) {
				reads.push(this.store.readIndexedText(file, cache).catch(() => this.check(source)));
				candidates.add(source);
				if (reads.length >= READS_AT_ONCE) {
					await Promise.all(reads);
					reads = [];
				}
			}
			if (slices.due()) await slices.next();
		}
		await Promise.all(reads);
		for (const source of this.store.frontmatterLinkers()) {
			const links = candidates.has(source) ? [] : (this.store.indexedReading(source)?.detail()?.links ?? []);
			if (links.some((link) => this.resolveLink(link.linkpath, source) === path)) candidates.add(source);
			if (slices.due()) await slices.next();
		}
		const backlinks: Backlink[] = [];
		for (const source of [...candidates].sort()) {
			for (const link of this.facts(source)?.links ?? [])
				if (link.target === path) backlinks.push({ source, link });
			if (slices.due()) await slices.next();
		}
		// Kept only when nothing changed while it was looked for (the slices let other work in).
		if (changes === this.changes) this.lastBacklinks = { path, changes, found: backlinks };
		return [...backlinks];
	}

	async writeText(path: string, text: string, expected: string): Promise<void> {
		const file = this.store.noteFile(path);
		if (!file) throw new Error(`${path} is not a note in the vault`);
		await this.options.vault.process(file, (current) => {
			if (current !== expected) throw new NoteChangedError(path);
			return text;
		});
		this.store.markAwaitingIndex(path);
	}

	async createNote(path: string, text: string): Promise<void> {
		if (await this.exists(path)) throw alreadyExists(path);
		await this.ensureFolder(parentOf(path));
		try {
			await this.options.vault.create(path, text);
		} catch (error) {
			if (await this.exists(path)) throw alreadyExists(path);
			throw error;
		}
		this.store.markAwaitingIndex(path);
	}

	/**
	 * Moves through Obsidian's file manager, which rewrites links as the user's settings say. The report counts the
	 * links whose text changed in each note that linked to the note (and in the note itself), read back from the
	 * files; when a link that led to the note leads elsewhere afterwards (link updating is off in Obsidian's
	 * settings, say), the move is reported as done with those links named.
	 */
	async renameNote(from: string, to: string): Promise<RenameReport> {
		const file = this.store.noteFile(from);
		if (!file) throw new Error(`${from} is not a note in the vault`);
		if (await this.exists(to)) throw alreadyExists(to);
		// Before and after are read with the same scanner, so the links of a note pair up one to one.
		const before = new Map<string, LinkFact[]>();
		const sources = new Set([from, ...(await this.backlinks(from)).map((backlink) => backlink.source)]);
		for (const source of sources) {
			const sourceFile = this.store.noteFile(source);
			const text = sourceFile ? await this.options.vault.read(sourceFile).catch(() => undefined) : undefined;
			if (text === undefined) continue;
			before.set(
				source,
				linkFactsFromText(text).map((link) => {
					const target = this.resolveLink(link.linkpath, source);
					return target === undefined ? link : { ...link, target };
				}),
			);
		}
		await this.ensureFolder(parentOf(to));
		await this.options.fileManager.renameFile(file, to);

		const updates: RenameReport["updates"] = [];
		const broken: StrandedLink[] = [];
		for (const [source, links] of before) {
			const now = source === from ? to : source;
			const moved = this.store.noteFile(now);
			const text = moved ? await this.options.vault.read(moved).catch(() => undefined) : undefined;
			if (text === undefined) continue;
			const after = linkFactsFromText(text);
			let changed = 0;
			links.forEach((link, index) => {
				const later = after[index];
				if (later && later.original !== link.original) changed++;
				if (link.target === undefined) return;
				const expected = link.target === from ? to : link.target;
				const target = later ? this.resolveLink(later.linkpath, now) : undefined;
				if (target !== expected)
					broken.push({ path: now, line: link.line, original: later?.original ?? link.original });
			});
			if (changed > 0) updates.push({ path: now, links: changed });
		}
		if (broken.length > 0)
			throw new LinksNotKeptError(
				from,
				to,
				true,
				broken,
				` (is "Automatically update internal links" off in Obsidian's Files and links settings?)`,
			);
		return { updates: updates.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
	}

	private detailFor(path: string, cache: CachedMetadata): FrontmatterDetail | undefined {
		const reading = this.store.indexedReading(path);
		return reading?.cache === cache ? reading.detail() : undefined;
	}

	private async ensureFolder(folder: string): Promise<void> {
		if (folder === "" || this.options.vault.getAbstractFileByPath(folder)) return;
		await this.ensureFolder(parentOf(folder));
		try {
			await this.options.vault.createFolder(folder);
		} catch (error) {
			// Created meanwhile (another write, a sync): what was wanted.
			if (!this.options.vault.getAbstractFileByPath(folder)) throw error;
		}
	}
}

function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

/** The error `reviewAndWrite` recognises as "created by someone else meanwhile". */
function alreadyExists(path: string): Error {
	return Object.assign(new Error(`${path} already exists`), { code: "EEXIST" });
}
