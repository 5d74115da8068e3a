import type { BridgeStatus } from "../../ide/bridge-host";

/**
 * The first screen's status: whether Claude Code can connect and who is, in words a writer reads (the status
 * bar's "ready" and "connected"). No port, pid or address: those are in `describeConnectionDetails`, under Advanced.
 */
export function describeConnection(status: BridgeStatus): string {
	switch (status.state) {
		case "stopped":
			return "Off: Claude Code cannot connect to this vault.";
		case "starting":
			return "Starting…";
		case "failed":
			return `Not running: ${(status.error ?? "it could not start").replace(/\.+$/, "")}.`;
		case "listening": {
			const warning = status.warning ? " The fixed port under Advanced was taken: another one is used." : "";
			const [first, ...others] = status.clients;
			if (!first) return `Ready: no Claude Code session is connected.${warning}`;
			const since = first.connectedAt.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
			const who = others.length > 0 ? `${others.length + 1} sessions` : (first.clientName ?? "Claude Code");
			return `Connected: ${who.replace("claude-code", "Claude Code")}, since ${since}.${warning}`;
		}
	}
}

/** Under Advanced: the bridge's state with its address, and each client with its pid, for troubleshooting. */
export function describeConnectionDetails(status: BridgeStatus): string {
	const clients = status.clients.map((client) => {
		const who = client.pid ? `pid ${client.pid}` : `connection ${client.id}`;
		return `${client.clientName ?? "client"} (${who}) since ${client.connectedAt.toLocaleTimeString()}`;
	});
	if (status.state !== "listening") return `${describeState(status)}.`;
	return `${describeState(status)}. ${clients.length > 0 ? `Connected: ${clients.join("; ")}.` : "No Claude Code session is connected."}`;
}

export function describeState(status: BridgeStatus): string {
	switch (status.state) {
		case "listening":
			return `Listening on 127.0.0.1:${status.port ?? "?"}${status.warning ? ` (${status.warning})` : ""}`;
		case "starting":
			return "Starting";
		case "failed":
			return `Could not start: ${status.error ?? "unknown error"}`;
		case "stopped":
			return "Off";
	}
}
