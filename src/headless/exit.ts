/**
 * Exit codes of the package's commands (`claude-code-bridge serve|mcp|mcp-headers`, `npm start`):
 * 2: a bad argument or environment value, or a vault or home folder it cannot use; nothing was started.
 * 1: `mcp-headers` has no token to give (no bridge serves that port), or an unexpected error.
 * Either way, stderr gets exactly one line saying why, never a stack trace.
 */
export const EXIT_BAD_INPUT = 2;
export const EXIT_FAILED = 1;

/** Writes `message` as one line on stderr and exits. */
export function exitWith(code: number, message: string): never {
	process.stderr.write(`${message.replace(/\s*\n\s*/g, " ").trim()}\n`);
	process.exit(code);
}
