import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import WebSocket from "ws";
import { rawDataToText } from "../../src/server/connection-manager";

/**
 * An MCP SDK transport over the `ws` package that connects the way Claude Code does: subprotocol
 * `mcp` and the token header. (The SDK's own WebSocket transport cannot send headers.)
 */
export class AuthenticatedWebSocketTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private socket: WebSocket | undefined;

	constructor(
		private readonly url: string,
		private readonly token: string,
	) {}

	start(): Promise<void> {
		return new Promise((resolve, reject) => {
			const socket = new WebSocket(this.url, ["mcp"], {
				headers: { "X-Claude-Code-Ide-Authorization": this.token },
			});
			this.socket = socket;
			socket.once("open", () => resolve());
			socket.once("error", reject);
			socket.on("message", (data: WebSocket.RawData) => {
				try {
					this.onmessage?.(JSON.parse(rawDataToText(data)) as JSONRPCMessage);
				} catch (error) {
					this.onerror?.(error as Error);
				}
			});
			socket.on("close", () => this.onclose?.());
		});
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolve, reject) => {
			if (!this.socket) return reject(new Error("not started"));
			this.socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve()));
		});
	}

	close(): Promise<void> {
		this.socket?.close();
		return Promise.resolve();
	}
}
