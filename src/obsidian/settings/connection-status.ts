import type { BridgeStatus, ClientStatus } from "../../ide/bridge-host";

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
			return `Not running: ${withoutFinalStop(status.error ?? "it could not start")}.`;
		case "listening": {
			const warning = status.warning ? " The fixed port under Advanced was taken: another one is used." : "";
			const clients = status.clients;
			const first = clients.reduce<ClientStatus | undefined>(
				(earliest, client) => (earliest && earliest.connectedAt <= client.connectedAt ? earliest : client),
				undefined,
			);
			if (!first) return `Ready: no Claude Code session is connected.${warning}`;
			const since = shortTime(first.connectedAt);
			if (clients.length === 1) return `Connected: ${clientName(first)}, since ${since}.${warning}`;
			return `Connected: ${clients.length} sessions, the first since ${since}.${warning}`;
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

/** Claude Code by its name; another client by the name it gave. */
function clientName(client: ClientStatus): string {
	return client.clientName === undefined || client.clientName === "claude-code" ? "Claude Code" : client.clientName;
}

function shortTime(date: Date): string {
	return date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function withoutFinalStop(text: string): string {
	return text.replace(/\.+$/, "");
}
