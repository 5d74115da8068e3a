import type { PastSession } from "../../agent/agent-session";
import { sessionTitle } from "../../agent/transcript/tool-words";

/** Past sessions, newest first: each with its first line and date; a click resumes it in a new tab. */
export class PastSessionsList {
	private readonly el: HTMLElement;
	private shown = false;

	constructor(
		parent: HTMLElement,
		private readonly onResume: (sessionId: string) => void,
	) {
		this.el = parent.createDiv({ cls: ["ccb-agent-history", "is-hidden"] });
	}

	get visible(): boolean {
		return this.shown;
	}

	show(sessions: readonly PastSession[]): void {
		this.shown = true;
		this.el.empty();
		this.el.toggleClass("is-hidden", false);
		this.el.createDiv({ cls: "ccb-agent-history-title", text: "Past sessions" });
		if (sessions.length === 0) {
			this.el.createDiv({ cls: "ccb-agent-empty", text: "No past sessions in this vault yet." });
			return;
		}
		const sorted = [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
		for (const session of sorted) {
			const row = this.el.createEl("button", { cls: "ccb-agent-history-row" });
			row.createSpan({
				cls: "ccb-agent-history-line",
				text: session.firstLine.trim() === "" ? "(no text)" : sessionTitle(session.firstLine),
			});
			row.createSpan({ cls: "ccb-agent-history-date", text: formatDate(session.updatedAt) });
			row.addEventListener("click", () => this.onResume(session.sessionId));
		}
	}

	hide(): void {
		this.shown = false;
		this.el.empty();
		this.el.toggleClass("is-hidden", true);
	}
}

function formatDate(iso: string): string {
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
