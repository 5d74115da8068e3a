import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createVaultToolsHttpServer } from "../vault-tools/serve/http-endpoint";
import type { VaultToolServer } from "../vault-tools/serve/vault-tool-server";
import type { McpHttpServer, McpHttpStatus } from "../server/http/mcp-http-server";
import { describeError } from "../shared/describe-error";
import type { HeadlessCommand } from "./command-loop";
import { McpTokenFile } from "./mcp-token-file";

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
	env?: Record<string, string | undefined>;
	log?: (message: string) => void;
}

/**
 * The headless host's MCP side for Claude's vault tools: the HTTP endpoint with its token file, and the stdin
 * commands `mcp-config [stdio|http]` (one line of JSON for `claude --mcp-config`) and `mcp-token rotate`.
 */
export class HeadlessMcp {
	readonly http: McpHttpServer;
	readonly token: McpTokenFile;

	constructor(private readonly options: HeadlessMcpOptions) {
		this.token = new McpTokenFile(options.homeDir, options.vaultPath, options.env);
		this.http = createVaultToolsHttpServer(options.server, {
			port: options.port,
			token: () => this.currentToken(),
			log: options.log,
		});
	}

	async start(): Promise<McpHttpStatus> {
		try {
			this.token.current();
		} catch (error) {
			this.options.log?.(`No token for the MCP endpoint (every request will get 401): ${describeError(error)}`);
		}
		return this.http.start();
	}

	stop(): Promise<void> {
		return this.http.stop();
	}

	/** One line for the banner. */
	statusLine(): string {
		const status = this.http.status();
		if (status.state === "listening" && status.url) return `MCP (vault tools): ${status.url} (token in ${this.token.source === "file" ? this.token.path : "$CLAUDE_CODE_BRIDGE_MCP_TOKEN"}); "mcp-config" prints Claude Code's configuration`;
		return `MCP (vault tools) over HTTP is off: ${status.error ?? status.state}. "mcp-config stdio" still works.`;
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
					summary: "replace the MCP HTTP endpoint's token (the old one stops working; print the new config with mcp-config http)",
					run: (args) => {
						if (args.length !== 1 || args[0] !== "rotate") throw new Error("usage: mcp-token rotate");
						this.token.rotate();
						return `New token written to ${this.token.path}; the old one no longer works. Run "mcp-config http" for the new configuration.`;
					},
				},
			],
			[
				"mcp-status",
				{
					usage: "mcp-status",
					summary: "the MCP HTTP endpoint's state, calls and refusals",
					run: () => {
						const status = this.http.status();
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

	private httpEntry(): { type: "http"; url: string; headers: { Authorization: string } } {
		const status = this.http.status();
		if (status.state !== "listening" || !status.url) throw new Error(`the MCP HTTP endpoint is off (${status.error ?? status.state}); use "mcp-config stdio"`);
		const token = this.currentToken();
		if (token === undefined) throw new Error("the MCP HTTP endpoint has no token (see the log)");
		return { type: "http", url: status.url, headers: { Authorization: `Bearer ${token}` } };
	}

	private cliScript(): string {
		const script = resolve(this.options.scriptPath);
		const candidate = basename(script) === CLI_SCRIPT ? script : join(dirname(script), CLI_SCRIPT);
		if (!existsSync(candidate)) throw new Error(`the package's command ${candidate} is missing; run "npm run build" first`);
		return candidate;
	}

	private currentToken(): string | undefined {
		try {
			return this.token.current();
		} catch {
			return undefined;
		}
	}
}
