/**
 * A one-line description of anything thrown. Checks shape rather than `instanceof Error`, which
 * fails for errors made in another realm (Node's fs errors under a test VM, Electron contexts).
 */
export function describeError(error: unknown): string {
	if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
		return error.message;
	}
	return String(error);
}

/** The stack trace of anything thrown when it has one (for a crash report), else `describeError`. */
export function errorStack(error: unknown): string {
	if (typeof error === "object" && error !== null && "stack" in error && typeof error.stack === "string")
		return error.stack;
	return describeError(error);
}
