import { SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol/mcp-types";
import { createAuthToken } from "../../server/auth";
import { McpHttpServer, type McpHttpServerOptions, type McpHttpStatus } from "../../server/http/mcp-http-server";
import { describeError } from "../../shared/describe-error";
import { removeHttpTokenRecord, writeHttpTokenRecord, realPath } from "./http-token-record";
import { ourPortHolder } from "./port-holder";
import type { VaultToolServer } from "./vault-tool-server";

/** The session id HTTP calls carry: stateless HTTP cannot tell clients apart. */
export const VAULT_TOOLS_HTTP_SESSION = 0;

/** Set it to give the HTTP endpoint a token of your own; it is then the same at every start (see SECURITY.md). */
export const HTTP_TOKEN_ENV = "CLAUDE_CODE_BRIDGE_MCP_TOKEN";

export type VaultToolsHttpOptions = Omit<McpHttpServerOptions, "handle" | "protocolVersions">;

/**
 * The vault tools on `POST http://127.0.0.1:<port>/mcp`: every message answered by a fresh `McpSession` of the same
 * server (stateless), aborted when the client goes away. `token` is a source, read per request.
 */
export function createVaultToolsHttpServer(server: VaultToolServer, options: VaultToolsHttpOptions): McpHttpServer {
	return new McpHttpServer({
		...options,
		protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
		handle: (body, signal) => server.answer(body, VAULT_TOOLS_HTTP_SESSION, signal),
	});
}

export interface VaultToolsHttpEndpointOptions extends Omit<VaultToolsHttpOptions, "token"> {
	/** Where the token record goes (`~/.claude-code-bridge/mcp-tokens/<port>.json`). */
	homeDir: string;
	vaultPath: string;
	/** The user's own token (`CLAUDE_CODE_BRIDGE_MCP_TOKEN`): used at every start instead of a new one, never written. */
	fixedToken?: string;
	pid?: number;
}

export interface VaultToolsHttpStatus extends McpHttpStatus {
	/** Why `claude-code-bridge mcp-headers` cannot hand out the token (the record could not be written). */
	tokenRecordError?: string;
	/** Who holds the port when it is taken by one of ours (another bridge: its pid, and its vault or `/ide` name). */
	portHolder?: string;
}

/**
 * The vault tools' HTTP endpoint with a token that lives for one start: a new one each time it starts listening
 * (and on `rotate()`), published in the token record for `claude-code-bridge mcp-headers` only while it listens,
 * withdrawn when it stops. Whatever a program holding the port while the endpoint was off collects from clients
 * opens nothing after the next start; the token is never logged.
 */
export class VaultToolsHttpEndpoint {
	private readonly http: McpHttpServer;
	private token: string | undefined;
	private publishedPort: number | undefined;
	private recordError: string | undefined;
	private portHolder: string | undefined;
	/** Bumped by every stop: a start that finishes after a stop publishes nothing. */
	private generation = 0;

	constructor(
		server: VaultToolServer,
		private readonly options: VaultToolsHttpEndpointOptions,
	) {
		this.http = createVaultToolsHttpServer(server, { ...httpOptions(options), token: () => this.token });
	}

	/** Listens with a new token and publishes it; a taken port is in the status, never thrown. */
	async start(): Promise<VaultToolsHttpStatus> {
		const generation = this.generation;
		const token = this.options.fixedToken ?? createAuthToken();
		this.token = token;
		const status = await this.http.start();
		if (generation !== this.generation) return this.status();
		if (status.state !== "listening") {
			this.token = undefined;
			this.portHolder = status.portTaken ? await ourPortHolder(this.options.homeDir, status.port) : undefined;
			return this.status();
		}
		this.portHolder = undefined;
		try {
			this.publish(status.port);
		} catch (error) {
			this.recordError = describeError(error);
			this.options.log?.(`Claude Code cannot fetch the token of the HTTP endpoint: ${this.recordError}`);
		}
		return this.status();
	}

	/** Withdraws the token record, then closes the port. Safe to call twice. */
	async stop(): Promise<void> {
		this.generation++;
		this.withdrawNow();
		await this.http.stop();
		this.token = undefined;
	}

	/** A new token at once; the old one gets 401 from the next request on. Claude Code fetches the new one on its next connect. */
	rotate(): void {
		if (this.options.fixedToken !== undefined)
			throw new Error(`the token is the one set in ${HTTP_TOKEN_ENV}; change it there`);
		const status = this.http.status();
		if (status.state !== "listening") throw new Error("the HTTP endpoint is not listening");
		const token = createAuthToken();
		this.publish(status.port, token);
		this.token = token;
	}

	/** Removes the token record now (synchronous, for a process that is exiting). */
	withdrawNow(): void {
		if (this.publishedPort === undefined) return;
		removeHttpTokenRecord(this.options.homeDir, this.publishedPort, this.pid());
		this.publishedPort = undefined;
	}

	status(): VaultToolsHttpStatus {
		const status: VaultToolsHttpStatus = this.http.status();
		if (this.recordError !== undefined && status.state === "listening") status.tokenRecordError = this.recordError;
		if (this.portHolder !== undefined && status.portTaken) {
			status.portHolder = this.portHolder;
			status.error = `Port ${status.port} is in use by ${this.portHolder}; the MCP endpoint is off. Choose another port, or stop that bridge.`;
		}
		return status;
	}

	private publish(port: number, token = this.token): void {
		this.recordError = undefined;
		const fromEnvironment = this.options.fixedToken !== undefined;
		writeHttpTokenRecord(this.options.homeDir, {
			pid: this.pid(),
			port,
			vault: realPath(this.options.vaultPath),
			...(fromEnvironment || token === undefined ? {} : { token }),
		});
		this.publishedPort = port;
	}

	private pid(): number {
		return this.options.pid ?? process.pid;
	}
}

function httpOptions(options: VaultToolsHttpEndpointOptions): Omit<VaultToolsHttpOptions, "token"> {
	const { homeDir, vaultPath, fixedToken, pid, ...http } = options;
	return http;
}
