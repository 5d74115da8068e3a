import { Component, normalizePath, resolveSubpath, type CachedMetadata } from "obsidian";
import type { YamlCodec } from "../../shared/yaml-codec";
import type { NoteFacts } from "../../vault/markdown/note-model";
import type { DiagnosticsNotes, WorkPace } from "../../vault/notes/notes";
import { ShardedMap } from "../../shared/sharded-map";
import { factsFromCache } from "./cache-facts";
import {
	isNotePath,
	ObsidianNoteStore,
	type FileStamp,
	type NoteFile,
	type NoteStoreMetadataCache,
	type NoteStoreVault,
} from "./obsidian-note-store";

export type { FileStamp, NoteFile } from "./obsidian-note-store";

/** The parts of `app.vault` the diagnostics read besides the store's: `adapter` reads the disk itself, ahead of the vault's file watcher. */
export interface NotesVault extends NoteStoreVault {
	adapter: {
		stat(normalizedPath: string): Promise<FileStamp | null>;
		read(normalizedPath: string): Promise<string>;
	};
}

/** Timers, a monotonic clock and a way to let the main thread breathe; the window's by default, a test's own in tests. */
export interface SourceScheduler {
	setTimeout(callback: () => void, ms: number): number;
	clearTimeout(id: number): void;
	/** Milliseconds, as `performance.now()`. */
	now(): number;
	/** Resolves after other queued work (input, rendering) had its turn. */
	yieldToMain(): Promise<void>;
}

export interface ObsidianDiagnosticsNotesOptions {
	vault: NotesVault;
	metadataCache: NoteStoreMetadataCache;
	/** Obsidian's YAML (`obsidianYamlCodec`). */
	yaml: YamlCodec;
	/**
	 * How long one call waits for Obsidian to index notes that changed on disk before reading their text itself.
	 * The CLI gives a single-note call 500 ms in all; default 200.
	 */
	indexWaitMs?: number;
	/** Longest stretch of work between two yields while building every note's metadata; default 10 ms. */
	sliceMs?: number;
	scheduler?: SourceScheduler;
	/** The plugin's one note store (shared with the vault tools); one of its own when absent. */
	store?: ObsidianNoteStore;
}

/** How many notes the CLI asked about are re-checked against the disk on whole-vault calls, and how many changed notes. */
const RECHECKED_NOTES = 64;
const DEFAULT_INDEX_WAIT_MS = 200;
const DEFAULT_SLICE_MS = 10;

const windowScheduler: SourceScheduler = {
	setTimeout: (callback, ms) => window.setTimeout(callback, ms),
	clearTimeout: (id) => window.clearTimeout(id),
	now: () => performance.now(),
	yieldToMain: () => new Promise((resolve) => window.setTimeout(resolve, 0)),
};

/**
 * Feeds the diagnostics engine from the plugin's note store (`ObsidianNoteStore`, over Obsidian's metadata cache):
 * links, headings, block ids and code sections come from `getFileCache`, link resolution from
 * `getFirstLinkpathDest`, heading and block matching from `resolveSubpath`. Only the frontmatter check needs the
 * note's text; the store reads it with each `changed` event.
 *
 * Before answering about a note the source compares the disk's mtime and size with those of the version Obsidian
 * indexed; when they differ it waits (bounded) for the note's `changed` event, and failing that reads the disk into
 * the store, whose shared scanner makes its model. Notes it could not check are named in `indexingNotice`.
 */
export class ObsidianDiagnosticsNotes extends Component implements DiagnosticsNotes {
	/** Each note's model from its cache entry, kept until the store says the note changed (the engine caches per object). */
	private readonly notes = new ShardedMap<NoteFacts>();
	/** Notes whose frontmatter must be checked from their text before the next answer. */
	private readonly needText = new Set<string>();
	private readonly store: ObsidianNoteStore;
	/** Notes with no cache entry when last looked at: not indexed yet, and not checked. */
	private readonly unindexed = new Set<string>();
	/** The notes the CLI asked about most recently (its baselines), re-checked on whole-vault calls. */
	private readonly asked = new Set<string>();
	private readonly waiters = new Map<string, Set<() => void>>();
	private readonly scheduler: SourceScheduler;
	private warming: Promise<void> | undefined;

	constructor(private readonly options: ObsidianDiagnosticsNotesOptions) {
		super();
		this.scheduler = options.scheduler ?? windowScheduler;
		this.store =
			options.store ?? new ObsidianNoteStore(options.vault, options.metadataCache, { yaml: options.yaml });
	}

	override onload(): void {
		if (!this.options.store) this.addChild(this.store);
		this.register(
			this.store.listen({
				noteChanged: (path) => {
					this.notes.delete(path);
					this.needText.delete(path);
					this.unindexed.delete(path);
				},
				parsed: (path) => {
					const waiting = this.waiters.get(path);
					this.waiters.delete(path);
					waiting?.forEach((wake) => wake());
				},
			}),
		);
	}

	override onunload(): void {
		for (const waiting of this.waiters.values()) waiting.forEach((wake) => wake());
		this.waiters.clear();
	}

	get structureVersion(): number {
		return this.store.structureVersion;
	}

	/** The engine's whole-vault pass yields as often as the metadata build does. */
	get pace(): WorkPace {
		const scheduler = this.scheduler;
		return {
			sliceMs: this.options.sliceMs ?? DEFAULT_SLICE_MS,
			now: () => scheduler.now(),
			yieldToMain: () => scheduler.yieldToMain(),
		};
	}

	/**
	 * Builds every note's metadata once (at the first whole-vault call), in slices of at most `sliceMs` with a yield between
	 * them so a large vault never blocks the main thread for long; afterwards re-checks the notes the CLI asked about
	 * and those awaiting indexing, and reads the frontmatter Obsidian could not parse.
	 */
	async refresh(): Promise<void> {
		this.warming ??= this.buildAll();
		await this.warming;
		await this.ensureFresh(
			[...new Set([...this.asked, ...this.store.awaitingIndex()])].slice(0, RECHECKED_NOTES * 2),
		);
		const paths = [...this.needText];
		this.needText.clear();
		await Promise.all(paths.map((path) => this.checkText(path)));
	}

	async refreshNote(path: string): Promise<void> {
		const key = normalizePath(path);
		this.asked.delete(key);
		this.asked.add(key);
		if (this.asked.size > RECHECKED_NOTES) this.asked.delete(this.asked.values().next().value ?? "");
		await this.ensureFresh([key]);
		this.facts(key);
		if (this.needText.delete(key)) await this.checkText(key);
	}

	*notePaths(): Iterable<string> {
		yield* this.store.notePaths();
		// Notes the CLI just created: on disk and checked, not yet in the vault.
		for (const path of this.store.readPaths()) if (!this.file(path)) yield path;
	}

	/** A note's metadata; undefined for non-notes and for notes Obsidian has not indexed (see `indexingNotice`). */
	facts(path: string): NoteFacts | undefined {
		const read = this.store.unindexedRead(path);
		if (read) return read.facts();
		const known = this.notes.get(path);
		if (known) return known;
		const normalized = normalizePath(path);
		if (normalized !== path) return this.facts(normalized);
		const file = this.file(path);
		if (!file || file.extension !== "md") return undefined;
		const cache = this.cache(file);
		if (!cache) {
			this.unindexed.add(path);
			return undefined;
		}
		this.unindexed.delete(path);
		const metadata = factsFromCache(path, cache, undefined);
		const frontmatter = this.store.indexedReading(path);
		if (frontmatter?.problem) metadata.frontmatterProblem = frontmatter.problem;
		else if (!frontmatter && frontmatterDidNotParse(cache)) this.needText.add(path);
		this.notes.set(path, metadata);
		return metadata;
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		if (linkpath === "") return (exists?.(sourcePath) ?? true) ? sourcePath : undefined;
		const target = this.store.linkDestination(linkpath, sourcePath, exists);
		// Gone from the disk (checked), though the vault has not noticed yet: the link leads nowhere.
		if (target !== undefined && this.store.unindexedRead(target)?.stamp === null) return undefined;
		if (target !== undefined) return target;
		const onlyOnDisk = this.noteOnlyOnDisk(linkpath);
		return onlyOnDisk !== undefined && (exists?.(onlyOnDisk) ?? true) ? onlyOnDisk : undefined;
	}

	/** Obsidian's own matcher (`resolveSubpath`) on its cache; undefined (the core's matcher decides) for notes read from disk. */
	hasSubpath(targetPath: string, subpath: string): boolean | undefined {
		if (this.store.unindexedRead(targetPath)) return undefined;
		const file = this.file(targetPath);
		const cache = file ? this.cache(file) : null;
		return cache ? resolveSubpath(cache, `#${subpath}`) !== null : undefined;
	}

	/**
	 * Says when an answer is not all from Obsidian's index: notes it has not indexed, or checked from the disk instead.
	 * It names no note (the answer may go to the model; private notes must not show up even by name), only counts.
	 */
	indexingNotice(path?: string): string | undefined {
		if (path !== undefined) {
			const key = normalizePath(path);
			if (this.store.unindexedRead(key)) {
				return "Obsidian had not finished indexing this note (it changed on disk moments ago), so it was checked from its text on disk by the bridge's own Markdown reader.";
			}
			if (this.unindexed.has(key))
				return "Obsidian has not indexed this note yet and its text could not be read: it was not checked.";
			return undefined;
		}
		const parts: string[] = [];
		if (this.unindexed.size > 0) {
			parts.push(
				`Obsidian has not finished indexing the vault: ${countOf(this.unindexed.size, "note")} not indexed yet ${this.unindexed.size === 1 ? "was" : "were"} not checked; ask again in a moment.`,
			);
		}
		const waiting = [...this.store.awaitingIndex()].filter((key) => !this.store.unindexedRead(key)).length;
		if (waiting > 0)
			parts.push(
				`${countOf(waiting, "note")} changed on disk and not re-indexed by Obsidian yet may show outdated diagnostics.`,
			);
		const read = [...this.store.readPaths()].length;
		if (read > 0)
			parts.push(
				`${countOf(read, "note")} not yet re-indexed by Obsidian ${read === 1 ? "was" : "were"} checked from the text on disk.`,
			);
		return parts.length > 0 ? parts.join(" ") : undefined;
	}

	/**
	 * Each step a task of its own at 100k notes: after the one that asked (the first whole-vault `getDiagnostics`), the vault's list
	 * (`getMarkdownFiles`), the list with the notes only on disk, then the slices.
	 */
	private async buildAll(): Promise<void> {
		const scheduler = this.scheduler;
		await scheduler.yieldToMain();
		this.store.notePaths();
		await scheduler.yieldToMain();
		const paths = [...this.notePaths()];
		await scheduler.yieldToMain();
		const sliceMs = this.options.sliceMs ?? DEFAULT_SLICE_MS;
		let next = 0;
		while (next < paths.length) {
			const start = scheduler.now();
			do this.facts(paths[next++] ?? "");
			while (next < paths.length && scheduler.now() - start < sliceMs);
			if (next < paths.length) await scheduler.yieldToMain();
		}
	}

	/**
	 * Makes the given notes' metadata match the disk: the cache when Obsidian indexed the version on disk; else, after
	 * waiting up to `indexWaitMs` (one deadline for all) for their `changed` events, the text on disk, scanned here.
	 */
	private async ensureFresh(paths: readonly string[]): Promise<void> {
		if (paths.length === 0) return;
		const deadline = this.scheduler.now() + (this.options.indexWaitMs ?? DEFAULT_INDEX_WAIT_MS);
		await Promise.all(paths.filter(isNotePath).map((path) => this.ensureFreshNote(path, deadline)));
	}

	private async ensureFreshNote(path: string, deadline: number): Promise<void> {
		const disk = await this.statOnDisk(path);
		// The disk could not be asked: the cache is all there is.
		if (disk === undefined) return;
		if (disk === null) {
			// Gone from the disk: nothing to report, whatever the vault still lists.
			if (this.file(path)) this.store.keepRead(path, null, undefined);
			else this.store.dropRead(path);
			return;
		}
		if (this.indexedVersionIs(path, disk)) return;
		const ours = this.store.unindexedRead(path);
		if (ours?.stamp && sameStamp(ours.stamp, disk)) return;
		if ((await this.changedBefore(path, deadline)) && this.indexedVersionIs(path, disk)) return;
		try {
			this.store.keepRead(path, disk, await this.options.vault.adapter.read(path));
		} catch {
			// Unreadable right now: it stays unchecked, and indexingNotice says so.
			this.store.dropRead(path);
			if (!this.facts(path)) this.unindexed.add(path);
		}
	}

	/**
	 * A note the CLI created and the source checked from the disk before the vault listed it: Obsidian cannot resolve
	 * links to it yet, but will in a moment. Matched by path or name, case-insensitively, `.md` optional.
	 */
	private noteOnlyOnDisk(linkpath: string): string | undefined {
		const wanted = linkpath.toLowerCase().replace(/\.md$/, "");
		for (const path of this.store.readPaths()) {
			if (this.file(path)) continue;
			const key = path.toLowerCase().slice(0, -3);
			if (key === wanted || key.endsWith(`/${wanted}`)) return path;
		}
		return undefined;
	}

	/** Whether the cache holds the version of the note whose stamp is on disk now. */
	private indexedVersionIs(path: string, disk: FileStamp): boolean {
		const file = this.file(path);
		if (!file || this.store.isAwaitingIndex(path) || !this.cache(file)) return false;
		// Before its first `changed` event since load, a note's cache is taken to match the vault's view of the file.
		if (!sameStamp(this.store.indexedStamp(file), disk)) return false;
		this.store.dropRead(path);
		return true;
	}

	/** Resolves true when the note's `changed` event comes before the deadline, false otherwise. */
	private changedBefore(path: string, deadline: number): Promise<boolean> {
		const remaining = deadline - this.scheduler.now();
		if (remaining <= 0) return Promise.resolve(false);
		return new Promise((resolve) => {
			const waiting = this.waiters.get(path) ?? new Set<() => void>();
			this.waiters.set(path, waiting);
			const wake = (): void => {
				this.scheduler.clearTimeout(timer);
				resolve(true);
			};
			const timer = this.scheduler.setTimeout(() => {
				waiting.delete(wake);
				resolve(false);
			}, remaining);
			waiting.add(wake);
		});
	}

	/** The file's stamp on disk; null when it is not there, undefined when the disk could not be asked. */
	private async statOnDisk(path: string): Promise<FileStamp | null | undefined> {
		try {
			const stat = await this.options.vault.adapter.stat(path);
			return stat ? { mtime: stat.mtime, size: stat.size } : null;
		} catch {
			return undefined;
		}
	}

	private file(path: string): NoteFile | null {
		return this.options.vault.getFileByPath(path);
	}

	private cache(file: NoteFile): CachedMetadata | null {
		return this.options.metadataCache.getFileCache(file);
	}

	private async checkText(path: string): Promise<void> {
		const file = this.file(path);
		const cache = file ? this.cache(file) : null;
		if (!file || !cache) return;
		try {
			await this.store.readIndexedText(file, cache);
		} catch {
			// Unreadable now; a later change event brings the text.
		}
	}
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
	return a.mtime === b.mtime && a.size === b.size;
}

function countOf(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Obsidian found a frontmatter block (it records its position) but produced no properties from it. */
function frontmatterDidNotParse(cache: CachedMetadata): boolean {
	return (
		cache.frontmatter === undefined &&
		(cache.frontmatterPosition !== undefined || cache.sections?.[0]?.type === "yaml")
	);
}
