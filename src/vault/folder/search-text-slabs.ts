import { isAscii } from "node:buffer";
import { searchableText } from "../notes/search-text";
import { OWN_BUFFER_BYTES, SearchTextShelf, writeLowerAscii } from "../notes/search-text-shelf";
import type { FolderNoteStore } from "./folder-note-store";

/**
 * Every note's search text (`searchTextOf`), kept per note version on a `SearchTextShelf` (a few large buffers),
 * made when first asked from the note store's text or bytes, dropped when the store says the note changed.
 */
export class SearchTextSlabs {
	private readonly shelf = new SearchTextShelf(() => this.dropAligned());
	private readonly unsubscribe: () => void;
	/** The kept texts of the last listing `forEach` went over, when it found all of them kept; dropped when a search text is made, moved or forgotten (it would keep old buffers). */
	private alignedTexts: { paths: readonly string[]; texts: Buffer[] } | undefined;
	/** Counts the drops of `alignedTexts`: a listing's array is kept only when none happened while it was made. */
	private drops = 0;
	/** The buffer a note's search text is lent in while it is not kept (`forEach`). */
	private scratch: Buffer | undefined;

	constructor(private readonly store: FolderNoteStore) {
		this.unsubscribe = store.onNoteChanged((path) => this.forget(path));
	}

	/** The note's search text; undefined when it is not a note or cannot be read. */
	get(path: string): Buffer | undefined {
		const known = this.shelf.get(path);
		if (known) return known;
		const view = this.store.readEither(
			path,
			(read) => this.shelf.keepText(path, read.text),
			(bytes) => this.shelf.keepBytes(path, bytes),
		);
		if (view === undefined) return undefined;
		this.dropAligned();
		return view;
	}

	/**
	 * Calls `each` with the search text of every path in turn, with its position. A note whose text is not kept yet is
	 * read into a buffer lent for that call alone and not kept: a search before the warm-up has made the texts does
	 * not pay for keeping them (over 100k notes, putting 376 MB of texts in new memory cost as much CPU as reading the
	 * notes). Given the same array again while no note changed and every text was kept, it goes over the same
	 * texts without looking each path up (a tenth of a search over 100k notes).
	 */
	forEach(paths: readonly string[], each: (position: number, text: Buffer) => void): void {
		const aligned = this.alignedTexts?.paths === paths ? this.alignedTexts.texts : undefined;
		if (aligned) {
			for (let position = 0; position < aligned.length; position++) each(position, aligned[position]);
			return;
		}
		const drops = this.drops;
		const texts: Buffer[] = [];
		for (let position = 0; position < paths.length; position++) {
			const path = paths[position] ?? "";
			const kept = this.shelf.get(path);
			if (kept) {
				texts.push(kept);
				each(position, kept);
				continue;
			}
			// Looked at once and not kept: no stamp taken (nothing is kept from it to be found out of date).
			const lent = this.store.glance(
				path,
				(read) => this.lend(searchableText(read.text)),
				(bytes) => this.lendBytes(bytes),
			);
			if (lent) each(position, lent);
		}
		// A note not read, or one that changed meanwhile (`each` may check), is looked at again next time.
		if (texts.length === paths.length && this.drops === drops) this.alignedTexts = { paths, texts };
	}

	dispose(): void {
		this.unsubscribe();
		this.shelf.clear();
		this.alignedTexts = undefined;
		this.scratch = undefined;
	}

	/** `place` into the lent buffer. */
	private lend(text: string): Buffer {
		const view = this.scratchOf(Buffer.byteLength(text, "utf8"));
		view.write(text, 0, "utf8");
		return view;
	}

	/** `placeBytes` into the lent buffer. */
	private lendBytes(bytes: Buffer): Buffer {
		if (!isAscii(bytes)) return this.lend(searchableText(bytes.toString("utf8")));
		return writeLowerAscii(bytes, this.scratchOf(bytes.length));
	}

	/** `size` bytes of the lent buffer (one of their own for a text that would get its own when kept). */
	private scratchOf(size: number): Buffer {
		if (size >= OWN_BUFFER_BYTES) return Buffer.allocUnsafeSlow(size);
		this.scratch ??= Buffer.allocUnsafeSlow(OWN_BUFFER_BYTES);
		return this.scratch.subarray(0, size);
	}

	private dropAligned(): void {
		this.alignedTexts = undefined;
		this.drops++;
	}

	private forget(path: string): void {
		this.dropAligned();
		this.shelf.forget(path);
	}
}
