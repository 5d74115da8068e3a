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
