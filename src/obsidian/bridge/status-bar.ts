import type { BridgeStatus } from "../../ide/bridge-host";

/** The status bar item: off, listening, connected (how many clients), or failed, each in its theme colour (styles.css). */
export class StatusBar {
	constructor(private readonly element: HTMLElement) {
		this.element.addClass("claude-code-bridge-status");
		this.show({ state: "stopped", clients: [] });
	}

	show(status: BridgeStatus): void {
		this.element.setText(statusText(status));
		this.element.setAttribute("aria-label", statusTooltip(status));
		const connected = status.state === "listening" && status.clients.length > 0;
		this.element.toggleClass("is-off", status.state === "stopped" || status.state === "starting");
		this.element.toggleClass("is-listening", status.state === "listening" && !connected);
		this.element.toggleClass("is-connected", connected);
		this.element.toggleClass("is-failed", status.state === "failed");
	}
}

export function statusText(status: BridgeStatus): string {
	switch (status.state) {
		case "stopped":
			return "Claude: off";
		case "starting":
			return "Claude: starting";
		case "failed":
			return "Claude: error";
		case "listening": {
			const count = status.clients.length;
			if (count === 0) return "Claude: listening";
			return count === 1 ? "Claude: connected" : `Claude: ${count} connected`;
		}
	}
}

export function statusTooltip(status: BridgeStatus): string {
	if (status.state === "failed") return `Claude Code Bridge could not start: ${status.error ?? "unknown error"}`;
	if (status.state !== "listening") return "Claude Code Bridge is not running";
	const clients = status.clients.map((client) => (client.pid ? `pid ${client.pid}` : `client ${client.id}`));
	const who = clients.length > 0 ? `; connected: ${clients.join(", ")}` : "; run claude --ide in the vault folder";
	return `Listening on 127.0.0.1:${status.port ?? "?"}${who}`;
}
