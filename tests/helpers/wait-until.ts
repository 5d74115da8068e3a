/**
 * Waiting for something to happen in another process or on a socket. The timeout only turns a hang into a
 * clear failure; nothing here measures time, and none of it can show that something did NOT happen (for
 * that, use a fence such as a ping round trip, or an injected clock).
 */
import { WAIT_TIMEOUT_MS } from "./fixture-timeout";

export interface PollOptions {
	/** Default WAIT_TIMEOUT_MS (20 s: sized for a loaded machine). */
	timeoutMs?: number;
	/** Default 10 ms. */
	intervalMs?: number;
}

/** Calls `probe` (sync or async) until it returns something other than `undefined`, and returns that. */
export async function pollUntil<T>(
	probe: () => T | undefined | Promise<T | undefined>,
	what: string | (() => string),
	options: PollOptions = {},
): Promise<T> {
	const timeoutMs = options.timeoutMs ?? WAIT_TIMEOUT_MS;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() >= deadline) {
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`);
		}
		await pause(options.intervalMs ?? 10);
	}
}

/** Waits until `condition()` (sync or async) is true. */
export async function waitUntil(
	condition: () => boolean | Promise<boolean>,
	what: string | (() => string),
	options: PollOptions = {},
): Promise<void> {
	await pollUntil(async () => ((await condition()) ? true : undefined), what, options);
}

/** A pause for pacing (e.g. keystrokes to a terminal program), never as proof that something did not happen. */
export function pause(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
