/** The fixed numbers of the transport: address, sockets, frames, health sweep, token, lock files. Tests and docs refer to these names. */

/** The only address the server binds to. */
export const LOOPBACK_HOST = "127.0.0.1";

/** Sockets open at once; the next upgrade is answered 503. */
export const MAX_CONNECTIONS = 10;

/** Largest incoming WebSocket message; a bigger one closes that socket with 1009. */
export const MAX_INCOMING_MESSAGE_BYTES = 1024 * 1024;

/** Largest outgoing message. The CLI drops anything over 16 MiB and closes the connection. */
export const MAX_OUTGOING_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Every sweep pings each socket and terminates those that did not answer the previous ping. */
export const HEALTH_SWEEP_INTERVAL_MS = 30_000;

/** A sweep that fires this much later than planned means the machine slept: nobody is dropped for it. */
export const HEALTH_SWEEP_LATE_FACTOR = 1.5;

/** An HTTP request that has not sent its headers by then is dropped. */
export const UPGRADE_HEADERS_TIMEOUT_MS = 10_000;

/** Random bytes in the auth token (256 bits). */
export const AUTH_TOKEN_BYTES = 32;

/** Request header that carries the token on the upgrade, as Node lower-cases it. */
export const AUTH_HEADER = "x-claude-code-ide-authorization";

/** The WebSocket subprotocol the CLI offers and requires. */
export const MCP_SUBPROTOCOL = "mcp";

export const LOCK_DIRECTORY_MODE = 0o700;
export const LOCK_FILE_MODE = 0o600;

/** WebSocket close code for a message over MAX_INCOMING_MESSAGE_BYTES (RFC 6455 "message too big"). */
export const CLOSE_MESSAGE_TOO_BIG = 1009;

/** WebSocket close code for sessions ended by a token rotation (policy violation: the old token is void). */
export const CLOSE_TOKEN_ROTATED = 1008;

/** WebSocket close code used when the bridge shuts down. */
export const CLOSE_GOING_AWAY = 1001;
