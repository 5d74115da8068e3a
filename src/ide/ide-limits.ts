/** The IDE features' fixed numbers (timing of context sent to Claude Code, read and listing caps). Tests and docs refer to these names. */

/** Quiet time before a selection change is sent, unless the selection gesture ends first. */
export const SELECTION_DEBOUNCE_MS = 100;

/**
 * Wait after a client's `ide_connected` before sending it the current note and any queued tags: the CLI registers
 * its handlers a moment after the handshake and drops what arrives before (lost at 0–20 ms, kept at 100–300 ms on a
 * quiet machine; the CLI notes advise 500 ms or more). At 300 ms a tag queued before connecting was lost once in the
 * end-to-end suite on a loaded 2-core machine, so the wait leaves the CLI's start-up room to spare.
 */
export const CLIENT_WELCOME_DELAY_MS = 1000;

/** Tags made while no client is connected are kept this many at most (oldest dropped) ... */
export const MAX_QUEUED_MENTIONS = 20;

/** ... and for this long. */
export const QUEUED_MENTION_TTL_MS = 5 * 60_000;

/** Gap between queued tags sent to a client that just connected, so each lands in the prompt in order. */
export const QUEUED_MENTION_SPACING_MS = 25;

/** Largest file `files/read` and `resources/read` return; bigger ones are refused, never truncated. */
export const MAX_READ_FILE_BYTES = 10 * 1024 * 1024;

/** Resources per `resources/list` page. */
export const RESOURCES_PAGE_SIZE = 500;
