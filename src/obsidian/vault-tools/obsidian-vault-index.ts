import { Component, normalizePath, type CachedMetadata, type EventRef } from "obsidian";
import { factsFromText, linkFactsFromText } from "../../vault/notes/note-facts";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { LinkFact, NoteFacts } from "../../vault/markdown/note-model";
import {
	LinksNotKeptError,
	NoteChangedError,
	type Backlink,
	type RenameReport,
	type StrandedLink,
	type VaultIndex,
} from "../../vault/notes/vault-index";
import { ObsidianNoteEvents } from "../notes/obsidian-note-events";
import { FilesByName } from "../notes/files-by-name";
import { factsFromCache, frontmatterDetail, type FrontmatterDetail } from "../notes/cache-facts";

/** A file as the vault hands it out (TFile; a folder has no `extension`). */
export interface IndexedFile {
	path: string;
	extension?: string;
}

/** The parts of `app.vault` the index uses (obsidian.d.ts `Vault`). */
export interface IndexVault {
	getMarkdownFiles(): IndexedFile[];
	getFiles(): IndexedFile[];
	getAbstractFileByPath(path: string): IndexedFile | null;
	cachedRead(file: IndexedFile): Promise<string>;
	read(file: IndexedFile): Promise<string>;
	process(file: IndexedFile, fn: (data: string) => string): Promise<string>;
	create(path: string, data: string): Promise<IndexedFile>;
	createFolder(path: string): Promise<unknown>;
	on(name: "create" | "modify" | "delete", callback: (file: IndexedFile) => unknown): EventRef;
	on(name: "rename", callback: (file: IndexedFile, oldPath: string) => unknown): EventRef;
}

/** The parts of `app.metadataCache` the index uses. */
export interface IndexMetadataCache {
	getFileCache(file: IndexedFile): CachedMetadata | null;
	getFirstLinkpathDest(linkpath: string, sourcePath: string): IndexedFile | null;
	resolvedLinks: Record<string, Record<string, number>>;
	on(name: "changed", callback: (file: IndexedFile, data: string, cache: CachedMetadata) => unknown): EventRef;
}

/** `app.fileManager.renameFile`: moves a file and rewrites links to it as the user's settings say. */
export interface IndexFileManager {
	renameFile(file: IndexedFile, newPath: string): Promise<void>;
}

export interface ObsidianVaultIndexOptions {
	vault: IndexVault;
	metadataCache: IndexMetadataCache;
	fileManager: IndexFileManager;
	/** The plugin's one subscriber to vault and cache events (shared with the diagnostics); one of its own when absent. */
	events?: ObsidianNoteEvents;
	/** Obsidian's YAML (`obsidianYamlCodec`), for notes read from their text. */
	yaml: YamlCodec;
}

interface CachedFacts {
	/** The cache entry (or text) they were read from, and the file list they were resolved against. */
	from: CachedMetadata | string;
	structure: number;
	facts: NoteFacts;
}

/**
 * The vault tools' index over Obsidian: facts from the metadata cache, link resolution from
 * `getFirstLinkpathDest`, writes through `vault.process` (compare and write in one step), new notes through
 * `vault.create`, moves through `fileManager.renameFile` (Obsidian rewrites the links).
 *
 * The cache lags the vault: a note created or changed is parsed some time after the vault reports it, and until
 * then `getFileCache` answers the old entry or null. Such notes are read at the next `refresh` and their facts
 * taken from the text with the shared core, until Obsidian's `changed` event says the cache has caught up.
 */
export class ObsidianVaultIndex extends Component implements VaultIndex {
	/** Which notes are behind the cache (created or changed, not parsed yet) and when the file list changed. */
	private readonly events: ObsidianNoteEvents;
	/** Texts of stale or never-indexed notes, read at refresh. */
	private readonly fromText = new Map<string, string>();
	private readonly frontmatter = new Map<string, { cache: CachedMetadata; detail: FrontmatterDetail | undefined }>();
	private readonly factsCache = new Map<string, CachedFacts>();
	private paths: string[] | undefined;
	private readonly filesByName = new FilesByName(() => this.options.vault.getFiles());

	constructor(private readonly options: ObsidianVaultIndexOptions) {
		super();
		this.events = options.events ?? new ObsidianNoteEvents(options.vault, options.metadataCache);
	}

	private get structure(): number {
		return this.events.structureVersion;
	}

	override onload(): void {
		if (!this.options.events) this.addChild(this.events);
		this.register(
			this.events.listen({
				changed: (file, data, cache) => {
					this.fromText.delete(file.path);
					this.frontmatter.set(file.path, {
						cache,
						detail: frontmatterDetail(file.path, data, cache, this.options.yaml),
					});
				},
				created: () => {
					this.paths = undefined;
				},
				deleted: (path) => {
					this.paths = undefined;
					this.forget(path);
				},
				renamed: (path, oldPath) => {
					this.paths = undefined;
					// The cache entry moves with the unchanged file (the events keep it as fresh or as stale as it was);
					// a text read for the old path is the new path's text, and only the frontmatter is read again.
					const text = this.fromText.get(oldPath);
					this.forget(oldPath);
					if (text !== undefined) this.fromText.set(path, text);
				},
			}),
		);
	}

	/** Reads the notes whose cache entry is missing or behind the vault, and the frontmatter of notes not read yet. */
	async refresh(): Promise<void> {
		const { vault, metadataCache } = this.options;
		const reads: Promise<void>[] = [];
		for (const file of vault.getMarkdownFiles()) {
			const cache = metadataCache.getFileCache(file);
			if (!cache || this.events.isAwaitingIndex(file.path)) {
				reads.push(
					vault.read(file).then(
						(text) => void this.fromText.set(file.path, text),
						() => void this.fromText.delete(file.path),
					),
				);
			} else if (cache.frontmatterPosition && this.frontmatter.get(file.path)?.cache !== cache) {
				reads.push(
					vault.cachedRead(file).then(
						(text) => {
							this.frontmatter.set(file.path, {
								cache,
								detail: frontmatterDetail(file.path, text, cache, this.options.yaml),
							});
							// Facts built before the frontmatter was read lack it.
							this.factsCache.delete(file.path);
						},
						() => undefined,
					),
				);
			}
		}
		await Promise.all(reads);
	}

	notePaths(): readonly string[] {
		this.paths ??= this.options.vault.getMarkdownFiles().map((file) => file.path);
		return this.paths;
	}

	exists(path: string): Promise<boolean> {
		return Promise.resolve(this.options.vault.getAbstractFileByPath(normalizePath(path)) !== null);
	}

	async readText(path: string): Promise<string | undefined> {
		const file = this.noteFile(path);
		if (!file) return undefined;
		try {
			return await this.options.vault.cachedRead(file);
		} catch {
			return undefined;
		}
	}

	facts(path: string): NoteFacts | undefined {
		const file = this.noteFile(path);
		if (!file) return undefined;
		const text = this.fromText.get(path);
		const cache = text === undefined ? this.options.metadataCache.getFileCache(file) : null;
		const from = text ?? cache;
		if (from === null || from === undefined) return undefined;
		const known = this.factsCache.get(path);
		if (known && known.from === from && known.structure === this.structure) return known.facts;
		const facts =
			typeof from === "string"
				? factsFromText(path, from, this.options.yaml)
				: factsFromCache(path, from, this.detailFor(path, from));
		for (const link of facts.links) {
			const target = this.resolveLink(link.linkpath, path);
			if (target === undefined) delete link.target;
			else link.target = target;
		}
		this.factsCache.set(path, { from, structure: this.structure, facts });
		return facts;
	}

	/** `getFirstLinkpathDest`; when `exists` refuses its answer, resolved among the files it accepts (`FilesByName`). */
	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		if (linkpath === "")
			return this.noteFile(sourcePath) && (exists?.(sourcePath) ?? true) ? sourcePath : undefined;
		const first = this.options.metadataCache.getFirstLinkpathDest(linkpath, sourcePath)?.path;
		return exists ? this.filesByName.resolve(first, linkpath, sourcePath, exists, this.structure) : first;
	}

	backlinks(path: string): Promise<Backlink[]> {
		const candidates = new Set<string>(this.fromText.keys());
		for (const [source, targets] of Object.entries(this.options.metadataCache.resolvedLinks))
			if ((targets[path] ?? 0) > 0) candidates.add(source);
		// Links in properties may be missing from resolvedLinks in older Obsidian versions.
		for (const [source, entry] of this.frontmatter)
			if (entry.detail && entry.detail.links.length > 0) candidates.add(source);
		const backlinks: Backlink[] = [];
		for (const source of [...candidates].sort()) {
			for (const link of this.facts(source)?.links ?? [])
				if (link.target === path) backlinks.push({ source, link });
		}
		return Promise.resolve(backlinks);
	}

	async writeText(path: string, text: string, expected: string): Promise<void> {
		const file = this.noteFile(path);
		if (!file) throw new Error(`${path} is not a note in the vault`);
		await this.options.vault.process(file, (current) => {
			if (current !== expected) throw new NoteChangedError(path);
			return text;
		});
		this.events.markAwaitingIndex(path);
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
		this.events.markAwaitingIndex(path);
	}

	/**
	 * Moves through Obsidian's file manager, which rewrites links as the user's settings say. The report counts the
	 * links whose text changed in each note that linked to the note (and in the note itself), read back from the
	 * files; when a link that led to the note leads elsewhere afterwards (link updating is off in Obsidian's
	 * settings, say), the move is reported as done with those links named.
	 */
	async renameNote(from: string, to: string): Promise<RenameReport> {
		const file = this.noteFile(from);
		if (!file) throw new Error(`${from} is not a note in the vault`);
		if (await this.exists(to)) throw alreadyExists(to);
		// Before and after are read with the same scanner, so the links of a note pair up one to one.
		const before = new Map<string, LinkFact[]>();
		const sources = new Set([from, ...(await this.backlinks(from)).map((backlink) => backlink.source)]);
		for (const source of sources) {
			const sourceFile = this.noteFile(source);
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
			const moved = this.noteFile(now);
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

	private noteFile(path: string): IndexedFile | undefined {
		if (!isNote(path)) return undefined;
		const file = this.options.vault.getAbstractFileByPath(path);
		return file && file.extension !== undefined ? file : undefined;
	}

	private detailFor(path: string, cache: CachedMetadata): FrontmatterDetail | undefined {
		const entry = this.frontmatter.get(path);
		return entry?.cache === cache ? entry.detail : undefined;
	}

	private forget(path: string): void {
		this.fromText.delete(path);
		this.frontmatter.delete(path);
		this.factsCache.delete(path);
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

function isNote(path: string): boolean {
	return path.toLowerCase().endsWith(".md");
}

function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

/** The error `reviewAndWrite` recognises as "created by someone else meanwhile". */
function alreadyExists(path: string): Error {
	return Object.assign(new Error(`${path} already exists`), { code: "EEXIST" });
}
