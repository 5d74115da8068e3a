import type { App } from "obsidian";
import type { ProjectConfigState } from "../../agent/vault-config/project-config-trust";
import { ClaudeConfigReview } from "./claude-config-review";

/** The vault's own Claude Code configuration and the user's trust in it on this device. */
export interface ClaudeConfigHost {
	state(): Promise<ProjectConfigState>;
	/** Trusts exactly the configuration with this fingerprint, on this device. */
	trust(fingerprint: string): void;
}

export const UNTRUSTED_NOTICE = "This vault has its own Claude Code settings. They are not used until you trust them.";
export const CHANGED_NOTICE =
	"This vault's own Claude Code settings changed since you trusted them. They are not used until you trust them again.";

/**
 * One calm line at the top of the panel while the vault has a Claude Code configuration of its own that is not
 * trusted on this device, with "Review…" to see what it would do and trust it. Nothing shows when the vault has
 * none, or when it is trusted as it is now.
 */
export class ClaudeConfigNotice {
	constructor(
		private readonly el: HTMLElement,
		private readonly app: App,
		private readonly host: ClaudeConfigHost,
		/** Starts the active session again, so that it loads what was just trusted. */
		private readonly restart: () => Promise<void>,
	) {
		el.addClass("ccb-agent-config-notice");
		el.toggleClass("is-hidden", true);
	}

	/** Reads the configuration again and shows or hides the line. */
	async refresh(): Promise<void> {
		let state: ProjectConfigState;
		try {
			state = await this.host.state();
		} catch {
			state = { kind: "none" };
		}
		this.el.empty();
		this.el.toggleClass("is-hidden", state.kind !== "untrusted");
		if (state.kind !== "untrusted") return;
		const { config, changed } = state;
		this.el.createSpan({ cls: "ccb-agent-config-notice-text", text: changed ? CHANGED_NOTICE : UNTRUSTED_NOTICE });
		const review = this.el.createEl("button", { cls: "ccb-agent-config-review", text: "Review…" });
		review.addEventListener("click", () => {
			new ClaudeConfigReview(this.app, config, changed, () => {
				this.host.trust(config.fingerprint);
				void this.restart().then(() => this.refresh());
			}).open();
		});
	}
}
