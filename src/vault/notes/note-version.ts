import { createHash } from "node:crypto";

/** A short fingerprint of a note's text: `read_note` reports it, `edit_note {version}` compares it. */
export function noteVersion(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("base64url").slice(0, 12);
}
