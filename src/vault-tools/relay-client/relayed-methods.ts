import { ErrorCode, JsonRpcError } from "../../protocol/json-rpc";
import type { MethodHandler } from "../../protocol/mcp-session";
import { RelayClosedError, type RelayConnection } from "./relay-connection";

export interface RelayedMethodsOptions {
	/** The same methods answered from the folder (resources/*, prompts/*: all reads). */
	local: ReadonlyMap<string, MethodHandler>;
	relay: { current(): Promise<RelayConnection | undefined> };
	/** The relay method that runs any other method of the bridge's vault-tools server: `{ method, params }`. */
	requestMethod: string;
	log: (message: string) => void;
}

/**
 * The vault-tools server's other methods (resources, prompts) for the stdio server: answered by the vault's bridge
 * when one runs (Obsidian's active note and daily note), else from the folder. They only read, so a bridge that
 * goes away mid-call, or does not serve them, is answered from the folder; the bridge's own errors pass through.
 */
export function relayedMethods(options: RelayedMethodsOptions): Map<string, MethodHandler> {
	return new Map(
		[...options.local].map(([method, local]): [string, MethodHandler] => [
			method,
			async (params, context) => {
				const connection = await options.relay.current();
				if (!connection) return local(params, context);
				try {
					return await connection.request(options.requestMethod, { method, params }, context.signal);
				} catch (error) {
					const gone = error instanceof RelayClosedError;
					if (!gone && !(error instanceof JsonRpcError && error.code === ErrorCode.MethodNotFound))
						throw error;
					options.log(`${method}: ${error.message}; answering from the folder`);
					return local(params, context);
				}
			},
		]),
	);
}
