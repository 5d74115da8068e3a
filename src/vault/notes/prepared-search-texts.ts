import type { WorkPace } from "./notes";
import { searchableText } from "./search-text";
import { SearchTextShelf } from "./search-text-shelf";
import { WorkSlices } from "./work-slices";

/** How many note texts are read at once while search texts are prepared. */
const READS_AT_ONCE = 64;

/**
 * Search texts for an index that reads note texts asynchronously (Obsidian's `cachedRead`): read when a search first
 * needs them (`prepare`, a few reads at a time, in slices of the pace), kept on a `SearchTextShelf`, each dropped
 * when its note changes (`drop`). A text read while its note changed is not kept: it may be the old one.
 *
 * `prepare` answers the texts by position in the list it was given; for the same list (the same array) and no
 * change since, it answers the same array again without a lookup per note (over 100k notes, the lookups were most
 * of a warm search). `scan` keeps each text as it reads it: a note's text is read once, not once for the search and
 * again to keep it (in Obsidian each read is a file read from disk, 100k of them several seconds of CPU, and every
 * text read is garbage for the collector of the thread the user types on).
 */
export class PreparedSearchTexts {
	private readonly shelf = new SearchTextShelf(() => this.changed());
	/** Notes whose text is being read, and whether their note changed meanwhile. */
	private readonly reads = new Map<string, { changed: boolean; done: Promise<string | undefined> }>();
	/** The texts of the last list prepared (every one of them read), by position, while no text was kept, moved or dropped since. */
	private aligned: { paths: readonly string[]; texts: readonly (Buffer | undefined)[] } | undefined;
	/** Counts what makes `aligned` stale: an array made while one happened is not kept. */
	private changes = 0;
	/** The `prepare` that `scan` started, while it runs. */
	private filling: Promise<unknown> | undefined;
	/** The buffer `scan` lends the texts it could not keep in (a note changed while it was read). */
	private lent = Buffer.alloc(0);

	constructor(
		/** The note's text; undefined (or a rejection) when it is not a note or cannot be read. */
		private readonly read: (path: string) => Promise<string | undefined> | undefined,
		private readonly pace: WorkPace | undefined,
		/** The note's size in bytes as last seen (no read), to make room for the texts about to be read at once. */
		private readonly size?: (path: string) => number,
		/**
		 * The note's bytes (UTF-8) read at once, where that is cheaper than `read` (the disk on the desktop), copied
		 * before the next call; undefined when they cannot be, and `read` answers.
		 */
		private readonly readNow?: (path: string) => Buffer | undefined,
	) {}

	/** The note's kept search text; undefined when none is kept. */
	get(path: string): Buffer | undefined {
		return this.shelf.get(path);
	}

	/**
	 * Calls `each` with the search text of each of `paths` that is a note, by position and in order, a few reads at a
	 * time and in slices of the pace; a text not kept yet is read and kept (one that changed while it was read is
	 * lent for that call alone). Then the texts by position are made in the background (`prepare`, in slices), for
	 * the next search, which waits for it.
	 */
	async scan(paths: readonly string[], each: (position: number, text: Buffer) => void): Promise<void> {
		// Waits for the texts being kept rather than reading them again beside it.
		await this.filling;
		const aligned = this.aligned?.paths === paths ? this.aligned.texts : undefined;
		const slices = new WorkSlices(this.pace);
		// Room made ahead saves allocations only: a size that cannot be told does not fail the search.
		if (!aligned) await this.makeRoom(paths, slices).catch(() => undefined);
		let read: (string | undefined)[] = [];
		for (let position = 0; position < paths.length; position++) {
			const batch = position % READS_AT_ONCE;
			if (!aligned && batch === 0) {
				const reading: (Promise<string | undefined> | undefined)[] = [];
				for (const path of paths.slice(position, position + READS_AT_ONCE)) {
					reading.push(this.get(path) || this.keepNow(path) ? undefined : this.readOne(path));
					// A read at once of a note not in the system's file cache waits for the disk: one such read a check.
					if (slices.due()) await slices.next();
				}
				read = await Promise.all(reading.map(async (pending) => pending));
			}
			const text = aligned ? aligned[position] : (this.get(paths[position] ?? "") ?? this.lend(read[batch]));
			if (text) each(position, text);
			if (slices.due()) await slices.next();
		}
		// A fill that failed is not the next search's error: that search reads what is not kept, as this one did.
		if (!aligned)
			this.filling ??= this.prepare(paths)
				.catch(() => undefined)
				.finally(() => (this.filling = undefined));
	}

	/** Reads and keeps the search texts of `paths` not kept yet; answers every path's text by position. */
	async prepare(paths: readonly string[]): Promise<readonly (Buffer | undefined)[]> {
		if (this.aligned?.paths === paths) return this.aligned.texts;
		const slices = new WorkSlices(this.pace);
		await this.makeRoom(paths, slices);
		let reads: Promise<unknown>[] = [];
		for (const path of paths) {
			if (!this.shelf.get(path) && !this.keepNow(path)) {
				const reading = this.readOne(path);
				if (reading) reads.push(reading);
				if (reads.length >= READS_AT_ONCE) {
					await Promise.all(reads);
					reads = [];
				}
			}
			if (slices.due()) await slices.next();
		}
		await Promise.all(reads);
		const changes = this.changes;
		const texts: (Buffer | undefined)[] = [];
		let every = true;
		for (const path of paths) {
			const text = this.shelf.get(path);
			texts.push(text);
			if (!text) every = false;
			if (slices.due()) await slices.next();
		}
		// Kept only whole: a note that could not be read is tried again next time.
		if (every && changes === this.changes) this.aligned = { paths, texts };
		return texts;
	}

	/** Makes room on the shelf for the texts of `paths` not kept yet, by their sizes as last seen (when known). */
	private async makeRoom(paths: readonly string[], slices: WorkSlices): Promise<void> {
		if (!this.size) return;
		let bytes = 0;
		for (const path of paths) {
			if (!this.shelf.get(path)) bytes += this.size(path);
			if (slices.due()) await slices.next();
		}
		// Lower case keeps most texts' UTF-8 length; a text that grows past the room goes to a buffer of its own size.
		this.shelf.reserveAhead(bytes);
	}

	/** The note changed (or is gone): its text is read again when next needed. */
	drop(path: string): void {
		const reading = this.reads.get(path);
		if (reading) reading.changed = true;
		if (!this.shelf.get(path)) return;
		this.shelf.forget(path);
		this.changed();
	}

	clear(): void {
		this.shelf.clear();
		this.changed();
	}

	private lend(text: string | undefined): Buffer | undefined {
		if (text === undefined) return undefined;
		const lower = searchableText(text);
		// At most 3 UTF-8 bytes a UTF-16 unit.
		if (this.lent.length < lower.length * 3) this.lent = Buffer.allocUnsafeSlow(lower.length * 3);
		return this.lent.subarray(0, this.lent.write(lower));
	}

	/** Reads the note's bytes at once (`readNow`) and keeps them; false when they could not be read so. */
	private keepNow(path: string): boolean {
		// A read under way answers for the note: its text is kept unless the note changed meanwhile.
		if (this.reads.has(path)) return false;
		const bytes = this.readNow?.(path);
		if (!bytes) return false;
		this.shelf.keepBytes(path, bytes, true);
		this.changed();
		return true;
	}

	/** Reads the note's text and keeps it unless its note changed meanwhile; answers the text read (undefined: none). */
	private readOne(path: string): Promise<string | undefined> | undefined {
		const pending = this.reads.get(path);
		if (pending) return pending.done;
		const text = this.read(path);
		if (!text) return undefined;
		const reading = {
			changed: false,
			done: text.then(
				(read) => {
					this.reads.delete(path);
					if (read === undefined || reading.changed) return read;
					this.shelf.keepText(path, read, true);
					this.changed();
					return read;
				},
				() => void this.reads.delete(path),
			),
		};
		this.reads.set(path, reading);
		return reading.done;
	}

	private changed(): void {
		this.changes++;
		this.aligned = undefined;
	}
}
