import { ErrorCode } from "../../protocol/json-rpc";
import type { McpSession } from "../../protocol/mcp-session";
import type { RequestObserver } from "../../protocol/request-observer";
import type { VaultToolServer } from "./vault-tool-server";

/** The name the panel's CLI knows the vault tools by: its tools are `mcp__obsidian__*`. */
export const PANEL_VAULT_TOOLS_SERVER = "obsidian";

type JsonRpcId = string | number;

/** One JSON-RPC message as the CLI's control channel carries it (`mcp_message`): the panel's `McpWireMessage`. */
export type McpWireMessage = Readonly<Record<string, unknown>>;

/** MCP servers answered in this process (the panel's `InProcessMcpServers` port, met by shape). */
export interface InProcessServers {
	names(): readonly string[];
	/** `turn`: the conversation turn the CLI sends it in (its user message's id), recorded with the call. */
	handle(server: string, message: McpWireMessage, turn?: string): Promise<McpWireMessage | undefined>;
	/** The CLI session ended: requests still running are cancelled. */
	dispose(): void;
}

/**
 * Claude's vault tools served inside the panel's own process to one CLI session, over its control channel: one
 * `McpSession` of the bridge's `VaultToolServer` (the same tools, privacy and review as every other transport), no
 * port and no token. Each request is answered with the response the session writes for its id.
 */
export class InProcessVaultTools implements InProcessServers {
	private readonly session: McpSession;
	private readonly waiting = new Map<JsonRpcId, (answer: McpWireMessage) => void>();
	/** The turn of the message handled last: a CLI session's turns follow one another, its calls belong to the one running. */
	private lastTurn: string | undefined;

	constructor(server: VaultToolServer, observer?: RequestObserver) {
		this.session = server.session({
			id: 0,
			send: (text) => this.received(text),
			...(observer ? { observer } : {}),
		});
	}

	names(): readonly string[] {
		return [PANEL_VAULT_TOOLS_SERVER];
	}

	/** The conversation turn the calls now running belong to (for the journal's recorder). */
	get turn(): string | undefined {
		return this.lastTurn;
	}

	async handle(server: string, message: McpWireMessage, turn?: string): Promise<McpWireMessage | undefined> {
		this.lastTurn = turn;
		const id = message.id;
		const request = typeof message.method === "string" && (typeof id === "string" || typeof id === "number");
		if (server !== PANEL_VAULT_TOOLS_SERVER)
			return request
				? errorAnswer(id, ErrorCode.MethodNotFound, `No MCP server named "${server}" runs in the panel`)
				: undefined;
		if (!request) {
			await this.session.handleMessage(JSON.stringify(message));
			return undefined;
		}
		if (this.waiting.has(id))
			return errorAnswer(
				id,
				ErrorCode.InvalidRequest,
				`Invalid request: id ${JSON.stringify(id)} is already in use`,
			);
		let answer: McpWireMessage | undefined;
		this.waiting.set(id, (written) => (answer = written));
		try {
			// Settles once the session has written the request's answer.
			await this.session.handleMessage(JSON.stringify(message));
		} finally {
			this.waiting.delete(id);
		}
		return (
			answer ??
			errorAnswer(
				id,
				ErrorCode.InternalError,
				"Internal error: the vault tools gave no answer (the session ended)",
			)
		);
	}

	/** The CLI session ended: requests still running are cancelled. */
	dispose(): void {
		this.session.dispose();
	}

	private received(text: string): void {
		let message: unknown;
		try {
			message = JSON.parse(text);
		} catch {
			return;
		}
		if (typeof message !== "object" || message === null || !("id" in message)) return;
		const id = (message as { id: unknown }).id;
		if (typeof id !== "string" && typeof id !== "number") return;
		// Only answers are waited for; a request or notification the server starts has nowhere to go on this channel.
		if (!("result" in message) && !("error" in message)) return;
		this.waiting.get(id)?.(message as McpWireMessage);
	}
}

/** No servers (a bridge without vault tools): every request is answered that no such server runs. */
export function noInProcessServers(): InProcessServers {
	return {
		names: () => [],
		handle: (server, message) =>
			Promise.resolve(
				typeof message.method === "string" && (typeof message.id === "string" || typeof message.id === "number")
					? errorAnswer(
							message.id,
							ErrorCode.MethodNotFound,
							`No MCP server named "${server}" runs in the panel`,
						)
					: undefined,
			),
		dispose: () => undefined,
	};
}

function errorAnswer(id: JsonRpcId, code: number, message: string): McpWireMessage {
	return { jsonrpc: "2.0", id, error: { code, message } };
}
