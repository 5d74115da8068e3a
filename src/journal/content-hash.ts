import { createHash } from "node:crypto";

/** The SHA-256 of a note's bytes, hex: names its pre-image in the store and tells whether it changed since. */
export function contentHash(bytes: Uint8Array): string {
	return createHash("sha256").update(bytes).digest("hex");
}

/** Whether two byte strings are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
	return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
