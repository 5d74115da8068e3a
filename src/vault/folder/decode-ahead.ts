/** Where a region's decoding stands (`DecodedAhead.state`'s one word). */
export const NOT_YET = 0;
export const DECODED = 1;
export const NOT_BASE64 = 2;

/**
 * A base64 region of a saved index's shared bytes that the `StatAhead` worker decodes for this thread while it lists
 * the folder (at 100k notes the stamps and targets lines are megabytes of base64 each). The worker decodes only what
 * `decodeBase64` takes (standard base64, `=` padding at the end alone), so `take` gives exactly what decoding here
 * would; until the worker has decoded it (or with no worker), this thread decodes the region itself.
 */
export class DecodedAhead {
	/** The decoded bytes, from the start of memory of their own (typed arrays of any width view them). */
	readonly into: Uint8Array;
	readonly state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

	private constructor(
		readonly start: number,
		readonly end: number,
		length: number,
	) {
		this.into = new Uint8Array(new SharedArrayBuffer(length));
	}

	/** The region `bytes[start..end)`; undefined when its length cannot be base64. */
	static of(bytes: Uint8Array, start: number, end: number): DecodedAhead | undefined {
		const length = end - start;
		if (start < 0 || end > bytes.length || length < 0 || length % 4 !== 0) return undefined;
		let padding = 0;
		if (length > 0 && bytes[end - 1] === EQUALS) padding = bytes[end - 2] === EQUALS ? 2 : 1;
		return new DecodedAhead(start, end, (length / 4) * 3 - padding);
	}

	/**
	 * The decoded bytes once the worker has decoded the region (copied into memory of their own, from its start);
	 * undefined before, or when it is not base64. A copy: typed arrays over shared memory made `SavedTargets.parse`'s
	 * passes several times slower (at 100k notes 477 ms against 109 ms, profiled), the copy costs about a millisecond.
	 */
	take(): Uint8Array | undefined {
		return Atomics.load(this.state, 0) === DECODED ? this.into.slice() : undefined;
	}
}

const EQUALS = 0x3d;
