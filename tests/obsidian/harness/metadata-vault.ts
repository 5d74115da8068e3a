import { Events, MetadataCache, TFile, type EventRef } from "../../__mocks__/obsidian";
import { parseNoteForCache } from "./metadata-parser";

/** obsidian.d.ts `Stat` as `DataAdapter.stat` returns it. */
export interface DiskStat {
	type: "file";
	ctime: number;
	mtime: number;
	size: number;
}

/**
 * The vault folder on disk, behind obsidian.d.ts `DataAdapter` (`stat`, `read`, `exists`): always the truth, ahead
 * of what the vault and the metadata cache know. Every write gets a later mtime from a counter, never the clock.
 */
export class FakeDisk {
	private readonly files = new Map<string, { text: string; mtime: number }>();
	private clock = 1_700_000_000_000;
	/** How many times `read` was called through the adapter (the source's fallback to the disk text). */
	reads = 0;

	write(path: string, text: string): void {
		this.clock += 1000;
		this.files.set(path, { text, mtime: this.clock });
	}
	remove(path: string): void {
		this.files.delete(path);
	}
	paths(): string[] {
		return [...this.files.keys()];
	}
	text(path: string): string | undefined {
		return this.files.get(path)?.text;
	}
	statNow(path: string): DiskStat | null {
		const file = this.files.get(path);
		return file ? { type: "file", ctime: 0, mtime: file.mtime, size: Buffer.byteLength(file.text) } : null;
	}
	stat(path: string): Promise<DiskStat | null> {
		return Promise.resolve(this.statNow(path));
	}
	exists(path: string): Promise<boolean> {
		return Promise.resolve(this.files.has(path));
	}
	read(path: string): Promise<string> {
		this.reads++;
		const file = this.files.get(path);
		return file ? Promise.resolve(file.text) : Promise.reject(new Error(`ENOENT: no such file, open '${path}'`));
	}
}

/**
 * A vault (obsidian.d.ts `Vault`) that learns of the disk through a file watcher the test drives: `writeExternally`
 * changes only the disk (as the Claude Code CLI's own write does); `watcherCatchesUp` is the watcher's event, after
 * which the vault's `TFile` (same object per path, as in Obsidian) has the new `stat` and the vault fires `create`,
 * `modify` or `delete`. `vault.read` reads the disk; `cachedRead` returns the text the vault last saw.
 */
export class DiskBackedVault extends Events {
	readonly adapter: FakeDisk;
	private readonly known = new Map<string, { file: TFile; text: string }>();

	constructor(disk = new FakeDisk()) {
		super();
		this.adapter = disk;
	}

	/** Typed per event in obsidian.d.ts; here any listener's own argument types are accepted. */
	override on(name: string, callback: (...args: never[]) => unknown): EventRef {
		return super.on(name, callback as (...args: unknown[]) => unknown);
	}

	/** Test helper: a note or file that exists on disk and in the vault (a `create` event fires). */
	add(path: string, text: string): void {
		this.adapter.write(path, text);
		this.watcherCatchesUp(path);
	}
	/** Test helper: the disk changes; the vault does not know yet. */
	writeExternally(path: string, text: string): void {
		this.adapter.write(path, text);
	}
	/** Test helper: the disk loses the file; the vault does not know yet. */
	removeExternally(path: string): void {
		this.adapter.remove(path);
	}
	/** Test helper: the file watcher reports `path` (or every path that differs): the vault updates and fires its event. */
	watcherCatchesUp(path?: string): void {
		for (const each of path === undefined ? [...new Set([...this.adapter.paths(), ...this.known.keys()])] : [path])
			this.catchUp(each);
	}

	getFiles(): TFile[] {
		return [...this.known.values()].map((entry) => entry.file);
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((file) => file.path.toLowerCase().endsWith(".md"));
	}
	getFileByPath(path: string): TFile | null {
		return this.known.get(path)?.file ?? null;
	}
	getAbstractFileByPath(path: string): TFile | null {
		return this.getFileByPath(path);
	}
	read(file: TFile): Promise<string> {
		const text = this.adapter.text(file.path);
		return text === undefined
			? Promise.reject(new Error(`ENOENT: no such file, open '${file.path}'`))
			: Promise.resolve(text);
	}
	cachedRead(file: TFile): Promise<string> {
		const entry = this.known.get(file.path);
		return entry ? Promise.resolve(entry.text) : Promise.reject(new Error(`File not in the vault: ${file.path}`));
	}
	/** Test helper: a rename inside Obsidian (disk and vault together), firing `rename` (file, oldPath). */
	rename(oldPath: string, newPath: string): void {
		const entry = this.known.get(oldPath);
		const text = this.adapter.text(oldPath);
		if (!entry || text === undefined) throw new Error(`Nothing to rename at ${oldPath}`);
		this.adapter.remove(oldPath);
		this.adapter.write(newPath, text);
		this.known.delete(oldPath);
		const file = new TFile(newPath);
		file.stat = entry.file.stat;
		this.known.set(newPath, { file, text });
		this.trigger("rename", file, oldPath);
	}

	private catchUp(path: string): void {
		const stat = this.adapter.statNow(path);
		const text = this.adapter.text(path);
		const entry = this.known.get(path);
		if (!stat || text === undefined) {
			if (!entry) return;
			this.known.delete(path);
			this.trigger("delete", entry.file);
			return;
		}
		if (entry && entry.file.stat.mtime === stat.mtime && entry.file.stat.size === stat.size) return;
		const file = entry?.file ?? new TFile(path);
		file.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
		this.known.set(path, { file, text });
		this.trigger(entry ? "modify" : "create", file);
	}
}

/** A vault of notes and a metadata cache indexing it with the fake parser; nothing is parsed until the test says. */
export function createMetadataHarness(notes: Record<string, string> = {}): {
	vault: DiskBackedVault;
	disk: FakeDisk;
	metadataCache: MetadataCache;
} {
	const vault = new DiskBackedVault();
	const metadataCache = new MetadataCache();
	metadataCache.attach(vault, parseNoteForCache);
	for (const [path, text] of Object.entries(notes)) vault.add(path, text);
	return { vault, disk: vault.adapter, metadataCache };
}
