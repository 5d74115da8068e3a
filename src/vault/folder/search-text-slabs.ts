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
	/** The last `aligned` answer; dropped when a search text is made, moved or forgotten (it would keep old buffers). */
	private alignedTexts: { paths: readonly string[]; texts: (Buffer | undefined)[] } | undefined;

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
		this.alignedTexts = undefined;
		return view;
	}

	/**
	 * The search texts of `paths`, position by position (a search over every note: one array read a note instead
	 * of a map lookup, a tenth of a search over 100k notes). The same array again while nothing changed.
	 */
	aligned(paths: readonly string[]): readonly (Buffer | undefined)[] {
		if (this.alignedTexts?.paths === paths) return this.alignedTexts.texts;
		const texts = paths.map((path) => this.get(path));
		// A note that could not be read is tried again next time, as `get` would.
		if (!texts.includes(undefined)) this.alignedTexts = { paths, texts };
		return texts;
	}

	dispose(): void {
		this.unsubscribe();
		this.views.clear();
		this.alignedTexts = undefined;
		this.wasted.clear();
		this.slab = undefined;
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
		let lower = bytes.toString("latin1").toLowerCase();
		if (lower.includes("\r")) lower = lower.replace(/\r/g, "\n");
		const view = this.reserve(bytes.length) ?? Buffer.allocUnsafeSlow(bytes.length);
		view.write(lower, 0, "latin1");
		return view;
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
		this.alignedTexts = undefined;
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
		this.alignedTexts = undefined;
		for (const [path, view] of this.views) {
			if (view.buffer !== slab) continue;
			const moved = this.reserve(view.length) ?? Buffer.allocUnsafeSlow(view.length);
			view.copy(moved);
			this.views.set(path, moved);
		}
	}
}
