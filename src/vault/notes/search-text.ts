/**
 * What text search scans: a note's text lower-cased with every UTF-16 offset kept (`sameLengthLowerCase`), as
 * UTF-8 bytes in a buffer of its own. About one byte a character for prose, outside the JavaScript heap, so an
 * index can keep every note's copy without keeping the note's text.
 */
export function searchTextOf(text: string): Buffer {
	const lower = sameLengthLowerCase(text);
	// Not from Node's shared pool: a small note's slice would keep a whole pool slab alive.
	const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(lower, "utf8"));
	bytes.write(lower, 0, "utf8");
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
