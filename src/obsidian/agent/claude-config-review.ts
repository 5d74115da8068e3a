import { Modal, Setting, type App } from "obsidian";
import type { ConfigItemKind } from "../../agent/vault-config/claude-settings-words";
import type { ProjectClaudeConfig } from "../../agent/vault-config/project-claude-config";

/** The review's headings, in the order they are shown. */
const HEADINGS: readonly { kind: ConfigItemKind; heading: string }[] = [
	{ kind: "runs", heading: "Programs it would run" },
	{ kind: "sends", heading: "Where it would send your messages" },
	{ kind: "allows", heading: "What Claude could do without asking" },
	{ kind: "instructions", heading: "Text added to every conversation" },
	{ kind: "changes", heading: "Other changes" },
	{ kind: "unreadable", heading: "Files that could not be read" },
];

/**
 * Lists, in words, everything trusting the vault's own Claude Code configuration would let run or change, the way
 * Claude Code's own trust dialog does; "Trust and restart" trusts exactly this (its fingerprint) on this device.
 */
export class ClaudeConfigReview extends Modal {
	constructor(
		app: App,
		private readonly config: ProjectClaudeConfig,
		private readonly changed: boolean,
		private readonly onTrust: () => void,
	) {
		super(app);
	}

	override onOpen(): void {
		const { contentEl } = this;
		this.setTitle("This vault's Claude Code settings");
		contentEl.addClass("ccb-config-review");
		contentEl.createEl("p", {
			text: this.changed
				? "These settings changed since you trusted them. Read what they would do now before trusting them again."
				: "This vault carries its own settings for Claude Code. Anyone who can change the vault's files (a shared or synced folder) could have written them. Trusted, the panel's sessions on this device would:",
		});
		for (const { kind, heading } of HEADINGS) {
			const items = this.config.items.filter((item) => item.kind === kind);
			if (items.length === 0) continue;
			new Setting(contentEl).setName(heading).setHeading();
			const list = contentEl.createEl("ul", { cls: "ccb-config-review-list" });
			for (const item of items) list.createEl("li", { text: `${item.text} (${item.file})` });
		}
		const buttons = contentEl.createDiv({ cls: "ccb-config-review-buttons" });
		const trust = buttons.createEl("button", {
			cls: ["mod-warning", "ccb-config-review-trust"],
			text: "Trust and restart",
		});
		const notNow = buttons.createEl("button", { cls: "ccb-config-review-not-now", text: "Not now" });
		trust.addEventListener("click", () => {
			this.close();
			this.onTrust();
		});
		notNow.addEventListener("click", () => this.close());
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}
