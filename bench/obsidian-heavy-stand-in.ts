/**
 * The test suite's Obsidian stand-in (tests/__mocks__/obsidian.ts) made fit for a 100k-note vault, for
 * bench/obsidian-heavy.ts. The stand-in's behaviours and their sources stay those of the mock; only what costs the
 * mock time that Obsidian does not spend is changed here:
 *
 * - `HeavyVault` keeps its files by path (the same `TFile` per path, as Obsidian's `vault.fileMap` does, updated per
 *   created, deleted or renamed file) instead of making the list, with every file's size counted again, at each
 *   `getFiles()`; `getFiles()` and `getMarkdownFiles()`
 *   still hand out a new array per call (obsidian.d.ts: "Get all files in the vault" / "Get all markdown files",
 *   Obsidian builds them from its file map each time), so a caller that asks per tool call pays for that.
 * - `HeavyVault`'s notes stay on disk (bench/obsidian-heavy-disk.ts), in the folder the bench wrote the vault into:
 *   `read` reads the file without holding the main thread, `cachedRead` keeps only the texts read last, as
 *   Obsidian's renderer does, instead of the mock's map of every note's text (376 MB at 100k in the heap).
 * - The metadata cache is the mock's (obsidian.d.ts `MetadataCache`: `getFileCache`, `resolvedLinks`,
 *   `getFirstLinkpathDest` with the rules of Obsidian's help), indexing as Obsidian does (`HeavyMetadataCache`):
 *   notes are parsed off the main thread, each result a task of its own there (`changed`), and links are resolved
 *   by a queue of their own, in tasks of their own (`resolve` per note, `resolved` when nothing is left). The parse
 *   itself is done before the clock starts (`fillVault`: the worker's share).
 */
import type { CachedMetadata } from "obsidian";
import { setImmediate as nextTask } from "node:timers/promises";
import { App, FileSystemAdapter, MetadataCache, TFile, Vault } from "../tests/__mocks__/obsidian";
import { parseNoteForCache } from "../tests/obsidian/harness/metadata-parser";
import { DiskContents, ReadCache } from "./obsidian-heavy-disk";

export class HeavyVault extends Vault {
	/** The notes on disk (a key per note; each text read from its file when asked). */
	override readonly contents: DiskContents;
	private readonly readCache = new ReadCache();
	/** Every file by path, kept up to date per event as Obsidian's `vault.fileMap` (made once, from the mock's files). */
	private byPath: Map<string, TFile> | undefined;
	private list: TFile[] | undefined;
	private markdown: boolean[] | undefined;

	constructor(adapter: FileSystemAdapter, name: string) {
		super(adapter, name);
		this.contents = new DiskContents(adapter.getBasePath());
	}

	private fileMap(): Map<string, TFile> {
		this.byPath ??= new Map(super.getFiles().map((file) => [file.path, file]));
		return this.byPath;
	}
	override getFiles(): TFile[] {
		this.list ??= [...this.fileMap().values()];
		return [...this.list];
	}
	/** A new array per call as Obsidian's, filtered by a kept flag (Obsidian's `TFile.extension` is a field; the mock's a getter that makes a string). */
	override getMarkdownFiles(): TFile[] {
		this.list ??= [...this.fileMap().values()];
		this.markdown ??= this.list.map((file) => file.extension === "md");
		const markdown = this.markdown;
		return this.list.filter((_, index) => markdown[index]);
	}
	override getFileByPath(path: string): TFile | null {
		return this.fileMap().get(path) ?? null;
	}
	/** obsidian.d.ts `read`: "Read a plaintext file that is stored inside the vault, directly from disk." */
	override read(file: TFile): Promise<string> {
		return this.contents.readAsync(file.path);
	}
	/** obsidian.d.ts `cachedRead`: "from cache if available"; the cache holds the texts read last (`ReadCache`). */
	override async cachedRead(file: TFile): Promise<string> {
		const kept = this.readCache.get(file.path);
		if (kept !== undefined) return kept;
		const text = await this.read(file);
		this.readCache.keep(file.path, text);
		return text;
	}
	override async readBinary(file: TFile): Promise<ArrayBuffer> {
		const bytes = Buffer.from(await this.read(file), "utf8");
		return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
	}
	/**
	 * The file is on disk already (the bench's generator wrote it): the vault learns of it as its file watcher reports
	 * a file (`create`), without writing it again.
	 */
	learnFromDisk(path: string, text: string): void {
		this.contents.onDisk(() => this.writeExternally(path, text));
	}
	/**
	 * A file came, went or moved: the file map takes that one change (obsidian-typings, Vault.d.ts: `fileMap`,
	 * "Mapping of path to Obsidian folder or file structure", which `addChild`/`removeChild` update per file), not a
	 * map of every file made again; the listed arrays are made again at the next call (Obsidian makes them per call).
	 * A modify updates the same `TFile`'s stat. Any change drops the note's text from the `cachedRead` cache.
	 */
	override trigger(name: string, ...data: unknown[]): void {
		const [file, oldPath] = data;
		if (file instanceof TFile) this.readCache.drop(name === "rename" ? String(oldPath) : file.path);
		if (file instanceof TFile && (name === "create" || name === "delete" || name === "rename")) {
			const map = this.byPath;
			if (name !== "create") map?.delete(name === "rename" ? String(oldPath) : file.path);
			if (name !== "delete") map?.set(file.path, file);
			this.list = undefined;
			this.markdown = undefined;
		}
		super.trigger(name, ...data);
	}
}

/**
 * How long the stand-in's link resolver holds the main thread before it lets other tasks run. Obsidian does not
 * document its own figure; the bench prints this one.
 */
export const RESOLVE_SLICE_MS = 5;

/**
 * The metadata cache as Obsidian runs it while it indexes. Sources: obsidian.d.ts (`changed`: "Called when a file
 * has been indexed, and its (updated) cache is now available"; `resolve`: "Called when a file has been resolved
 * for `resolvedLinks` and `unresolvedLinks`. This happens sometimes after a file has been indexed"; `resolved`:
 * "Called when all files has been resolved. This will be fired each time files get modified after the initial
 * load") and the community's typings of Obsidian's internals (github.com/Fevol/obsidian-typings,
 * src/obsidian/augmentations/MetadataCache.d.ts: `worker`, "Web Worker used for parsing metadata in the
 * background"; `workQueue`, "Queue for processing metadata computation tasks sequentially"; `linkResolverQueue`,
 * "Queue of files pending link resolution", an `ItemQueue` whose items a runnable takes through an async
 * generator; `linkResolver()`, "Process the link resolver queue to resolve file links").
 *
 * So: a note parsed by the worker comes back as a message, a task of its own on the main thread, which stores the
 * cache, fires `changed` and queues the note for its links (`takeParsed`); the link resolver takes notes from
 * that queue in tasks of its own (at most `RESOLVE_SLICE_MS` each), fires `resolve` per note, and `resolved` when
 * its queue is empty and no note awaits its parse. The mock's `parsePending` (the tests' whole catch-up in one
 * call) stays as it is.
 */
export class HeavyMetadataCache extends MetadataCache {
	private readonly linkQueue = new Set<string>();
	private resolver: Promise<void> | undefined;

	/** The worker's result for one queued note arrives: its cache is stored and `changed` fires; false when none was queued. */
	takeParsed(path: string, file: TFile, data: string, cache: CachedMetadata): boolean {
		if (!this.pending.delete(path)) return false;
		this.caches.set(path, cache);
		this.parses++;
		this.trigger("changed", file, data, cache);
		this.linkQueue.add(path);
		this.resolver ??= this.resolveQueued().finally(() => (this.resolver = undefined));
		return true;
	}

	/** Settles when the link resolver's queue is empty (after `resolved`, when nothing awaits its parse). */
	async linksResolved(): Promise<void> {
		while (this.resolver) await this.resolver;
	}

	private async resolveQueued(): Promise<void> {
		while (this.linkQueue.size > 0) {
			await nextTask();
			const start = performance.now();
			for (const path of this.linkQueue) {
				this.linkQueue.delete(path);
				const cache = this.caches.get(path);
				if (cache) {
					this.resolveFile(path, cache);
					this.trigger("resolve", this.vault?.getFileByPath?.(path));
				}
				if (performance.now() - start >= RESOLVE_SLICE_MS) break;
			}
		}
		if (this.pending.size === 0) this.trigger("resolved");
	}
}

/** `App` with the `HeavyVault` and the `HeavyMetadataCache`. */
export class HeavyApp extends App {
	override readonly vault: HeavyVault;
	override readonly metadataCache = new HeavyMetadataCache();
	constructor(basePath: string, name: string) {
		super(basePath, name);
		this.vault = new HeavyVault(new FileSystemAdapter(basePath), name);
	}
}

/**
 * Fills the vault with `notes` (the disk's notes, read one at a time: the vault learns of each, the cache has parsed
 * none) and parses each note's cache ahead (Obsidian's workers' share); returns the parsed caches the metadata cache
 * will hand over. Each cache is a structured clone, as a worker's message delivers it (obsidian-typings,
 * MetadataCache.d.ts: `onReceiveMessageFromWorker(message: { data: CachedMetadata })`): no string in it keeps the
 * note's text alive, so no text is held after its note is read.
 */
export function fillVault(app: HeavyApp, notes: Iterable<[string, string]>): Map<string, CachedMetadata> {
	const parsed = new Map<string, CachedMetadata>();
	// The mock's own catch-up (`parsePending`) parses what it reads; the bench hands the made caches over instead.
	app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseNoteForCache);
	for (const [path, text] of notes) {
		parsed.set(path, structuredClone(parseNoteForCache(text)));
		app.vault.learnFromDisk(path, text);
	}
	// The cache's files by name, built now as Obsidian keeps its own (obsidian-typings: `uniqueFileLookup`, "Mapping
	// of filename to collection of files that share the same name", added to as the vault lists each file), not in
	// the first task that resolves a link.
	app.metadataCache.getFirstLinkpathDest("", "");
	// The vault's file map, as Obsidian has it once it has listed the files.
	app.vault.getMarkdownFiles();
	return parsed;
}

/**
 * Obsidian indexes every queued note: the main thread reads each note (obsidian-typings, MetadataCache.d.ts:
 * `computeMetadataAsync(arrayBuffer)`, the file's bytes sent to the worker), the worker's results arrive one per
 * task (the parse was done ahead, in `fillVault`), then the link resolver finishes. Resolves after `resolved`;
 * answers how many notes were handed over.
 */
export async function indexAsObsidian(app: HeavyApp, parsed: ReadonlyMap<string, CachedMetadata>): Promise<number> {
	const cache = app.metadataCache;
	let notes = 0;
	for (const path of [...cache.pending]) {
		const file = app.vault.getFileByPath(path);
		const made = parsed.get(path);
		if (!file || !made) continue;
		const data = await app.vault.read(file);
		await nextTask();
		if (cache.takeParsed(path, file, data, made)) notes++;
	}
	await cache.linksResolved();
	return notes;
}
