import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { VaultToolsHttpEndpoint, type VaultToolsHttpStatus } from "../vault-tools/serve/http-endpoint";
import { httpServerEntry, type HttpServerEntry } from "../vault-tools/serve/headers-helper";
import type { VaultToolServer } from "../vault-tools/serve/vault-tool-server";
import type { HeadlessCommand } from "./command-loop";
import { MCP_TOKEN_ENV, removeLegacyTokenFile } from "./mcp-token-file";

/** The server name in the printed configuration: tools appear to the model as `mcp__obsidian__<tool>`. */
export const MCP_SERVER_NAME = "obsidian";

/** The package's command (`bin`), built next to the headless host: `node dist/cli.cjs mcp --vault DIR`. */
const CLI_SCRIPT = "cli.cjs";

export interface HeadlessMcpOptions {
	/** Absolute vault folder. */
	vaultPath: string;
	server: VaultToolServer;
	/** The HTTP endpoint's port (fixed per vault). */
	port: number;
	homeDir: string;
	/** The host's privacy options, passed on to the stdio server so its folder fallback hides the same notes. */
	privateFolders: readonly string[];
	privateTags: readonly string[];
	/** The running script (`process.argv[1]`): the stdio command is the package's `cli.cjs` beside it. */
	scriptPath: string;
	/** The Node binary (`process.execPath`), so the command works without a global install. */
	nodePath: string;
	/** `CLAUDE_CODE_BRIDGE_MCP_TOKEN`, already checked; without it, a new token at every start. */
	fixedToken?: string;
	log?: (message: string) => void;
}

/**
 * The headless host's MCP side for Claude's vault tools: the HTTP endpoint (a new token at every start, handed to
 * Claude Code by `claude-code-bridge mcp-headers`), and the stdin commands `mcp-config [stdio|http]` (one line of
 * JSON for `claude --mcp-config` or `claude mcp add-json`), `mcp-token rotate` and `mcp-status`.
 */
export class HeadlessMcp {
	readonly endpoint: VaultToolsHttpEndpoint;

	constructor(private readonly options: HeadlessMcpOptions) {
		this.endpoint = new VaultToolsHttpEndpoint(options.server, {
			port: options.port,
			homeDir: options.homeDir,
			vaultPath: options.vaultPath,
			...(options.fixedToken !== undefined ? { fixedToken: options.fixedToken } : {}),
			...(options.log ? { log: options.log } : {}),
		});
	}

	start(): Promise<VaultToolsHttpStatus> {
		removeLegacyTokenFile(this.options.homeDir, this.options.vaultPath);
		return this.endpoint.start();
	}

	stop(): Promise<void> {
		return this.endpoint.stop();
	}

	/** One line for the banner. */
	statusLine(): string {
		const status = this.endpoint.status();
		if (status.state !== "listening" || !status.url) return `MCP (vault tools) over HTTP is off: ${status.error ?? status.state}. "mcp-config stdio" still works.`;
		if (status.tokenRecordError !== undefined) return `MCP (vault tools): ${status.url}, but Claude Code cannot fetch its token: ${status.tokenRecordError}. "mcp-config stdio" still works.`;
		const token = this.options.fixedToken !== undefined ? `token from $${MCP_TOKEN_ENV}` : "a new token at every start";
		return `MCP (vault tools): ${status.url} (${token}, fetched by Claude Code with "claude-code-bridge mcp-headers"); "mcp-config" prints Claude Code's configuration`;
	}

	/** `{"mcpServers":{"obsidian":{…}}}` for `claude --mcp-config`, on one line. */
	configLine(kind: "stdio" | "http"): string {
		return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: kind === "http" ? this.httpEntry() : this.stdioEntry() } });
	}

	commands(): [string, HeadlessCommand][] {
		return [
			[
				"mcp-config",
				{
					usage: "mcp-config [stdio|http]",
					summary: "print Claude Code's MCP configuration for the vault tools (one line of JSON for --mcp-config)",
					run: (args) => {
						const [kind = "stdio", ...rest] = args;
						if ((kind !== "stdio" && kind !== "http") || rest.length > 0) throw new Error("usage: mcp-config [stdio|http]");
						return this.configLine(kind);
					},
				},
			],
			[
				"mcp-token",
				{
					usage: "mcp-token rotate",
					summary: "replace the MCP HTTP endpoint's token now (the old one stops working; Claude Code fetches the new one when it reconnects)",
					run: (args) => {
						if (args.length !== 1 || args[0] !== "rotate") throw new Error("usage: mcp-token rotate");
						this.endpoint.rotate();
						return "New token for the MCP HTTP endpoint; the old one no longer works. Claude Code's configuration stays the same: it fetches the new token when it reconnects.";
					},
				},
			],
			[
				"mcp-status",
				{
					usage: "mcp-status",
					summary: "the MCP HTTP endpoint's state, calls and refusals",
					run: () => {
						const status = this.endpoint.status();
						const last = status.lastCallAt ? `, last at ${status.lastCallAt.toISOString()}` : "";
						const clients = status.clients.map((client) => client.userAgent).join(", ") || "none yet";
						return `${this.statusLine()}\n${status.calls} calls${last}; ${status.refused} refused; clients: ${clients}`;
					},
				},
			],
		];
	}

	private stdioEntry(): { type: "stdio"; command: string; args: string[] } {
		const script = this.cliScript();
		const privacy = [...this.options.privateFolders.flatMap((folder) => ["--private-folder", folder]), ...this.options.privateTags.flatMap((tag) => ["--private-tag", tag])];
		return { type: "stdio", command: this.options.nodePath, args: [script, "mcp", "--vault", this.options.vaultPath, ...privacy] };
	}

	private httpEntry(): HttpServerEntry {
		const status = this.endpoint.status();
		if (status.state !== "listening" || !status.url) throw new Error(`the MCP HTTP endpoint is off (${status.error ?? status.state}); use "mcp-config stdio"`);
		return httpServerEntry(status.url, [this.options.nodePath, this.cliScript()], this.options.vaultPath, status.port);
	}

	private cliScript(): string {
		const script = resolve(this.options.scriptPath);
		const candidate = basename(script) === CLI_SCRIPT ? script : join(dirname(script), CLI_SCRIPT);
		if (!existsSync(candidate)) throw new Error(`the package's command ${candidate} is missing; run "npm run build" first`);
		return candidate;
	}
}
