import { VAULT_TOOLS_RELAY_CLIENT_NAME, VAULT_TOOLS_RELAY_METHODS } from "../vault-tools/serve/relay-methods";
import { VAULT_TOOLS_SERVER_INFO } from "../vault-tools/serve/vault-tool-server";

/** How the stdio server names itself to Claude Code: as the bridge's vault-tools server does over HTTP. */
export const SERVER_INFO = VAULT_TOOLS_SERVER_INFO;

/** The IDE channel's method that runs one vault-tool call on the bridge. */
export const RELAY_CALL_METHOD = VAULT_TOOLS_RELAY_METHODS.call;

/** The IDE channel's method that runs any other method of the bridge's vault-tools server (resources, prompts). */
export const RELAY_REQUEST_METHOD = VAULT_TOOLS_RELAY_METHODS.request;

/** The IDE channel's method by which the bridge says which privacy rules it applies (the relay checks them first). */
export const RELAY_PRIVACY_METHOD = VAULT_TOOLS_RELAY_METHODS.privacy;

/** The `clientInfo.name` the relay gives in `initialize`, by which the bridge tells it from a Claude Code client. */
export const RELAY_CLIENT_NAME = VAULT_TOOLS_RELAY_CLIENT_NAME;
