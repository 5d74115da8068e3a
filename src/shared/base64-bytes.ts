/** Each byte's 6-bit value in standard base64 (A–Z, a–z, 0–9, `+`, `/`); `INVALID` for any other byte. */
const VALUES = new Uint8Array(256).fill(0xff);
const INVALID = 0xc0;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
for (let at = 0; at < ALPHABET.length; at++) VALUES[ALPHABET.charCodeAt(at)] = at;
const EQUALS = 0x3d;

/**
 * Decodes the standard base64 in `bytes[start..end)` (a length that is a multiple of 4, `=` padding only at its end)
 * into new memory of its own (its buffer starts at 0, so typed arrays of any width view it without a copy); undefined
 * when the bytes are anything else. Reads the bytes where they are: no string of the base64 is made (at 100k notes a
 * saved index's stamps and targets are megabytes of it).
 */
export function decodeBase64(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
	const length = end - start;
	if (start < 0 || end > bytes.length || length < 0 || length % 4 !== 0) return undefined;
	let padding = 0;
	if (length > 0 && bytes[end - 1] === EQUALS) padding = bytes[end - 2] === EQUALS ? 2 : 1;
	const decoded = new Uint8Array((length / 4) * 3 - padding);
	const whole = padding > 0 ? end - 4 : end;
	let to = 0;
	for (let from = start; from < whole; from += 4) {
		const a = VALUES[bytes[from] ?? 0] ?? 0xff;
		const b = VALUES[bytes[from + 1] ?? 0] ?? 0xff;
		const c = VALUES[bytes[from + 2] ?? 0] ?? 0xff;
		const d = VALUES[bytes[from + 3] ?? 0] ?? 0xff;
		if (((a | b | c | d) & INVALID) !== 0) return undefined;
		const word = (a << 18) | (b << 12) | (c << 6) | d;
		decoded[to++] = word >>> 16;
		decoded[to++] = (word >>> 8) & 0xff;
		decoded[to++] = word & 0xff;
	}
	if (padding > 0) {
		const a = VALUES[bytes[whole] ?? 0] ?? 0xff;
		const b = VALUES[bytes[whole + 1] ?? 0] ?? 0xff;
		const c = padding === 1 ? (VALUES[bytes[whole + 2] ?? 0] ?? 0xff) : 0;
		if (((a | b | c) & INVALID) !== 0) return undefined;
		const word = (a << 18) | (b << 12) | (c << 6);
		decoded[to++] = word >>> 16;
		if (padding === 1) decoded[to++] = (word >>> 8) & 0xff;
	}
	return decoded;
}
