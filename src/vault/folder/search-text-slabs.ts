import { isAscii } from "node:buffer";
import { searchableText, utf8Bytes } from "../notes/search-text";
import type { FolderNoteStore } from "./folder-note-store";

/** The size of one shared buffer. */
const SLAB_BYTES = 4 * 1024 * 1024;
/** A search text this long gets a buffer of its own. */
const OWN_BUFFER_BYTES = SLAB_BYTES / 4;

/**
 * Every note's search text (`searchTextOf`), kept per note version in a few large buffers rather than one buffer a
 * note (each buffer costs a few hundred bytes of bookkeeping: 100k notes, 30 MB). A note's old text stays in its
 * buffer as waste until more than half of that buffer is waste (checked when a text leaves a full buffer, and when
 * the current one is full); then the texts still in it move to the current one.
 */
export class SearchTextSlabs {
	private readonly views = new Map<string, Buffer>();
	private slab: Buffer | undefined;
	private used = 0;
	/** Bytes no longer used, per full buffer. */
	private readonly wasted = new Map<ArrayBufferLike, number>();
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
		const known = this.views.get(path);
		if (known) return known;
		const view = this.store.readEither(
			path,
			(read) => this.place(searchableText(read.text)),
			(bytes) => this.placeBytes(bytes),
		);
		if (view === undefined) return undefined;
		this.views.set(path, view);
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
			const kept = this.views.get(path);
			if (kept) {
				texts.push(kept);
				each(position, kept);
				continue;
			}
			const lent = this.store.readEither(
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
		this.views.clear();
		this.alignedTexts = undefined;
		this.wasted.clear();
		this.slab = undefined;
		this.scratch = undefined;
	}

	private place(text: string): Buffer {
		const size = Buffer.byteLength(text, "utf8");
		const view = this.reserve(size);
		if (!view) return utf8Bytes(text);
		view.write(text, 0, "utf8");
		return view;
	}

	/**
	 * A note's search text from its bytes: plain ASCII (most notes) lower-cased as Latin-1 text, which gives the bytes
	 * `searchableText` and UTF-8 would (every character one byte), without decoding UTF-8 or encoding it back.
	 */
	private placeBytes(bytes: Buffer): Buffer {
		if (!isAscii(bytes)) return this.place(searchableText(bytes.toString("utf8")));
		return writeLowerAscii(bytes, this.reserve(bytes.length) ?? Buffer.allocUnsafeSlow(bytes.length));
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

	/** `size` bytes in the current buffer (a new one when it is full), or undefined for a text that gets its own. */
	private reserve(size: number): Buffer | undefined {
		if (size >= OWN_BUFFER_BYTES) return undefined;
		if (!this.slab || this.used + size > this.slab.length) {
			const full = this.slab;
			const unused = full ? full.length - this.used : 0;
			this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
			this.used = 0;
			if (full && this.addWaste(full.buffer, unused) > SLAB_BYTES / 2) this.compact(full.buffer);
		}
		const view = this.slab.subarray(this.used, this.used + size);
		this.used += size;
		return view;
	}

	private addWaste(slab: ArrayBufferLike, bytes: number): number {
		const wasted = (this.wasted.get(slab) ?? 0) + bytes;
		this.wasted.set(slab, wasted);
		return wasted;
	}

	private forget(path: string): void {
		this.dropAligned();
		const view = this.views.get(path);
		if (!view) return;
		this.views.delete(path);
		if (view.length >= OWN_BUFFER_BYTES) return;
		const slab = view.buffer;
		if (this.addWaste(slab, view.length) > SLAB_BYTES / 2 && slab !== this.slab?.buffer) this.compact(slab);
	}

	/** Moves the texts still in a mostly wasted buffer to the current one; the old buffer goes with its last view. */
	private compact(slab: ArrayBufferLike): void {
		this.wasted.delete(slab);
		this.dropAligned();
		for (const [path, view] of this.views) {
			if (view.buffer !== slab) continue;
			const moved = this.reserve(view.length) ?? Buffer.allocUnsafeSlow(view.length);
			view.copy(moved);
			this.views.set(path, moved);
		}
	}
}

/** Plain ASCII `bytes` lower-cased into `target` (as long), every `\r` made a `\n` (`searchableText`'s bytes). */
function writeLowerAscii(bytes: Buffer, target: Buffer): Buffer {
	let lower = bytes.toString("latin1").toLowerCase();
	if (lower.includes("\r")) lower = lower.replace(/\r/g, "\n");
	target.write(lower, 0, "latin1");
	return target;
}
