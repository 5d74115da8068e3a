import {
	closeSync,
	fstatSync,
	lstatSync,
	openSync,
	readFileSync,
	readSync,
	readdirSync,
	realpathSync,
	watch,
	type FSWatcher,
	type Stats,
} from "node:fs";
import { join, sep } from "node:path";
import { FolderLinkResolver } from "./folder-link-resolver";
import { READ_AHEAD_FROM_NOTES, SequentialReadAhead, type ReadAheadFile } from "./read-ahead";
import { StatAhead, type SavedStamps } from "./stat-ahead";
import type { Stamp } from "./stamp";
import { describeError } from "../../shared/describe-error";

export interface FolderNoteStoreOptions {
	root: string;
	/**
	 * true (default): one `fs.watch` per folder marks changed paths, so a refresh touches only those (a recursive
	 * watch costs over a second to set up on 10k files on Linux with Node 20; per-folder watchers do not).
	 * false, or when watching fails: every refresh lists the folder again and stats every note read so far.
	 */
	watch?: boolean;
	log?: (message: string) => void;
	/** A vault with fewer notes is never read ahead, nor its stamps checked, on a worker (default `READ_AHEAD_FROM_NOTES`). */
	readAheadFromNotes?: number;
}

interface NoteEntry {
	/** The stamp of the text everything known about the note was made from; undefined until read. */
	stamp?: Stamp;
	/** The saved index's row for the note while `stamp` is the one adopted from it (`adopt`); else -1. */
	savedRow: number;
	/** Whether `stamp` was adopted from a saved index and not yet checked against the file (`confirm`). */
	unconfirmed: boolean;
}

/** A note's text with the size on disk it was read at. */
export interface NoteText {
	text: string;
	bytes: number;
}

/** How many texts read last are kept, so that several readers of one note in a row read the file once. */
const RECENT_TEXTS = 8;
/**
 * How many bytes of them at most: a text larger than this is never kept (reading it again costs little next to
 * holding it; a 1 MiB note left here after a scan was most of the host's heap).
 */
export const RECENT_TEXT_BYTES = 256 * 1024;

/**
 * The files of a vault folder, kept current by one watcher set: what every reader of the folder shares (the IDE's
 * file listing, the diagnostics' notes, the vault tools' index, the privacy tag reader). It knows each file's path,
 * each note's version (the stamp of the text last read) and the name index links resolve through; what readers
 * derive from a note's text is kept per version in a `NoteMemo` and dropped when the watcher (or a read) finds a
 * new version. Like Obsidian it skips names that start with a dot; it never lists through a symbolic link, so
 * nothing outside the vault (and no second name for a note) is listed.
 */
export class FolderNoteStore {
	/** Every file, a note with its entry (one table for both: the listing's one insert a file). */
	readonly files = new FolderLinkResolver<NoteEntry>();
	/** The notes of `files`, with their entries. */
	private readonly notes = new ListedNotes(this.files);
	/** File sizes asked for by a listing, dropped when the watcher reports the path. */
	private readonly sizes = new Map<string, number>();
	private readonly dirty = new Set<string>();
	private sortedNotes: string[] | undefined;
	private readonly watchers = new Map<string, FSWatcher>();
	private watching: boolean;
	private scanned = false;
	private realRoot: string | undefined;
	/** Folders the walk went into (never through a symbolic link): paths in them need no real-path check. */
	private readonly realFolders = new Set<string>();
	private readonly listeners = new Set<(path: string) => void>();
	private readonly recent: { path: string; stamp: Stamp; read: NoteText }[] = [];
	/** The root with one separator at its end: a listed note's absolute path is this and its parts. */
	private readonly rootPrefix: string;
	/** How many entries of the top folder the watcher reported, hidden ones included. */
	private topLevelEvents = 0;
	/** How many changes the watchers reported anywhere (and watchers that failed). */
	private changeEvents = 0;
	/** Counts whatever may make a note's text differ from one read before it: what was read ahead is then not used. */
	private checks = 0;
	/** Notes read for the first time in their order are read ahead on a worker (a vault's first pass over them). */
	private readonly ahead: SequentialReadAhead;
	/** The saved stamps being checked on a worker for `confirmAdopted` (`statAhead`). */
	private stamped: StatAhead | undefined;
	/** The path and entry adopted with each saved row (`adopt`), until `confirmAdopted`. */
	private adoptedPaths: string[] = [];
	private adoptedEntries: NoteEntry[] = [];
	/** The saved rows before this one are checked (`confirmAdoptedSoFar`). */
	private checkedRows = 0;
	/** How many notes have a saved row now (adopted, not found changed or gone since). */
	private withSavedRow = 0;

	constructor(private readonly options: FolderNoteStoreOptions) {
		this.watching = options.watch ?? true;
		this.ahead = new SequentialReadAhead(
			() => this.notePaths(),
			(path) => this.notes.get(path)?.stamp === undefined,
			(path) => this.fullPath(path),
			options.readAheadFromNotes,
		);
		const root = join(options.root);
		this.rootPrefix = root.endsWith(sep) ? root : `${root}${sep}`;
	}

	get root(): string {
		return this.options.root;
	}

	/**
	 * A number that changes whenever the watcher reports an entry of the vault's top folder added, removed or
	 * changed, hidden ones (a config folder) included; undefined while that folder is not watched (not listed yet,
	 * no watcher, or its watcher failed), when only listing it again tells.
	 */
	get topLevelVersion(): number | undefined {
		return this.watchers.has("") ? this.topLevelEvents : undefined;
	}

	/**
	 * A number that changes whenever the watcher reports anything anywhere in the vault (a file or folder added,
	 * removed, renamed or written) or one of its watchers fails; undefined while the vault's top is not watched.
	 */
	get changeVersion(): number | undefined {
		return this.watchers.has("") ? this.changeEvents : undefined;
	}

	/**
	 * Whether every folder on the way to `path` (the top included) is watched, so `changeVersion` covers the path.
	 * What the watcher reported is applied first, so a folder replaced since counts only once it is watched anew.
	 */
	watchesWayTo(path: string): boolean {
		if (!this.watchers.has("")) return false;
		this.refresh();
		if (!this.watchers.has("")) return false;
		for (let slash = path.indexOf("/"); slash >= 0; slash = path.indexOf("/", slash + 1)) {
			if (!this.watchers.has(path.slice(0, slash))) return false;
		}
		return true;
	}

	/** Changes whenever files are added or removed (link resolution may then change). */
	get structureVersion(): number {
		return this.files.version;
	}

	/** Lists the folder (and starts watching it) the first time; then applies what the watcher reported, or lists again without one. */
	refresh(): void {
		if (!this.scanned) {
			this.scanned = true;
			this.walk("", (path) => this.addFile(path));
			// Every folder is watched now: the saved stamps may be checked.
			this.stamped?.go();
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
		// The default order is `comparePaths`' (code units), without a call per comparison.
		if (this.sortedNotes === undefined) {
			const paths: string[] = [];
			this.files.forEachFile((entry, path) => {
				if (entry !== undefined) paths.push(path);
			});
			this.sortedNotes = paths.sort();
		}
		return this.sortedNotes;
	}

	isNote(path: string): boolean {
		return this.notes.has(path);
	}

	/** Every file with its size (stat once per version of the file), for a listing. */
	fileEntries(): { path: string; size: number }[] {
		const entries: { path: string; size: number }[] = [];
		for (const path of this.files.paths()) {
			let size = this.sizes.get(path);
			if (size === undefined) {
				const stats = this.stat(path);
				if (!stats?.isFile()) continue;
				size = stats.size;
				this.sizes.set(path, size);
			}
			entries.push({ path, size });
		}
		return entries;
	}

	/** The note's text as on disk now, or undefined when it is not a note (or cannot be read). */
	text(path: string): string | undefined {
		return this.read(path)?.text;
	}

	/**
	 * Reads a note. A text whose stamp differs from the one the note's memos were made from first drops them
	 * (listeners hear of it), so nothing derived from an older text outlives this read.
	 */
	read(path: string): NoteText | undefined {
		const entry = this.notes.get(path);
		if (!entry) return undefined;
		const recent = this.recentRead(path, entry);
		if (recent) return recent;
		return this.load(path, entry, (bytes, size) => {
			const read = { text: bytes.toString("utf8"), bytes: size };
			return { value: read, remembered: read };
		});
	}

	/**
	 * `read` for a reader that can use a note's bytes as well as its text: the text when a reader before it left it
	 * here, else the file's bytes, never decoded, lent until `fromBytes` returns (the buffer is used again after).
	 * The same stamps and listeners as `read`.
	 */
	readEither<T>(path: string, fromText: (read: NoteText) => T, fromBytes: (bytes: Buffer) => T): T | undefined {
		const entry = this.notes.get(path);
		if (!entry) return undefined;
		const recent = this.recentRead(path, entry);
		if (recent) return fromText(recent);
		return this.load(path, entry, (bytes) => ({ value: fromBytes(bytes) }));
	}

	/**
	 * A look at a note as it is now, for a reader that keeps nothing it derives from it (a backlinks filter pass, a
	 * search's lent text): the text a reader before left here, else the file's bytes (lent until `fromBytes` returns),
	 * read without a stamp (no fstat) and changing nothing known about the note. Such a reader that keeps an answer
	 * made from many notes keys it on `changeVersion`: a note changed after its look moves that.
	 */
	glance<T>(path: string, fromText: (read: NoteText) => T, fromBytes: (bytes: Buffer) => T): T | undefined {
		const entry = this.notes.get(path);
		if (!entry) return undefined;
		const recent = this.recentRead(path, entry);
		if (recent) return fromText(recent);
		try {
			if (entry.stamp === undefined) {
				// Read ahead on a worker (a first pass from 30,000 notes): its stamp is not taken either, so the note
				// stays unread for the pass that keeps what it makes (the warm-up is read ahead as well).
				const ahead = this.ahead.use(path, this.checks + this.files.version, (file: ReadAheadFile) =>
					fromBytes(file.bytes),
				);
				if (ahead) return ahead.value;
			}
		} catch {
			return undefined;
		}
		let descriptor: number | undefined;
		try {
			descriptor = openSync(this.fullPath(path), "r");
			return fromBytes(readToEnd(descriptor));
		} catch {
			return undefined;
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
		}
	}

	/**
	 * Whether what is known about the note is still its text on disk: one stat. A change found here drops the
	 * memos at once instead of when the watcher's event arrives (for answers that must not lag, like privacy).
	 */
	verify(path: string): void {
		if (this.notes.get(path)?.stamp === undefined) return;
		let stats: Stats | undefined;
		try {
			// Listed, so its path needs no normalising (path.join of its parts cost more than the stat).
			stats = lstatSync(this.fullPath(path));
		} catch {
			stats = undefined;
		}
		this.settle(path, stats);
	}

	/** The stamp of the text what is known about the note was made from; undefined when nothing is. */
	stampOf(path: string): Readonly<Stamp> | undefined {
		return this.notes.get(path)?.stamp;
	}

	/**
	 * Takes `stamp` (kept as given) as the one a listed note's knowledge was made from, and `row` as where a saved
	 * index holds that knowledge (for a note nothing is known of yet): true when taken. Until `confirm` checks it
	 * against the file, the readers that keep what they derive ask `confirm` before using it.
	 */
	adopt(path: string, stamp: Stamp, row: number): boolean {
		const entry = this.notes.get(path);
		if (!entry || entry.stamp !== undefined) return false;
		entry.stamp = stamp;
		entry.savedRow = row;
		entry.unconfirmed = true;
		this.adoptedPaths[row] = path;
		this.adoptedEntries[row] = entry;
		this.withSavedRow++;
		return true;
	}

	/** Calls `each` with every note and its saved row (`savedRowOf`), in no set order. */
	forEachNote(each: (path: string, savedRow: number | undefined) => void): void {
		this.notes.forEach((entry, path) => each(path, entry.savedRow < 0 ? undefined : entry.savedRow));
	}

	/** How many notes what is known of is still a saved index's row (`savedRowOf`), without a pass over the notes. */
	get savedRowNotes(): number {
		return this.withSavedRow;
	}

	/** The saved index's row of what is known of the note, while its stamp is the one adopted with it; else undefined. */
	savedRowOf(path: string): number | undefined {
		const row = this.notes.get(path)?.savedRow;
		return row === undefined || row < 0 ? undefined : row;
	}

	/**
	 * Checks an adopted stamp against the file the first time it is asked: a different file drops it. Once the worker
	 * of `statAhead` has every note's stamp, every adopted stamp is checked against those at once (no stat here, where
	 * a whole-vault question would make one per note); until then, one stat.
	 */
	confirm(path: string): void {
		const entry = this.notes.get(path);
		if (entry?.unconfirmed !== true) return;
		if (this.stamped?.finished === true) {
			this.confirmAdopted();
			return;
		}
		entry.unconfirmed = false;
		this.verify(path);
	}

	/**
	 * Starts checking a saved index's stamps on a worker thread (one of `readAheadFromNotes` notes or more), for a
	 * `confirmAdopted` (or `confirm`) to come: called before the folder is first listed, so that the worker parses the
	 * saved paths meanwhile and stats the saved notes of each folder once the listing watches it (none of a folder
	 * not watched yet).
	 */
	statAhead(saved: SavedStamps | undefined): void {
		if (this.stamped || !saved || saved.rows < (this.options.readAheadFromNotes ?? READ_AHEAD_FROM_NOTES)) return;
		this.stamped = new StatAhead(saved, this.rootPrefix);
		if (this.scanned) this.stamped.go();
	}

	/** How many notes' stamps `statAhead` has found so far (0 when none is at work). */
	get statAheadDone(): number {
		return this.stamped?.done ?? 0;
	}

	/**
	 * `confirm` for every note whose adopted stamp is not checked yet (a later session's backlinks need them all), by
	 * what `statAhead`'s worker found of each saved row: a note adopted with its row is confirmed where the worker
	 * found the row's file as saved (both threads parsed the saved stamp from the same bytes), else statted here.
	 */
	confirmAdopted(): void {
		const stamped = this.stamped;
		const paths = this.adoptedPaths;
		const entries = this.adoptedEntries;
		this.stamped = undefined;
		this.adoptedPaths = [];
		this.adoptedEntries = [];
		this.checkedRows = 0;
		stamped?.check(this.confirmRow(paths, entries));
		// The check had a call for every saved row, so for every note adopted: the pass is for a store without one.
		if (stamped && stamped.rows >= paths.length) return;
		this.notes.forEach((entry, path) => {
			if (entry.unconfirmed) this.confirmEntry(path, entry);
		});
	}

	/**
	 * `confirmAdopted` for the saved rows the `statAhead` worker has found so far, in row (path) order up to the first
	 * it has not: returns that row (every row before it is checked); undefined when no worker is checking, or it has
	 * found every row (`confirmAdopted` then waits for nothing).
	 */
	confirmAdoptedSoFar(): number | undefined {
		const stamped = this.stamped;
		if (!stamped || stamped.finished) return undefined;
		this.checkedRows = stamped.foundSoFar(
			this.checkedRows,
			this.confirmRow(this.adoptedPaths, this.adoptedEntries),
		);
		return this.checkedRows;
	}

	/**
	 * What the worker's finding for a saved row does: the entry adopted with the row (not looked up by its path: a note
	 * removed since has had its entry forgotten, no saved row and nothing unconfirmed, and one listed again has an
	 * entry of its own, adopted with no row) is confirmed, or its file statted here when the worker found it otherwise.
	 */
	private confirmRow(paths: readonly string[], entries: readonly NoteEntry[]): (row: number, same: boolean) => void {
		return (row, same) => {
			const entry = entries[row];
			if (!entry?.unconfirmed || entry.savedRow !== row) return;
			if (same) entry.unconfirmed = false;
			else this.confirmEntry(paths[row] ?? "", entry);
		};
	}

	/** Checks a note's adopted stamp against its file (one lstat). */
	private confirmEntry(path: string, entry: NoteEntry): void {
		entry.unconfirmed = false;
		if (entry.stamp === undefined) return;
		let stats: Stats | undefined;
		try {
			stats = lstatSync(this.fullPath(path), { throwIfNoEntry: false });
		} catch {
			stats = undefined;
		}
		// `verify` without looking the note up again: most notes are as saved.
		if (!stats?.isFile() || !sameStamp(entry.stamp, stats)) this.settle(path, stats);
	}

	/** Brings one path (file or folder, present or gone) up to date now rather than on the watcher's event. */
	check(path: string): void {
		this.checkPath(path);
	}

	/** Our own write or rename changed these paths: bring them up to date now, whatever their stamps say. */
	touched(...paths: string[]): void {
		for (const path of paths) this.checkPath(path, true);
	}

	/** Calls `listener` with a note's path when its text changed, or it appeared or went away. Returns the unsubscribe. */
	onNoteChanged(listener: (path: string) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	absolute(path: string): string {
		return join(this.options.root, ...path.split("/"));
	}

	dispose(): void {
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
		this.ahead.dispose();
		this.stamped?.dispose();
		this.stamped = undefined;
		this.adoptedPaths = [];
		this.adoptedEntries = [];
		this.checkedRows = 0;
	}

	/** Watches one folder (not recursively): a change marks `folder/name` dirty. */
	private watch(folder: string): void {
		if (!this.watching || this.watchers.has(folder)) return;
		try {
			const watcher = watch(
				folder === "" ? this.options.root : this.absolute(folder),
				{ persistent: false },
				(_event, filename) => {
					this.changeEvents++;
					this.checks++;
					if (filename === null) this.stopWatching("a change event without a file name");
					else if (folder === "") {
						this.topLevelEvents++;
						this.dirty.add(filename);
					} else this.dirty.add(`${folder}/${filename}`);
				},
			);
			watcher.on("error", () => {
				// The folder went away (or was renamed): its parent's watcher reports that; forget this one.
				this.changeEvents++;
				watcher.close();
				if (this.watchers.get(folder) === watcher) this.watchers.delete(folder);
			});
			this.watchers.set(folder, watcher);
		} catch (error) {
			this.stopWatching(describeError(error));
		}
	}

	/** Falls back to listing the folder on each refresh. */
	private stopWatching(reason: string): void {
		if (!this.watching) return;
		this.options.log?.(`Not watching the vault (${reason}); checking files on each call instead`);
		this.dispose();
		this.watching = false;
		this.dirty.clear();
	}

	/** Brings one path (file or folder, present or gone) up to date. */
	private checkPath(path: string, force = false): void {
		this.checks++;
		if (isHidden(path)) return;
		const stats = this.stat(path);
		this.sizes.delete(path);
		// A folder reported by its parent may be another folder now (moved away, another made in its place), and a
		// watcher follows the folder it was set on, not the name: whatever is there is walked and watched anew below.
		const walkedBefore = this.forgetFolder(path);
		// Like the walk, never through a symbolic link: `pub/x.md` with `pub -> Secret` is another name for a note
		// the store holds (or must not hold) under its real path, and privacy is judged on the path it is listed by.
		if (stats && this.throughSymbolicLink(path)) return;
		if (stats?.isDirectory()) {
			const found = new Set<string>();
			this.walk(path, (file) => {
				found.add(file);
				this.addFile(file);
				// Watched anew: a change the old watchers had not reported yet is found by its stamp.
				if (walkedBefore) this.verify(file);
			});
			// Only a folder walked before can have left files listed that are not there now (a new one has none).
			const prefix = `${path}/`;
			if (walkedBefore)
				for (const known of [...this.files.paths()])
					if (known.startsWith(prefix) && !found.has(known)) this.removeFile(known);
		} else if (stats?.isFile()) {
			this.addFile(path);
			const entry = this.notes.get(path);
			if (entry && (force || (entry.stamp !== undefined && !sameStamp(entry.stamp, stats))))
				this.forget(path, entry);
		} else {
			// Gone, or something that is neither a file nor a folder now (a symbolic link): nothing is listed there.
			if (this.files.has(path)) this.removeFile(path);
			const prefix = `${path}/`;
			for (const known of [...this.files.paths()]) if (known.startsWith(prefix)) this.removeFile(known);
		}
	}

	/**
	 * Stops watching a folder and everything under it, and trusting it as a real folder (it is no folder any more, or
	 * another one); whether it was watched or walked before.
	 */
	private forgetFolder(path: string): boolean {
		// A folder is watched or listed as real from its own walk on: neither means nothing under it is either (and a
		// file, checked on every getDiagnostics of it, costs no pass over every watcher).
		if (!this.watchers.has(path) && !this.realFolders.has(path)) return false;
		const prefix = `${path}/`;
		for (const [folder, watcher] of this.watchers) {
			if (folder === path || folder.startsWith(prefix)) {
				watcher.close();
				this.watchers.delete(folder);
			}
		}
		if (this.realFolders.delete(path))
			for (const folder of [...this.realFolders]) if (folder.startsWith(prefix)) this.realFolders.delete(folder);
		return true;
	}

	/** Without a watcher: list the folder again and drop what is known of notes whose stamp changed. */
	private rescan(): void {
		this.checks++;
		const present = new Set<string>();
		// Rebuilt by the walk: a folder replaced by a symbolic link since the last walk is not trusted.
		this.realFolders.clear();
		this.sizes.clear();
		this.walk("", (path) => {
			present.add(path);
			this.addFile(path);
		});
		for (const path of [...this.files.paths()]) if (!present.has(path)) this.removeFile(path);
		for (const [path, entry] of this.notes.entries()) {
			if (entry.stamp === undefined) continue;
			entry.unconfirmed = false;
			const stats = this.stat(path);
			if (!stats || !sameStamp(entry.stamp, stats)) this.forget(path, entry);
		}
	}

	private forget(path: string, entry: NoteEntry): void {
		this.checks++;
		entry.stamp = undefined;
		if (entry.savedRow >= 0) this.withSavedRow--;
		entry.savedRow = -1;
		entry.unconfirmed = false;
		const at = this.recent.findIndex((candidate) => candidate.path === path);
		if (at >= 0) this.recent.splice(at, 1);
		this.changed(path);
	}

	private changed(path: string): void {
		for (const listener of this.listeners) listener(path);
	}

	/** What `verify` does once it has the note's stats (undefined: it is gone). */
	private settle(path: string, stats: Stats | undefined): void {
		const entry = this.notes.get(path);
		if (entry?.stamp === undefined) return;
		if (!stats?.isFile()) this.checkPath(path);
		else if (!sameStamp(entry.stamp, stats)) this.forget(path, entry);
	}

	/** A listed note's absolute path (it has no empty, `.` or `..` part: the walk made it, no normalising needed). */
	private fullPath(path: string): string {
		return this.rootPrefix + (sep === "/" ? path : path.split("/").join(sep));
	}

	private recentRead(path: string, entry: NoteEntry): NoteText | undefined {
		const recent = this.recent.find((candidate) => candidate.path === path);
		return recent && recent.stamp === entry.stamp ? recent.read : undefined;
	}

	/**
	 * Reads a note and gives `contents` its bytes (lent for that call) and size; a stamp other than the one its memos
	 * were made from drops them first. What `contents` answers as `remembered` is kept for the next reader. A note
	 * read for the first time may have been read ahead (`SequentialReadAhead`).
	 */
	private load<T>(
		path: string,
		entry: NoteEntry,
		contents: (bytes: Buffer, size: number) => { value: T; remembered?: NoteText },
	): T | undefined {
		if (entry.stamp === undefined) {
			try {
				const ahead = this.ahead.use(path, this.checks + this.files.version, (file: ReadAheadFile) =>
					this.settleLoad(path, entry, file.stamp, contents(file.bytes, file.stamp.size)),
				);
				if (ahead) return ahead.value;
			} catch {
				return undefined;
			}
		}
		let descriptor: number | undefined;
		try {
			descriptor = openSync(this.fullPath(path), "r");
			const stats = fstatSync(descriptor);
			return this.settleLoad(path, entry, stats, contents(readWholeBytes(descriptor, stats.size), stats.size));
		} catch {
			return undefined;
		} finally {
			if (descriptor !== undefined) closeSync(descriptor);
		}
	}

	/** Takes the stamp of a text just read as the note's (dropping what was known of another), and keeps the text. */
	private settleLoad<T>(path: string, entry: NoteEntry, stamp: Stamp, read: { value: T; remembered?: NoteText }): T {
		entry.unconfirmed = false;
		if (entry.stamp === undefined || !sameStamp(entry.stamp, stamp)) {
			if (entry.stamp !== undefined) this.forget(path, entry);
			entry.stamp = stampOf(stamp);
		}
		if (read.remembered) this.remember(path, entry.stamp, read.remembered);
		return read.value;
	}

	private remember(path: string, stamp: Stamp, read: NoteText): void {
		const at = this.recent.findIndex((candidate) => candidate.path === path);
		if (at >= 0) this.recent.splice(at, 1);
		if (read.bytes > RECENT_TEXT_BYTES) return;
		this.recent.push({ path, stamp, read });
		let bytes = this.recent.reduce((sum, candidate) => sum + candidate.read.bytes, 0);
		while (this.recent.length > RECENT_TEXTS || bytes > RECENT_TEXT_BYTES)
			bytes -= this.recent.shift()?.read.bytes ?? 0;
	}

	private addFile(path: string): void {
		if (!isNotePath(path)) this.files.add(path);
		else if (this.files.add(path, { savedRow: -1, unconfirmed: false })) {
			this.sortedNotes = undefined;
			this.changed(path);
		}
	}

	private removeFile(path: string): void {
		const entry = this.notes.get(path);
		this.files.remove(path);
		this.sizes.delete(path);
		if (entry) {
			this.sortedNotes = undefined;
			this.forget(path, entry);
		}
	}

	/** Whether a folder on the way to `path` is a symbolic link (the path's own last part is judged by lstat). */
	private throughSymbolicLink(path: string): boolean {
		const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
		if (folder === "" || this.realFolders.has(folder)) return false;
		this.realRoot ??= safeRealpath(this.options.root) ?? this.options.root;
		return safeRealpath(this.absolute(folder)) !== join(this.realRoot, ...folder.split("/"));
	}

	private stat(path: string): Stats | undefined {
		try {
			return lstatSync(this.absolute(path));
		} catch {
			return undefined;
		}
	}

	/** Calls `onFile` with the vault path of every regular file under `folder`, skipping hidden names and symbolic links. */
	private walk(folder: string, onFile: (path: string) => void): void {
		this.watch(folder);
		// Depth first: every folder above this one is watched too, so the saved rows in it may be statted now.
		if (this.watchers.has(folder)) this.stamped?.watched(folder);
		let entries;
		try {
			entries = readdirSync(folder === "" ? this.options.root : this.absolute(folder), { withFileTypes: true });
		} catch {
			return;
		}
		if (folder !== "") this.realFolders.add(folder);
		for (const entry of entries) {
			if (entry.name.startsWith(".")) continue;
			// Joined into one flat string: a concatenation would be a rope of the two (a 100k-note listing's paths were
			// then sorted several times slower, and compared and hashed through the rope).
			const path = folder === "" ? entry.name : [folder, entry.name].join("/");
			if (entry.isDirectory()) this.walk(path, onFile);
			else if (entry.isFile()) onFile(path);
		}
	}
}

/** The notes among a store's files (those added with an entry), looked up and gone through like a map. */
class ListedNotes {
	constructor(private readonly files: FolderLinkResolver<NoteEntry>) {}

	get(path: string): NoteEntry | undefined {
		return this.files.valueFor(path);
	}

	has(path: string): boolean {
		return this.files.valueFor(path) !== undefined;
	}

	forEach(each: (entry: NoteEntry, path: string) => void): void {
		this.files.forEachFile((entry, path) => {
			if (entry !== undefined) each(entry, path);
		});
	}

	/** Every note with its entry, in a list of their own (a caller may add and remove files while going through it). */
	entries(): [string, NoteEntry][] {
		const entries: [string, NoteEntry][] = [];
		this.forEach((entry, path) => entries.push([path, entry]));
		return entries;
	}
}

/**
 * Something derived from a note's text (its facts, its diagnostics metadata, its tags), kept per note for as long
 * as the note's text is the one it was made from. With `limit`, only the notes asked for last are kept.
 */
export class NoteMemo<T> {
	private readonly values = new Map<string, T>();
	/** Makes a note's value from the saved index's row the store adopted its stamp with (`FolderNoteStore.adopt`). */
	private fromSaved: ((row: number) => T | undefined) | undefined;
	private readonly unsubscribe: () => void;

	constructor(
		private readonly store: FolderNoteStore,
		private readonly derive: (path: string, read: NoteText) => T,
		private readonly limit = Infinity,
		/**
		 * Makes the value from a note read from disk, from its bytes (lent for the call) without decoding them where it
		 * can; undefined where it cannot (its text is decoded and `derive` makes it).
		 */
		private readonly fromBytes?: (path: string, bytes: Buffer) => T | undefined,
	) {
		this.unsubscribe = store.onNoteChanged((path) => this.values.delete(path));
	}

	/** The value for the note's current text; undefined when it is not a note or cannot be read. */
	get(path: string): T | undefined {
		// A value from a saved index is used once the note's file is found to be the one it was made from.
		this.store.confirm(path);
		if (this.values.has(path)) {
			const known = this.values.get(path) as T;
			if (this.limit !== Infinity) {
				// Most recently asked last: the first entries are the ones to let go.
				this.values.delete(path);
				this.values.set(path, known);
			}
			return known;
		}
		const saved = this.takeSaved(path);
		if (saved !== undefined) return saved;
		const value = this.fromBytes ? this.readEither(path, this.fromBytes) : this.read(path);
		if (value === undefined) return undefined;
		this.keep(path, value);
		return value;
	}

	/** Whether a value is kept for the note (or saved for it): `peek` would answer one without reading the note. */
	holds(path: string): boolean {
		return this.values.has(path) || (this.fromSaved !== undefined && this.store.savedRowOf(path) !== undefined);
	}

	/** The value kept for the note (or saved for it), without reading it or checking its file; undefined when none is. */
	peek(path: string): T | undefined {
		return this.values.get(path) ?? this.takeSaved(path);
	}

	/**
	 * Takes the value of a note whose stamp the store adopted from a saved index from that index's row, made by
	 * `fromSaved` when first asked (undefined there: the note is read instead).
	 */
	useSaved(fromSaved: (row: number) => T | undefined): void {
		this.fromSaved = fromSaved;
	}

	dispose(): void {
		this.unsubscribe();
		this.values.clear();
		this.fromSaved = undefined;
	}

	private read(path: string): T | undefined {
		const read = this.store.read(path);
		return read === undefined ? undefined : this.derive(path, read);
	}

	/** The value from the text a reader before left in the store, else from the file's bytes. */
	private readEither(path: string, fromBytes: (path: string, bytes: Buffer) => T | undefined): T | undefined {
		return this.store.readEither(
			path,
			(read) => this.derive(path, read),
			(bytes) =>
				fromBytes(path, bytes) ?? this.derive(path, { text: bytes.toString("utf8"), bytes: bytes.length }),
		);
	}

	private takeSaved(path: string): T | undefined {
		if (!this.fromSaved) return undefined;
		const row = this.store.savedRowOf(path);
		if (row === undefined) return undefined;
		const value = this.fromSaved(row);
		if (value !== undefined) this.keep(path, value);
		return value;
	}

	private keep(path: string, value: T): void {
		this.values.set(path, value);
		if (this.values.size > this.limit) this.values.delete(this.values.keys().next().value as string);
	}
}

/** Notes up to this size are read into one buffer kept for the next read (one read call, no allocation). */
const SCRATCH_BYTES = 256 * 1024;
let scratch: Buffer | undefined;

/** The file's bytes, in the scratch buffer (used again by the next read) where they fit. */
function readWholeBytes(descriptor: number, size: number): Buffer {
	if (size > SCRATCH_BYTES) return readFileSync(descriptor);
	scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
	// One byte more than the size: a file that grew since fstat is read whole by the slow path instead.
	const length = readSync(descriptor, scratch, 0, Math.min(size + 1, SCRATCH_BYTES), 0);
	if (length > size) return readFileSync(descriptor);
	return scratch.subarray(0, length);
}

/**
 * The file's bytes from its start to its end, without asking its size first (no fstat): in the scratch buffer where
 * they fit. A read of a regular file that gives fewer bytes than asked for has reached its end (Linux, macOS and
 * Windows read local files whole), so a note that fits takes one read.
 */
function readToEnd(descriptor: number): Buffer {
	scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
	let bytes = scratch;
	let length = 0;
	for (;;) {
		const read = readSync(descriptor, bytes, length, bytes.length - length, length);
		length += read;
		if (read === 0 || length < bytes.length) return bytes.subarray(0, length);
		const larger = Buffer.allocUnsafe(bytes.length * 2);
		bytes.copy(larger, 0, 0, length);
		bytes = larger;
	}
}

/** Whether the path ends with `.md` in any case (`path.toLowerCase().endsWith(".md")`, without a lower-cased copy per file listed). */
function isNotePath(path: string): boolean {
	const length = path.length;
	return (
		length >= 3 &&
		path.charCodeAt(length - 3) === DOT &&
		(path.charCodeAt(length - 2) | CASE_BIT) === LOWER_M &&
		(path.charCodeAt(length - 1) | CASE_BIT) === LOWER_D
	);
}

const DOT = 0x2e;
const LOWER_M = 0x6d;
const LOWER_D = 0x64;
/** Set in an ASCII letter's code, it is the lower-case letter: `M` and `m` alone give `m`, `D` and `d` alone `d`. */
const CASE_BIT = 0x20;

function isHidden(path: string): boolean {
	return path.split("/").some((part) => part.startsWith("."));
}

function safeRealpath(path: string): string | undefined {
	try {
		return realpathSync.native(path);
	} catch {
		return undefined;
	}
}

/** ctime too: it moves when a tool writes a note and restores its old mtime. */
function stampOf(stats: Stamp): Stamp {
	return { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino };
}

function sameStamp(stamp: Stamp, stats: Stamp): boolean {
	return (
		stamp.mtimeMs === stats.mtimeMs &&
		stamp.ctimeMs === stats.ctimeMs &&
		stamp.size === stats.size &&
		stamp.ino === stats.ino
	);
}

/** Code-unit order: stable across platforms and locales, so paging is deterministic. */
export function comparePaths(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
