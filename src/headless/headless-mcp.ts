import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { VaultToolsHttpEndpoint, type VaultToolsHttpStatus } from "../vault-tools/serve/http-endpoint";
import {
	ALLOWED_TOOLS_RULE,
	SCOPE_EXPLAINED,
	SERVER_NAME,
	TERMINAL_NAMES,
	TRUST_NEEDED,
	mcpConfigJson,
	serverEntry,
	stdioTerminalCommand,
	terminalCommand,
	terminalsOf,
	type HttpServerEntry,
} from "../vault-tools/serve/claude-mcp-add";
import { httpServerEntry } from "../vault-tools/serve/headers-helper";
import { checkHttpEndpoint, type EndpointFinding } from "./vault-tools-check";
import type { VaultToolServer } from "../vault-tools/serve/vault-tool-server";
import type { HeadlessCommand } from "./command-loop";
import { MCP_TOKEN_ENV, removeLegacyTokenFile } from "./mcp-token-file";

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
	platform?: NodeJS.Platform;
	/** `CLAUDE_CODE_BRIDGE_MCP_TOKEN`, already checked; without it, a new token at every start. */
	fixedToken?: string;
	log?: (message: string) => void;
	/** `--debug`: a client's normal protocol probes too. */
	debug?: (message: string) => void;
}

/**
 * The headless host's MCP side for Claude's vault tools: the HTTP endpoint (a new token at every start, handed to
 * Claude Code by `claude-code-bridge mcp-headers`), and the stdin commands `mcp-config [stdio|http]` (the
 * `claude mcp add` line to paste, and the JSON for one session), `mcp-token rotate` and `mcp-status`.
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
			...(options.debug ? { debug: options.debug } : {}),
		});
	}

	start(): Promise<VaultToolsHttpStatus> {
		removeLegacyTokenFile(this.options.homeDir, this.options.vaultPath);
		return this.endpoint.start();
	}

	stop(): Promise<void> {
		return this.endpoint.stop();
	}

	/** One line for the banner: where the HTTP endpoint listens, or why it is off. */
	statusLine(): string {
		const status = this.endpoint.status();
		if (status.state !== "listening" || !status.url) return `MCP (vault tools) is off: ${this.offReason()}.`;
		if (status.tokenRecordError !== undefined)
			return `MCP (vault tools): ${status.url}, but Claude Code cannot fetch its token: ${status.tokenRecordError}.`;
		const token =
			this.options.fixedToken !== undefined
				? `token from $${MCP_TOKEN_ENV}, fetched by Claude Code with "claude-code-bridge mcp-headers"`
				: "a new token at every start, fetched by Claude Code from a file only you can read";
		return `MCP (vault tools): ${status.url} (${token})`;
	}

	/**
	 * What to paste into a terminal: the one way the settings tab's "Connect to Claude Code" uses (`obsidian`, local
	 * scope, this endpoint), one line per terminal of the platform, and the rule that lets its tools run.
	 */
	addInstructions(): string {
		let lines: string[];
		try {
			lines = this.addLines();
		} catch (error) {
			return `Claude's vault tools: ${error instanceof Error ? error.message : String(error)}`;
		}
		return [
			`Add Claude's vault tools to Claude Code: run this once (${SCOPE_EXPLAINED}):`,
			...lines.map((line) => `  ${line}`),
			`  then let them run without asking: claude --allowedTools "${ALLOWED_TOOLS_RULE}"`,
			`  ${TRUST_NEEDED}`,
		].join("\n");
	}

	/** `{"mcpServers":{"obsidian":{…}}}` for `claude --mcp-config`, on one line. */
	configLine(kind: "stdio" | "http"): string {
		return kind === "http"
			? mcpConfigJson(this.httpEntry())
			: JSON.stringify({ mcpServers: { [SERVER_NAME]: this.stdioEntry() } });
	}

	/** The doctor's lines for the vault tools: the HTTP endpoint as Claude Code reaches it, and the stdio command run once. */
	async doctorFindings(): Promise<EndpointFinding[]> {
		const http = await checkHttpEndpoint({
			status: this.endpoint.status(),
			offCause: this.offCause(),
			homeDir: this.options.homeDir,
			vaultPath: this.options.vaultPath,
			...(this.options.fixedToken !== undefined ? { fixedToken: this.options.fixedToken } : {}),
			offFix: "Start the host with --mcp-port N (a free port).",
		});
		if (http.level !== "ok") return [http];
		return [http, { level: "ok", what: this.addInstructions() }];
	}

	commands(): [string, HeadlessCommand][] {
		return [
			[
				"mcp-config",
				{
					usage: "mcp-config [stdio|http]",
					summary:
						"the claude mcp add line for the vault tools (stdio: the developers' stdio server instead), and the JSON for one session",
					run: (args) => {
						const [kind, ...rest] = args;
						if ((kind !== undefined && kind !== "stdio" && kind !== "http") || rest.length > 0)
							throw new Error("usage: mcp-config [stdio|http]");
						const lines =
							kind === "stdio"
								? [
										`The developers' stdio server (needs Node and this package), under the same name; remove the other entry first (claude mcp remove ${SERVER_NAME} -s local):`,
										`  ${this.stdioAddLine()}`,
									]
								: [this.addInstructions()];
						return [
							...lines,
							`For one session only: claude --mcp-config '<the JSON below>':`,
							this.configLine(kind ?? "http"),
						].join("\n");
					},
				},
			],
			[
				"mcp-token",
				{
					usage: "mcp-token rotate",
					summary:
						"replace the MCP HTTP endpoint's token now (the old one stops working; Claude Code fetches the new one when it reconnects)",
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
					summary: "the MCP HTTP endpoint's state, calls, protocol probes and refusals",
					run: () => {
						const status = this.endpoint.status();
						const last = status.lastCallAt ? `, last at ${status.lastCallAt.toISOString()}` : "";
						const clients = status.clients.map((client) => client.userAgent).join(", ") || "none yet";
						const probes = `${status.probes} protocol probes (a client's GET for a stream, OAuth discovery, a newer protocol version: normal)`;
						return `${this.statusLine()}\n${status.calls} calls${last}; ${probes}; ${status.refused} refused; clients: ${clients}`;
					},
				},
			],
		];
	}

	/** Why the HTTP endpoint is off, naming the holder of a taken port when it is one of ours, and `--mcp-port`. */
	private offReason(): string {
		const cause = this.offCause();
		return this.endpoint.status().portTaken
			? `${cause}. Start with --mcp-port N (a free port) to serve HTTP too`
			: cause;
	}

	/** Why the HTTP endpoint is off, in one clause. */
	private offCause(): string {
		const status = this.endpoint.status();
		if (status.portTaken) return `port ${status.port} is in use by ${status.portHolder ?? "another program"}`;
		return (status.error ?? status.state).replace(/\.\s*$/, "");
	}

	private stdioAddLine(): string {
		const entry = this.stdioEntry();
		const shell = this.platform() === "win32" ? "powershell" : "posix";
		return stdioTerminalCommand([entry.command], entry.args, this.options.vaultPath, shell);
	}

	/** The one way's line for each terminal of the platform (cmd.exe only where the vault's path allows it). */
	private addLines(): string[] {
		const entry = this.httpEntry();
		return terminalsOf(this.platform()).flatMap((shell) => {
			const command = terminalCommand(entry, this.options.vaultPath, shell);
			if (command === undefined) return [];
			return terminalsOf(this.platform()).length > 1 ? [`${TERMINAL_NAMES[shell]}: ${command}`] : [command];
		});
	}

	private platform(): NodeJS.Platform {
		return this.options.platform ?? process.platform;
	}

	private stdioEntry(): { type: "stdio"; command: string; args: string[] } {
		const script = this.cliScript();
		const privacy = [
			...this.options.privateFolders.flatMap((folder) => ["--private-folder", folder]),
			...this.options.privateTags.flatMap((tag) => ["--private-tag", tag]),
		];
		return {
			type: "stdio",
			command: this.options.nodePath,
			args: [script, "mcp", "--vault", this.options.vaultPath, ...privacy],
		};
	}

	private httpEntry(): HttpServerEntry {
		const status = this.endpoint.status();
		if (status.state !== "listening" || !status.url)
			throw new Error(`the MCP HTTP endpoint is off (${this.offReason()})`);
		// The user's own token is never written to disk: Claude Code then gets it from the package's command.
		if (this.options.fixedToken !== undefined)
			return httpServerEntry(
				status.url,
				[this.options.nodePath, this.cliScript()],
				this.options.vaultPath,
				status.port,
			);
		return serverEntry(status.port, this.options.vaultPath, this.platform());
	}

	private cliScript(): string {
		// `npm link` runs the command through a link named claude-code-bridge: what it points to is cli.cjs.
		const script = realPathOr(resolve(this.options.scriptPath));
		const candidate = basename(script) === CLI_SCRIPT ? script : join(dirname(script), CLI_SCRIPT);
		if (!existsSync(candidate))
			throw new Error(`the package's command ${candidate} is missing; run "npm run build" first`);
		return candidate;
	}
}

function realPathOr(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
