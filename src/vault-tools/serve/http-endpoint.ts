import { SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol/mcp-types";
import { McpHttpServer, type McpHttpServerOptions } from "../../server/http/mcp-http-server";
import type { VaultToolServer } from "./vault-tool-server";

/** The session id HTTP calls carry: stateless HTTP cannot tell clients apart. */
export const VAULT_TOOLS_HTTP_SESSION = 0;

export type VaultToolsHttpOptions = Omit<McpHttpServerOptions, "handle" | "protocolVersions">;

/**
 * The vault tools on `POST http://127.0.0.1:<port>/mcp`: every message answered by a fresh `McpSession` of the same
 * server (stateless), aborted when the client goes away. `token` is a source (the plugin's secret storage, the
 * headless token file), read per request.
 */
export function createVaultToolsHttpServer(server: VaultToolServer, options: VaultToolsHttpOptions): McpHttpServer {
	return new McpHttpServer({
		...options,
		protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
		handle: (body, signal) => server.answer(body, VAULT_TOOLS_HTTP_SESSION, signal),
	});
}
