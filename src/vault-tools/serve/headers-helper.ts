/**
 * The package's `mcp-headers` as Claude Code's `headersHelper`: only for a bridge whose token is the user's own
 * (`CLAUDE_CODE_BRIDGE_MCP_TOKEN`, never written to disk); otherwise `claude-mcp-add.ts`'s helper prints the headers
 * file and needs no Node.
 */
/** The package's command that prints the endpoint's current token as headers (`claude-code-bridge mcp-headers`). */
export const HEADERS_HELPER_COMMAND = "mcp-headers";

import type { HttpServerEntry } from "./claude-mcp-add";

/**
 * Quotes one word of the helper command. Claude Code runs `headersHelper` through a shell (observed with 2.1.330:
 * words split, quotes removed); double quotes with `"`, `\`, `$` and `` ` `` escaped are read alike by POSIX shells,
 * and paths on Windows hold none of them.
 */
function quoteWord(word: string): string {
	return /^[\w./:@%+=,-]+$/.test(word) ? word : `"${word.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

/**
 * The `headersHelper` command: `program` (the package's command, e.g. `["claude-code-bridge"]` or the Node binary
 * and `cli.cjs`) with `mcp-headers --vault DIR --port N`.
 */
export function headersHelperCommand(program: readonly string[], vaultPath: string, port: number): string {
	return [...program, HEADERS_HELPER_COMMAND, "--vault", vaultPath, "--port", String(port)].map(quoteWord).join(" ");
}

export function httpServerEntry(
	url: string,
	program: readonly string[],
	vaultPath: string,
	port: number,
): HttpServerEntry {
	return { type: "http", url, headersHelper: headersHelperCommand(program, vaultPath, port) };
}
