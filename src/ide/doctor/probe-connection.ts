import WebSocket from "ws";
import { describeError } from "../../shared/describe-error";

export type ProbeResult =
	| { kind: "accepted" }
	/** The server answered the upgrade with an HTTP status instead (401: token refused). */
	| { kind: "refused"; status: number }
	/** The upgrade completed without the `mcp` subprotocol, which the CLI requires. */
	| { kind: "no-subprotocol" }
	| { kind: "unreachable"; reason: string };

export type ConnectionProbe = (port: number, token: string) => Promise<ProbeResult>;

const PROBE_TIMEOUT_MS = 3000;

/**
 * Connects the way Claude Code does (127.0.0.1, subprotocol `mcp`, the token header), then closes at once.
 * Sends no MCP message, so the bridge sees a client that leaves before `initialize`.
 */
export function probeConnection(port: number, token: string): Promise<ProbeResult> {
	return new Promise((resolve) => {
		let settled = false;
		const socket = new WebSocket(`ws://127.0.0.1:${port}`, ["mcp"], {
			headers: { "X-Claude-Code-Ide-Authorization": token },
			handshakeTimeout: PROBE_TIMEOUT_MS,
			perMessageDeflate: false,
		});
		const settle = (result: ProbeResult): void => {
			if (settled) return;
			settled = true;
			resolve(result);
		};
		socket.on("open", () => {
			settle(socket.protocol === "mcp" ? { kind: "accepted" } : { kind: "no-subprotocol" });
			socket.close(1000, "Connection check done");
		});
		socket.on("unexpected-response", (request, response) => {
			settle({ kind: "refused", status: response.statusCode ?? 0 });
			response.resume();
			request.destroy();
		});
		socket.on("error", (error) => {
			const reason = describeError(error);
			settle(/subprotocol/i.test(reason) ? { kind: "no-subprotocol" } : { kind: "unreachable", reason });
		});
	});
}
