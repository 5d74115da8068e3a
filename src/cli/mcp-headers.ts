import { ArgumentError, parseCommandLine, type OptionSpecs } from "../shared/command-line";
import { MCP_TOKEN_ENV, tokenFromEnvironment } from "../headless/mcp-token-file";
import {
	HttpTokenRecordError,
	readHttpTokenRecord,
	realPath,
	type ReadRecordOptions,
} from "../vault-tools/serve/http-token-record";

export interface McpHeadersArguments {
	vault?: string;
	port?: number;
	help: boolean;
}

export const MCP_HEADERS_USAGE = `Usage: claude-code-bridge mcp-headers --vault DIR --port N

Prints {"Authorization":"Bearer <token>"} for the vault tools' HTTP endpoint on 127.0.0.1:N while a bridge serving
the vault DIR listens there. Claude Code runs it (the server's "headersHelper") whenever it connects, so the token,
new at every start of the bridge, is never kept in Claude Code's configuration. The settings tab and the headless
host's "mcp-config http" give the whole configuration.

Exit code 1 and one line on stderr when no bridge serves the vault on that port (nothing is printed on stdout);
2 for a bad option or environment value.`;

const OPTIONS = {
	vault: { kind: "text" },
	port: { kind: "port" },
	help: { kind: "flag", short: "h" },
} as const satisfies OptionSpecs;

export function parseMcpHeadersArguments(argv: readonly string[]): McpHeadersArguments {
	const options = parseCommandLine(argv, OPTIONS);
	const parsed: McpHeadersArguments = { help: options.help };
	if (options.vault !== undefined) parsed.vault = options.vault;
	if (options.port !== undefined) parsed.port = options.port;
	if (parsed.help) return parsed;
	if (parsed.vault === undefined)
		throw new ArgumentError("--vault DIR is required: the vault whose endpoint Claude Code connects to");
	if (parsed.port === undefined) throw new ArgumentError("--port N is required: the endpoint's port, as in its URL");
	return parsed;
}

/** No token to give: no live bridge of this user serves the vault on that port. One line, never holding a token. */
export class NoTokenError extends Error {}

/**
 * The headers for the endpoint on `port`, as one line of JSON: the token from the running bridge's record, or, when
 * that bridge uses the user's own token, from `CLAUDE_CODE_BRIDGE_MCP_TOKEN` in this process's environment.
 * `env` is checked first (a bad value is the caller's input error, thrown as `McpTokenEnvironmentError`).
 */
export function mcpHeadersLine(
	vaultPath: string,
	port: number,
	homeDir: string,
	env: Record<string, string | undefined>,
	options: ReadRecordOptions = {},
): string {
	const ownToken = tokenFromEnvironment(env);
	let record;
	try {
		record = readHttpTokenRecord(homeDir, port, options);
	} catch (error) {
		if (error instanceof HttpTokenRecordError)
			throw new NoTokenError(
				`No token for http://127.0.0.1:${port}/mcp: ${error.message}. Start Obsidian (or claude-code-bridge serve) for the vault.`,
			);
		throw error;
	}
	const vault = realPath(vaultPath);
	if (record.vault !== vault)
		throw new NoTokenError(
			`No token for http://127.0.0.1:${port}/mcp: that port serves the vault ${record.vault}, not ${vault}.`,
		);
	const token = record.token ?? ownToken;
	if (token === undefined)
		throw new NoTokenError(
			`No token for http://127.0.0.1:${port}/mcp: the bridge uses its own token from ${MCP_TOKEN_ENV}; set the same value for Claude Code.`,
		);
	return JSON.stringify({ Authorization: `Bearer ${token}` });
}
