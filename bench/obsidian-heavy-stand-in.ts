/**
 * The test suite's Obsidian stand-in (tests/__mocks__/obsidian.ts) made fit for a 100k-note vault, for
 * bench/obsidian-heavy.ts. The stand-in's behaviours and their sources stay those of the mock; only what costs the
 * mock time that Obsidian does not spend is changed here:
 *
 * - `HeavyVault` keeps its list of files (the same `TFile` per path, as Obsidian's `vault.fileMap` does) instead of
 *   making it, with every file's size counted again, at each `getFiles()`; `getFiles()` and `getMarkdownFiles()`
 *   still hand out a new array per call (obsidian.d.ts: "Get all files in the vault" / "Get all markdown files",
 *   Obsidian builds them from its file map each time), so a caller that asks per tool call pays for that.
 * - The metadata cache is the mock's (obsidian.d.ts `MetadataCache`: `getFileCache`, `resolvedLinks`,
 *   `getFirstLinkpathDest` with the rules of Obsidian's help, `changed` per note, `resolve`, then `resolved` when
 *   the queue is empty). Obsidian parses notes off the main thread (in web workers) and hands the results to the
 *   main thread, which stores them, resolves the links and fires `changed`; here the parse is done before the
 *   clock starts (`preParse`) and `indexInBatches` hands the results over a batch per task, with a turn of the event
 *   loop between batches. How many notes Obsidian hands over per task is not documented; the batch size is the
 *   stand-in's choice and the bench says it.
 */
import type { CachedMetadata } from "obsidian";
import { App, FileSystemAdapter, MetadataCache, TFile, Vault } from "../tests/__mocks__/obsidian";
import { parseNoteForCache } from "../tests/obsidian/harness/metadata-parser";

export class HeavyVault extends Vault {
	private list: TFile[] | undefined;
	private byPath: Map<string, TFile> | undefined;

	override getFiles(): TFile[] {
		this.list ??= super.getFiles();
		return [...this.list];
	}
	override getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((file) => file.extension === "md");
	}
	override getFileByPath(path: string): TFile | null {
		if (!this.list) this.getFiles();
		this.byPath ??= new Map((this.list ?? []).map((file) => [file.path, file]));
		return this.byPath.get(path) ?? null;
	}
	override read(file: TFile): Promise<string> {
		const text = this.contents.get(file.path);
		return text === undefined
			? Promise.reject(new Error(`ENOENT: no such file, open '${file.path}'`))
			: Promise.resolve(text);
	}
	override cachedRead(file: TFile): Promise<string> {
		return this.read(file);
	}
	/** A file came, went or moved: the list is made again (a modify updates the same `TFile`'s stat). */
	override trigger(name: string, ...data: unknown[]): void {
		if (name === "create" || name === "delete" || name === "rename") {
			this.list = undefined;
			this.byPath = undefined;
		}
		super.trigger(name, ...data);
	}
}

/** `App` with the `HeavyVault`. */
export class HeavyApp extends App {
	override readonly vault: HeavyVault;
	constructor(basePath: string, name: string) {
		super(basePath, name);
		this.vault = new HeavyVault(new FileSystemAdapter(basePath), name);
	}
}

/**
 * Fills the vault with `notes` (the disk's notes: the vault knows them, the cache has parsed none) and parses each
 * note's cache ahead (Obsidian's workers' share); returns the parsed caches the metadata cache will hand over.
 */
export function fillVault(app: HeavyApp, notes: ReadonlyMap<string, string>): Map<string, CachedMetadata> {
	const parsed = new Map<string, CachedMetadata>();
	const texts = new Map<string, string>();
	for (const [path, text] of notes) {
		parsed.set(path, parseNoteForCache(text));
		texts.set(text, path);
	}
	// The parser hands back the cache made ahead for the text it is given (the note's text at parse time).
	app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], (text) => {
		const path = texts.get(text);
		return (path === undefined ? undefined : parsed.get(path)) ?? parseNoteForCache(text);
	});
	for (const [path, text] of notes) app.vault.writeExternally(path, text);
	return parsed;
}

/** The metadata cache catches up with every queued note, `batch` notes per task; resolves after `resolved`. */
export async function indexInBatches(cache: MetadataCache, batch: number): Promise<{ batches: number }> {
	const queued = [...cache.pending];
	let batches = 0;
	for (let start = 0; start < queued.length; start += batch) {
		await cache.parsePending(queued.slice(start, start + batch));
		batches++;
		await new Promise((resolve) => setTimeout(resolve, 0));
	}
	return { batches };
}
