import { closeSync, fstatSync, lstatSync, openSync, readFileSync, readdirSync, watch, type FSWatcher, type Stats } from "node:fs";
import { join } from "node:path";
import { VaultFileIndex } from "../notes/vault-file-index";
import { describeError } from "../../shared/describe-error";

/** Notes larger than this are listed and readable but their text is not kept in memory. */
export const MAX_CACHED_NOTE_BYTES = 4 * 1024 * 1024;

export interface FolderNoteStoreOptions {
	root: string;
	/**
	 * true (default): one `fs.watch` per folder marks changed paths, so a refresh touches only those (a recursive
	 * watch costs over a second to set up on 10k files on Linux with Node 20; per-folder watchers do not).
	 * false, or when watching fails: every refresh stats every file.
	 */
	watch?: boolean;
	log?: (message: string) => void;
	/** A note's text changed, or the note appeared or went away. */
	onNoteChanged?: (path: string) => void;
}

interface NoteEntry {
	/** mtime, size and inode when the text was read. */
	stamp?: string;
	text?: string;
}

/**
 * The files of a vault folder and the texts of its notes, kept current file by file. Like Obsidian it skips
 * names that start with a dot; it does not follow symbolic links, so nothing outside the vault is listed.
 */
export class FolderNoteStore {
	readonly files = new VaultFileIndex();
	private readonly notes = new Map<string, NoteEntry>();
	private readonly dirty = new Set<string>();
	private sortedNotes: string[] | undefined;
	private readonly watchers = new Map<string, FSWatcher>();
	private watching: boolean;
	private scanned = false;

	constructor(private readonly options: FolderNoteStoreOptions) {
		this.watching = options.watch ?? true;
	}

	get root(): string {
		return this.options.root;
	}

	/** Changes whenever files are added or removed (link resolution may then change). */
	get structureVersion(): number {
		return this.files.version;
	}

	refresh(): void {
		if (!this.scanned) {
			this.scanned = true;
			this.walk("", (path) => this.addFile(path));
		} else if (this.watching) {
			const paths = [...this.dirty];
			this.dirty.clear();
			for (const path of paths) this.checkPath(path);
		} else {
			this.rescan();
		}
	}

	/** Every note, sorted by path. */
	notePaths(): readonly string[] {
		this.sortedNotes ??= [...this.notes.keys()].sort(comparePaths);
		return this.sortedNotes;
	}

	isNote(path: string): boolean {
		return this.notes.has(path);
	}

	/** The note's text as last read; read now when not cached. Undefined when it is not a note. */
	text(path: string): string | undefined {
		const entry = this.notes.get(path);
		if (!entry) return undefined;
		if (entry.text !== undefined) return entry.text;
		let descriptor: number | undefined;
		try {
			descriptor = openSync(this.absolute(path), "r");
			const stats = fstatSync(descriptor);
			const text = readFileSync(descriptor, "utf8");
			entry.stamp = stampOf(stats);
			if (stats.size <= MAX_CACHED_NOTE_BYTES) entry.text = text;
			return text;
		} catch {
			return undefined;
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
		}
	}

	/** Our own write or rename changed these paths: bring them up to date now rather than on the watch event. */
	touched(...paths: string[]): void {
		for (const path of paths) this.checkPath(path, true);
	}

	absolute(path: string): string {
		return join(this.options.root, ...path.split("/"));
	}

	dispose(): void {
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
	}

	/** Watches one folder (not recursively): a change marks `folder/name` dirty. */
	private watchFolder(folder: string): void {
		if (!this.watching || this.watchers.has(folder)) return;
		try {
			const watcher = watch(folder === "" ? this.options.root : this.absolute(folder), { persistent: false }, (_event, filename) => {
				if (filename === null) this.stopWatching("a change event without a file name");
				else this.dirty.add(folder === "" ? filename : `${folder}/${filename}`);
			});
			watcher.on("error", () => {
				// The folder went away (or was renamed): its parent's watcher reports that; forget this one.
				watcher.close();
				this.watchers.delete(folder);
			});
			this.watchers.set(folder, watcher);
		} catch (error) {
			this.stopWatching(describeError(error));
		}
	}

	private stopWatching(reason: string): void {
		if (!this.watching) return;
		this.options.log?.(`Vault tools: not watching the vault (${reason}); checking files on each call instead`);
		this.dispose();
		this.watching = false;
		this.dirty.clear();
	}

	/** Brings one path (file or folder, present or gone) up to date. */
	private checkPath(path: string, force = false): void {
		if (path.split("/").some((part) => part.startsWith("."))) return;
		const stats = this.stat(path);
		if (!stats) {
			if (this.files.has(path)) return this.removeFile(path);
			const prefix = `${path}/`;
			for (const [folder, watcher] of this.watchers) {
				if (folder === path || folder.startsWith(prefix)) {
					watcher.close();
					this.watchers.delete(folder);
				}
			}
			for (const known of [...this.files.paths()]) if (known.startsWith(prefix)) this.removeFile(known);
		} else if (stats.isDirectory()) {
			this.walk(path, (file) => this.addFile(file));
		} else if (stats.isFile()) {
			this.addFile(path);
			const entry = this.notes.get(path);
			if (entry && (force || (entry.stamp !== undefined && entry.stamp !== stampOf(stats)))) this.forget(path, entry);
		}
	}

	private rescan(): void {
		const present = new Set<string>();
		this.walk("", (path) => {
			present.add(path);
			this.addFile(path);
		});
		for (const path of [...this.files.paths()]) if (!present.has(path)) this.removeFile(path);
		for (const [path, entry] of this.notes) {
			if (entry.stamp === undefined) continue;
			const stats = this.stat(path);
			if (!stats || stampOf(stats) !== entry.stamp) this.forget(path, entry);
		}
	}

	private forget(path: string, entry: NoteEntry): void {
		entry.stamp = undefined;
		entry.text = undefined;
		this.options.onNoteChanged?.(path);
	}

	private addFile(path: string): void {
		this.files.add(path);
		if (path.toLowerCase().endsWith(".md") && !this.notes.has(path)) {
			this.notes.set(path, {});
			this.sortedNotes = undefined;
			this.options.onNoteChanged?.(path);
		}
	}

	private removeFile(path: string): void {
		this.files.remove(path);
		if (this.notes.delete(path)) {
			this.sortedNotes = undefined;
			this.options.onNoteChanged?.(path);
		}
	}

	private stat(path: string): Stats | undefined {
		try {
			return lstatSync(this.absolute(path));
		} catch {
			return undefined;
		}
	}

	private walk(folder: string, onFile: (path: string) => void): void {
		this.watchFolder(folder);
		let entries;
		try {
			entries = readdirSync(folder === "" ? this.options.root : this.absolute(folder), { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			if (entry.name.startsWith(".")) continue;
			const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
			if (entry.isDirectory()) this.walk(path, onFile);
			else if (entry.isFile()) onFile(path);
		}
	}
}

function stampOf(stats: Stats): string {
	return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

/** Code-unit order: stable across platforms and locales, so paging is deterministic. */
export function comparePaths(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
