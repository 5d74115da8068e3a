import type { ServerInfo } from "../protocol/mcp-types";

/** How the stdio server names itself to Claude Code. */
export const SERVER_INFO: ServerInfo = { name: "obsidian-vault-tools", version: "0.1.0" };

/** The IDE channel's method that runs one vault-tool call on the bridge. */
export const RELAY_CALL_METHOD = "vaultTools/call";

/** The `clientInfo.name` the relay gives in `initialize`, by which the bridge tells it from a Claude Code client. */
export const RELAY_CLIENT_NAME = "claude-code-bridge-vault-relay";
