import { ErrorCode, JsonRpcError, isJsonObject, type JsonObject } from "../../protocol/json-rpc";
import type { MethodHandler } from "../../protocol/mcp-session";
import type { VaultToolServer } from "./vault-tool-server";

/**
 * The `clientInfo.name` a relay (the stdio `mcp --vault` server forwarding to a running bridge) sends in
 * `initialize` on the IDE channel. Such a connection is not a Claude Code IDE client: it is left out of the
 * status's clients (and so of doctor's count), of selection broadcasts, and of the welcome.
 */
export const VAULT_TOOLS_RELAY_CLIENT_NAME = "claude-code-bridge-vault-relay";

/** The relay's methods on the IDE channel (ARCHITECTURE.md, "Vault tools: transports and relay"). */
export const VAULT_TOOLS_RELAY_METHODS = {
	/** `{}` → exactly the vault tools' `tools/list` result: `{ tools: [...] }`. */
	list: "vaultTools/list",
	/** `{ name, arguments? }` → exactly their `tools/call` result, or the same JSON-RPC error. */
	call: "vaultTools/call",
	/** `{ method, params? }` → any other method of the vault-tools server (resources/*, prompts/*, initialize). */
	request: "vaultTools/request",
	/**
	 * `{}` → the privacy the bridge applies: `{ folders, tags, unreadable?, configFolder? }`. The relay compares it
	 * with what its own side would apply before it forwards anything (SECURITY.md, "The relay").
	 */
	privacy: "vaultTools/privacy",
} as const;

/**
 * The relay methods, served on the IDE channel (which only authenticated connections reach). A relayed call is
 * cancelled by `notifications/cancelled` for its id on the IDE channel, or when the relay disconnects.
 */
export function vaultToolRelayMethods(
	server: Pick<VaultToolServer, "request">,
	privacy: () => JsonObject,
): Map<string, MethodHandler> {
	return new Map<string, MethodHandler>([
		[VAULT_TOOLS_RELAY_METHODS.privacy, () => privacy()],
		[VAULT_TOOLS_RELAY_METHODS.list, (params, context) => server.request("tools/list", params, context)],
		[VAULT_TOOLS_RELAY_METHODS.call, (params, context) => server.request("tools/call", params, context)],
		[
			VAULT_TOOLS_RELAY_METHODS.request,
			(params, context) => {
				const method = params.method;
				if (typeof method !== "string" || method === "")
					throw new JsonRpcError(
						ErrorCode.InvalidParams,
						`Invalid params for ${VAULT_TOOLS_RELAY_METHODS.request}: "method" must be a method name`,
					);
				const inner = params.params ?? {};
				if (!isJsonObject(inner))
					throw new JsonRpcError(
						ErrorCode.InvalidParams,
						`Invalid params for ${VAULT_TOOLS_RELAY_METHODS.request}: "params" must be an object`,
					);
				return server.request(method, inner, context);
			},
		],
	]);
}
