import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { AUTH_TOKEN_BYTES } from "./limits";

/** Longest header value worth comparing; anything longer is refused unread. */
const MAX_PRESENTED_TOKEN_LENGTH = 512;

export function createAuthToken(): string {
	return randomBytes(AUTH_TOKEN_BYTES).toString("hex");
}

/**
 * Constant-time comparison. Both sides are hashed first so that the comparison takes the same
 * time whatever the length of the presented value.
 */
export function isAuthorised(expected: string, presented: string | string[] | undefined): boolean {
	if (typeof presented !== "string" || presented.length === 0 || presented.length > MAX_PRESENTED_TOKEN_LENGTH) {
		return false;
	}
	const expectedDigest = createHash("sha256").update(expected, "utf8").digest();
	const presentedDigest = createHash("sha256").update(presented, "utf8").digest();
	return timingSafeEqual(expectedDigest, presentedDigest);
}

/** A short, non-secret label for a token, safe to show in the UI and logs. */
export function tokenFingerprint(token: string): string {
	return createHash("sha256").update(token, "utf8").digest("hex").slice(0, 8);
}
