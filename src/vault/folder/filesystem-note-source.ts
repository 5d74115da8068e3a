import { lstatSync, readFileSync, readdirSync, realpathSync, watch, type FSWatcher, type Stats } from "node:fs";
import { join, sep } from "node:path";
import { describeError } from "../../shared/describe-error";
import type { YamlParser } from "../markdown/frontmatter-check";
import { scanNote } from "../markdown/markdown-scanner";
import type { NoteMetadata } from "../markdown/note-metadata";
import type { NoteSource } from "../notes/note-source";
import { VaultFileIndex } from "../notes/vault-file-index";

/** Notes larger than this are listed (links to them resolve) but not scanned: their diagnostics are not computed. */
export const MAX_SCANNED_NOTE_BYTES = 4 * 1024 * 1024;

export interface FileSystemNoteSourceOptions {
	/** The vault folder. */
	root: string;
	parseYaml: YamlParser;
	/**
	 * true (default): a recursive `fs.watch` marks changed paths, so a refresh touches only those.
	 * false, or when watching fails: every refresh stats every file (about 20 ms per 10k files).
	 */
	watch?: boolean;
	log?: (message: string) => void;
}

interface NoteEntry {
	/** mtime and size when the metadata was read; undefined until first read. */
	stamp?: string;
	metadata?: NoteMetadata;
}

/**
 * Notes of a folder on disk, for the headless host. Like Obsidian it skips files and folders whose names start
 * with a dot; unlike Obsidian it does not follow symbolic links. Metadata is scanned lazily and kept until the
 * file's mtime or size changes.
 */
export class FileSystemNoteSource implements NoteSource {
	private readonly index = new VaultFileIndex();
	private readonly notes = new Map<string, NoteEntry>();
	private readonly dirty = new Set<string>();
	private watcher: FSWatcher | undefined;
	private watching: boolean;
	private scanned = false;
	private realRoot: string | undefined;
	/** Folders the walk went into (never through a symbolic link): paths in them need no realpath check. */
	private readonly realFolders = new Set<string>();

	constructor(private readonly options: FileSystemNoteSourceOptions) {
		this.watching = options.watch ?? true;
	}

	get structureVersion(): number {
		return this.index.version;
	}

	/** Lists the folder and starts watching it now rather than on the first call. */
	warmUp(): void {
		this.ensureScanned();
	}

	refresh(): Promise<void> {
		if (!this.ensureScanned()) {
			if (this.watching) this.applyDirtyPaths();
			else this.rescan();
		}
		return Promise.resolve();
	}

	async refreshNote(path: string): Promise<void> {
		await this.refresh();
		this.checkPath(path);
	}

	notePaths(): Iterable<string> {
		return this.notes.keys();
	}

	metadata(path: string): NoteMetadata | undefined {
		const entry = this.notes.get(path);
		if (!entry) return undefined;
		if (!entry.metadata) this.read(path, entry);
		return entry.metadata;
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		return this.index.resolve(linkpath, sourcePath, exists);
	}

	dispose(): void {
		this.watcher?.close();
		this.watcher = undefined;
	}

	/** The first time: watch, then list everything. Returns false when that was already done. */
	private ensureScanned(): boolean {
		if (this.scanned) return false;
		this.scanned = true;
		if (this.watching) this.startWatching();
		this.walk("", (path) => this.addFile(path));
		return true;
	}

	private startWatching(): void {
		try {
			this.watcher = watch(this.options.root, { recursive: true, persistent: false }, (_event, filename) => {
				if (filename === null) this.stopWatching("a change event without a file name");
				else this.dirty.add(filename.split(sep).join("/"));
			});
			this.watcher.on("error", (error) => this.stopWatching(error.message));
		} catch (error) {
			this.stopWatching(describeError(error));
		}
	}

	/** Falls back to checking every file on each refresh, starting with a full one. */
	private stopWatching(reason: string): void {
		this.options.log?.(`Diagnostics: not watching the vault (${reason}); checking files on each call instead`);
		this.dispose();
		this.watching = false;
		this.dirty.clear();
	}

	private applyDirtyPaths(): void {
		const paths = [...this.dirty];
		this.dirty.clear();
		for (const path of paths) this.checkPath(path);
	}

	/** Brings one path (file or folder, present or gone) up to date. */
	private checkPath(path: string): void {
		if (isHidden(path)) return;
		const stats = this.stat(path);
		// Like the walk, never through a symbolic link: `pub/x.md` with `pub -> Secret` is another name for a note
		// the index holds (or must not hold) under its real path, and privacy is judged on the path it is listed by.
		if (!stats?.isDirectory()) this.forgetRealFolder(path);
		if (stats && this.throughSymbolicLink(path)) return;
		if (!stats) {
			if (this.index.has(path)) return this.removeFile(path);
			// A folder that was removed or renamed away: forget everything under it.
			const prefix = `${path}/`;
			for (const known of [...this.index.paths()]) if (known.startsWith(prefix)) this.removeFile(known);
		} else if (stats.isDirectory()) {
			this.walk(path, (file) => this.addFile(file));
		} else if (stats.isFile()) {
			this.addFile(path);
			const entry = this.notes.get(path);
			if (entry?.stamp !== undefined && entry.stamp !== stampOf(stats)) this.notes.set(path, {});
		}
	}

	/** Without a watcher: list the folder again and re-read notes whose mtime or size changed. */
	private rescan(): void {
		const present = new Set<string>();
		// Rebuilt by the walk: a folder replaced by a symbolic link since the last walk is not trusted.
		this.realFolders.clear();
		this.walk("", (path) => {
			present.add(path);
			this.addFile(path);
		});
		for (const path of [...this.index.paths()]) if (!present.has(path)) this.removeFile(path);
		for (const [path, entry] of this.notes) {
			if (entry.stamp === undefined) continue;
			const stats = this.stat(path);
			if (!stats || stampOf(stats) !== entry.stamp) this.notes.set(path, {});
		}
	}

	private addFile(path: string): void {
		this.index.add(path);
		if (isNote(path) && !this.notes.has(path)) this.notes.set(path, {});
	}

	private removeFile(path: string): void {
		this.index.remove(path);
		this.notes.delete(path);
	}

	private read(path: string, entry: NoteEntry): void {
		const absolute = join(this.options.root, ...path.split("/"));
		try {
			const stats = lstatSync(absolute);
			entry.stamp = stampOf(stats);
			const text = stats.size > MAX_SCANNED_NOTE_BYTES ? "" : readFileSync(absolute, "utf8");
			entry.metadata = scanNote(path, text, this.options.parseYaml);
		} catch {
			// Gone or unreadable since it was listed: it has nothing to report.
			entry.metadata = { path, links: [], headings: [], blockIds: [], codeRanges: [] };
		}
	}

	/** Whether a folder on the way to `path` is a symbolic link (the path's own last part is judged by lstat). */
	private throughSymbolicLink(path: string): boolean {
		const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
		if (folder === "" || this.realFolders.has(folder)) return false;
		this.realRoot ??= safeRealpath(this.options.root) ?? this.options.root;
		return safeRealpath(join(this.options.root, ...folder.split("/"))) !== join(this.realRoot, ...folder.split("/"));
	}

	private forgetRealFolder(path: string): void {
		if (!this.realFolders.delete(path)) return;
		for (const folder of [...this.realFolders]) if (folder.startsWith(`${path}/`)) this.realFolders.delete(folder);
	}

	private stat(path: string): Stats | undefined {
		try {
			return lstatSync(join(this.options.root, ...path.split("/")));
		} catch {
			return undefined;
		}
	}

	/** Calls `onFile` with the vault path of every regular file under `folder`, skipping hidden names and symlinks. */
	private walk(folder: string, onFile: (path: string) => void): void {
		let entries;
		try {
			entries = readdirSync(folder === "" ? this.options.root : join(this.options.root, ...folder.split("/")), { withFileTypes: true });
		} catch {
			return;
		}
		if (folder !== "") this.realFolders.add(folder);
		for (const entry of entries) {
			if (entry.name.startsWith(".")) continue;
			const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
			if (entry.isDirectory()) this.walk(path, onFile);
			else if (entry.isFile()) onFile(path);
		}
	}
}

function safeRealpath(path: string): string | undefined {
	try {
		return realpathSync.native(path);
	} catch {
		return undefined;
	}
}

function isNote(path: string): boolean {
	return path.toLowerCase().endsWith(".md");
}

function isHidden(path: string): boolean {
	return path.split("/").some((part) => part.startsWith("."));
}

function stampOf(stats: Stats): string {
	return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}
