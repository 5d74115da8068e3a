/**
 * Issue 15, finding 3: `^(\w+\s?)+$` over a prose line that ends in punctuation backtracks exponentially (each
 * word can be split into pieces in 2^(letters) ways before `$` fails at the "!"). It never finishes in practice.
 */
export const CATASTROPHIC_QUERY = "^(\\w+\\s?)+$";
export const PROSE_LINE = `${Array.from({ length: 40 }, (_, index) => ["garden", "river", "notes", "summer"][index % 4]).join(" ")}!`;

/** Generous: a search stops itself after its 3 s budget; this only turns a hang into a failure. */
export const SETTLES_WITHIN_MS = 30_000;
