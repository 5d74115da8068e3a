import { isAscii } from "node:buffer";
import { lowerAsciiInPlace, searchableText, utf8Bytes, writeAsciiSearchText } from "./search-text";

/** The size of one shared buffer. */
const SLAB_BYTES = 4 * 1024 * 1024;
/** The most `reserveAhead` puts in one buffer. */
const MAX_AHEAD_BYTES = 512 * 1024 * 1024;
/** A search text this long gets a buffer of its own. */
export const OWN_BUFFER_BYTES = SLAB_BYTES / 4;

/**
 * Search texts (`searchTextOf`) kept by note path in a few large buffers rather than one buffer a note (each buffer
 * costs a few hundred bytes of bookkeeping, and every new one outside the heap counts towards the next garbage
 * collection: 100k notes, 100k buffers made a cold search mostly collection). A note's old text stays in its buffer
 * as waste until more than half of that buffer is waste (checked when a text leaves a full buffer, and when the
 * current one is full); then the texts still in it move to the current one, and `moved` is called.
 */
export class SearchTextShelf {
	private readonly views = new Map<string, Buffer>();
	private slab: Buffer | undefined;
	private used = 0;
	/** Bytes no longer used, per full buffer. */
	private readonly wasted = new Map<ArrayBufferLike, number>();

	constructor(private readonly moved: () => void = () => undefined) {}

	/** The kept search text of the note; undefined when none is kept. */
	get(path: string): Buffer | undefined {
		return this.views.get(path);
	}

	/**
	 * Keeps the search text of the note's text (in place of any kept before). `inPlace`: a plain-ASCII text is
	 * lower-cased in its buffer rather than copied lower-cased on the heap first, about twice the CPU of the native
	 * lower-casing but no garbage the size of the text: for texts kept in the background on a thread whose collector
	 * pauses are the user's (Obsidian's main thread, where a search's texts are kept while a full collection is under
	 * way and V8 has the marking done in steps paid for by what is allocated).
	 */
	keepText(path: string, text: string, inPlace = false): Buffer {
		this.forget(path);
		const view =
			(inPlace
				? writeAsciiSearchText(text, (size) => this.reserve(size) ?? Buffer.allocUnsafeSlow(size))
				: undefined) ?? this.place(searchableText(text));
		this.views.set(path, view);
		return view;
	}

	/**
	 * Keeps the search text of the note's bytes (its file, UTF-8), in place of any kept before. `inPlace`: plain-ASCII
	 * bytes are copied and lower-cased in their buffer, with no string on the heap (as `keepText`'s).
	 */
	keepBytes(path: string, bytes: Buffer, inPlace = false): Buffer {
		this.forget(path);
		const target = (size: number): Buffer => this.reserve(size) ?? Buffer.allocUnsafeSlow(size);
		const view = !isAscii(bytes)
			? this.place(searchableText(bytes.toString("utf8")))
			: inPlace
				? lowerAsciiCopy(bytes, target(bytes.length))
				: writeLowerAscii(bytes, target(bytes.length));
		this.views.set(path, view);
		return view;
	}

	/**
	 * Makes room for about `bytes` of texts about to be kept in one buffer, when that is more than a buffer holds:
	 * one allocation outside the heap instead of one every 4 MB (each counts towards the next garbage collection,
	 * which over a large heap is the cost of a first search). Texts that do not fit go to buffers of the usual size.
	 */
	reserveAhead(wanted: number): void {
		const bytes = Math.min(wanted, MAX_AHEAD_BYTES);
		const free = this.slab ? this.slab.length - this.used : 0;
		if (bytes <= Math.max(free, SLAB_BYTES)) return;
		const full = this.slab;
		this.slab = Buffer.allocUnsafeSlow(bytes);
		this.used = 0;
		if (full && this.addWaste(full.buffer, free) > full.buffer.byteLength / 2) this.compact(full.buffer);
	}

	/** Drops the note's kept text; its bytes are waste in their buffer from now on. */
	forget(path: string): void {
		const view = this.views.get(path);
		if (!view) return;
		this.views.delete(path);
		if (view.length >= OWN_BUFFER_BYTES) return;
		const slab = view.buffer;
		if (this.addWaste(slab, view.length) > slab.byteLength / 2 && slab !== this.slab?.buffer) this.compact(slab);
	}

	clear(): void {
		this.views.clear();
		this.wasted.clear();
		this.slab = undefined;
		this.used = 0;
	}

	private place(text: string): Buffer {
		const size = Buffer.byteLength(text, "utf8");
		const view = this.reserve(size);
		if (!view) return utf8Bytes(text);
		view.write(text, 0, "utf8");
		return view;
	}

	/**
	 * `size` bytes in the current buffer (a new one when it is full), or undefined for a text that gets its own. A
	 * loop: the texts a compaction moves into the new buffer may fill it past the room (from a buffer `reserveAhead`
	 * made, hundreds of megabytes, they fill buffer after buffer).
	 */
	private reserve(size: number): Buffer | undefined {
		if (size >= OWN_BUFFER_BYTES) return undefined;
		while (!this.slab || this.used + size > this.slab.length) {
			const full = this.slab;
			const unused = full ? full.length - this.used : 0;
			this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
			this.used = 0;
			if (full && this.addWaste(full.buffer, unused) > full.buffer.byteLength / 2) this.compact(full.buffer);
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

	/** Moves the texts still in a mostly wasted buffer to the current one; the old buffer goes with its last view. */
	private compact(slab: ArrayBufferLike): void {
		this.wasted.delete(slab);
		this.moved();
		for (const [path, view] of this.views) {
			if (view.buffer !== slab) continue;
			const moved = this.reserve(view.length) ?? Buffer.allocUnsafeSlow(view.length);
			view.copy(moved);
			this.views.set(path, moved);
		}
	}
}

/** Plain ASCII `bytes` lower-cased into `target` (as long), every `\r` made a `\n` (`searchableText`'s bytes). */
export function writeLowerAscii(bytes: Buffer, target: Buffer): Buffer {
	let lower = bytes.toString("latin1").toLowerCase();
	if (lower.includes("\r")) lower = lower.replace(/\r/g, "\n");
	target.write(lower, 0, "latin1");
	return target;
}

/** Plain ASCII `bytes` copied into `target` (as long) and lower-cased there (`writeLowerAscii`'s bytes, no string made). */
function lowerAsciiCopy(bytes: Buffer, target: Buffer): Buffer {
	bytes.copy(target);
	lowerAsciiInPlace(target);
	return target;
}
