/** The package's command that prints the endpoint's current token as headers (`claude-code-bridge mcp-headers`). */
export const HEADERS_HELPER_COMMAND = "mcp-headers";

/** Claude Code's configuration of the HTTP endpoint: no token in it, only the command that fetches the current one. */
export interface HttpServerEntry {
	type: "http";
	url: string;
	headersHelper: string;
}

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
