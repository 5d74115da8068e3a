/**
 * What text search scans: a note's text lower-cased with every UTF-16 offset kept (`sameLengthLowerCase`), as
 * UTF-8 bytes in a buffer of its own. About one byte a character for prose, outside the JavaScript heap, so an
 * index can keep every note's copy without keeping the note's text.
 */
export function searchTextOf(text: string): Buffer {
	return utf8Bytes(searchableText(text));
}

/**
 * The text a search text is made of: lower-cased, and every `\r` (alone or before `\n`) made a `\n`, so that a
 * line's bounds are found by looking for `\n` alone. Offsets are kept, and no search word holds a line end.
 */
export function searchableText(text: string): string {
	const lower = sameLengthLowerCase(text);
	return lower.includes("\r") ? lower.replace(/\r/g, "\n") : lower;
}

/** The text as UTF-8 in a buffer of its own (not from Node's shared pool: a small slice would keep a whole pool slab alive). */
export function utf8Bytes(text: string): Buffer {
	const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, "utf8"));
	bytes.write(text, 0, "utf8");
	return bytes;
}

/** Lower case with every offset kept (a few characters, like "İ", grow when lower-cased: those stay as they are). */
export function sameLengthLowerCase(text: string): string {
	const lower = text.toLowerCase();
	if (lower.length === text.length) return lower;
	return Array.from(text, (character) => {
		const lowered = character.toLowerCase();
		return lowered.length === character.length ? lowered : character;
	}).join("");
}

/**
 * `searchableText(text)` as UTF-8 in the buffer `into(size)` gives (exactly `size` bytes), for a plain-ASCII text:
 * the text is written as it is and lower-cased there, so no lower-cased copy is made on the heap (over every note
 * of a large vault those copies were most of what the garbage collector was given while texts were kept).
 * Undefined for any other text: the caller makes it from `searchableText`.
 */
export function writeAsciiSearchText(text: string, into: (size: number) => Buffer): Buffer | undefined {
	// Only ASCII takes as many UTF-8 bytes as UTF-16 units.
	if (Buffer.byteLength(text, "utf8") !== text.length) return undefined;
	const bytes = into(text.length);
	bytes.write(text, 0, "latin1");
	lowerAsciiInPlace(bytes);
	return bytes;
}

/** Lower-cases ASCII `bytes` in place (`A`–`Z` only) and makes every `\r` a `\n`, four bytes at a time where aligned. */
export function lowerAsciiInPlace(bytes: Uint8Array): void {
	const end = bytes.length;
	const aligned = Math.min(end, (4 - (bytes.byteOffset & 3)) & 3);
	for (let index = 0; index < aligned; index++) bytes[index] = lowerAsciiByte(bytes[index] ?? 0);
	const words = (end - aligned) >>> 2;
	if (words > 0) {
		const view = new Uint32Array(bytes.buffer, bytes.byteOffset + aligned, words);
		for (let word = 0; word < words; word++) {
			const value = view[word] ?? 0;
			// Per byte (each below 0x80, so no carry crosses bytes): bit 7 of b + 0x3f is set from 'A' on, of b + 0x25
			// from after 'Z' on; an upper-case letter has the first and not the second, and gains 0x20.
			const upper = (value + 0x3f3f3f3f) & ~(value + 0x25252525) & 0x80808080;
			if (upper !== 0) view[word] = value | (upper >>> 2);
		}
	}
	for (let index = aligned + words * 4; index < end; index++) bytes[index] = lowerAsciiByte(bytes[index] ?? 0);
	// Every \r (13) a \n (10).
	for (let index = bytes.indexOf(13); index >= 0; index = bytes.indexOf(13, index + 1)) bytes[index] = 10;
}

function lowerAsciiByte(byte: number): number {
	return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}
