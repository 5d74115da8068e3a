/** Largest POST body the MCP endpoint reads (1 MiB); a bigger one gets 413 unread. */
export const MAX_HTTP_BODY_BYTES = 1024 * 1024;

/**
 * A call still running after this long is aborted and answered, under Claude Code's own 60 s limit for HTTP MCP
 * calls, so the model hears what happened (a write waiting for review is withdrawn, never applied later).
 */
export const HTTP_CALL_LIMIT_MS = 55_000;

/** Time for a client to send its headers, and then its whole body. */
export const HTTP_HEADERS_TIMEOUT_MS = 10_000;
export const HTTP_BODY_TIMEOUT_MS = 30_000;
