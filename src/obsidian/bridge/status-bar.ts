import type { BridgeStatus } from "../../ide/bridge-host";

/** The status bar item: off, starting, ready, connected (how many sessions), or not running, in words (styles.css colours them). */
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
			return "Claude: starting…";
		case "failed":
			return "Claude: not running";
		case "listening": {
			const count = status.clients.length;
			if (count === 0) return "Claude: ready";
			return count === 1 ? "Claude: connected" : `Claude: ${count} connected`;
		}
	}
}

export function statusTooltip(status: BridgeStatus): string {
	if (status.state === "failed") return `Claude Code Bridge could not start: ${status.error ?? "unknown error"}`;
	if (status.state === "starting") return "Claude Code Bridge is starting";
	if (status.state !== "listening") return "Claude Code Bridge is off";
	const count = status.clients.length;
	if (count === 0) return "Ready: run claude in the vault's folder and type /ide to connect";
	return count === 1 ? "Claude Code is connected to this vault" : `${count} Claude Code sessions are connected`;
}
