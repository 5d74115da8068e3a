/**
 * The heavy stand-in's disk: the notes stay in the vault's folder, not in the heap. Obsidian's renderer does not hold
 * every note's text: obsidian.d.ts `read` reads "the content of a plain text file stored inside the vault" from the
 * disk (through its adapter) and `cachedRead` answers "from cache if available", a cache bounded in bytes (the
 * community's typings of Obsidian's internals, github.com/Fevol/obsidian-typings, Vault.d.ts: `cacheLimit`, "Max size
 * of the cache in bytes", and `setFileCacheLimit`). The mock's vault (tests/__mocks__/obsidian.ts) keeps its notes
 * in a map of path → text; `DiskContents` is that map with each text on disk instead.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * The mock vault's `contents` (path → text) whose texts live in files under `root`: a key per note, each text read
 * from its file when asked. `set` writes the file unless the vault is learning of files already on disk (`onDisk`).
 */
export class DiskContents extends Map<string, string> {
	private adopting = false;

	constructor(readonly root: string) {
		super();
	}

	private at(path: string): string {
		return join(this.root, path);
	}

	override get(path: string): string | undefined {
		return super.has(path) ? readFileSync(this.at(path), "utf8") : undefined;
	}

	/** The text of a note, read without holding the main thread (the vault's `read`); rejects for a note not here. */
	async readAsync(path: string): Promise<string> {
		if (!super.has(path)) throw new Error(`ENOENT: no such file, open '${path}'`);
		return readFile(this.at(path), "utf8");
	}

	override set(path: string, text: string): this {
		if (!this.adopting) {
			mkdirSync(dirname(this.at(path)), { recursive: true });
			writeFileSync(this.at(path), text);
		}
		return super.set(path, "");
	}

	override delete(path: string): boolean {
		if (super.has(path)) rmSync(this.at(path), { force: true });
		return super.delete(path);
	}

	/** Runs `learn` while every `set` only records a note the disk already holds (the generator wrote it). */
	onDisk(learn: () => void): void {
		this.adopting = true;
		try {
			learn();
		} finally {
			this.adopting = false;
		}
	}

	override *entries(): MapIterator<[string, string]> {
		for (const path of super.keys()) yield [path, this.get(path) ?? ""];
	}
	override *values(): MapIterator<string> {
		for (const path of super.keys()) yield this.get(path) ?? "";
	}
	override [Symbol.iterator](): MapIterator<[string, string]> {
		return this.entries();
	}
	override forEach(callback: (text: string, path: string, map: Map<string, string>) => void): void {
		for (const [path, text] of this.entries()) callback(text, path, this);
	}
}

/**
 * How many bytes of recently read texts `cachedRead` keeps. Obsidian's own default is not documented (its vault has
 * a `cacheLimit` in bytes); this is the stand-in's choice, a few hundred average notes of the heavy vault (3.8 kB).
 */
export const READ_CACHE_BYTES = 1 << 20;

/** The texts `cachedRead` read last, up to `READ_CACHE_BYTES` (UTF-16 length as the measure); a change drops its note. */
export class ReadCache {
	private readonly texts = new Map<string, string>();
	private size = 0;

	get(path: string): string | undefined {
		const text = this.texts.get(path);
		if (text !== undefined) {
			// The most recently used last: a Map iterates in insertion order.
			this.texts.delete(path);
			this.texts.set(path, text);
		}
		return text;
	}

	keep(path: string, text: string): void {
		this.drop(path);
		if (text.length > READ_CACHE_BYTES) return;
		this.texts.set(path, text);
		this.size += text.length;
		for (const [oldest, old] of this.texts) {
			if (this.size <= READ_CACHE_BYTES) break;
			this.texts.delete(oldest);
			this.size -= old.length;
		}
	}

	drop(path: string): void {
		const text = this.texts.get(path);
		if (text === undefined) return;
		this.texts.delete(path);
		this.size -= text.length;
	}
}
