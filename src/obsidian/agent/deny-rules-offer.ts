/** What the offer needs from the plugin. */
export interface DenyRulesOfferHost {
	/** The vault has private folders, the deny rules are off, and the offer was not answered before in this vault. */
	due(): boolean;
	/** Remembers in the settings that the offer was answered. */
	answered(): Promise<void>;
	/** Shows in `containerEl` the change the rules make to Claude Code's settings file, to write or cancel as in the settings tab; `done` once answered. */
	preview(containerEl: HTMLElement, done: () => void): Promise<void>;
}

/**
 * The one-time card above the message box that offers the deny rules for Claude Code's own file tools: shown when
 * a session starts while the offer is due, once per plugin run, and never again once the user answered.
 */
export class DenyRulesOffer {
	private shown = false;

	constructor(private readonly host: DenyRulesOfferHost) {}

	/** Draws the card in `slot` if the offer is due and not already on screen; returns whether it did. */
	showIn(slot: HTMLElement): boolean {
		if (this.shown || !this.host.due()) return false;
		this.shown = true;
		const card = slot.createDiv({ cls: "ccb-agent-offer" });
		card.createEl("p", {
			text: "Claude Code's own file tools open vault files directly, private ones too. With deny rules in its settings file, they will skip your private folders.",
		});
		const buttons = card.createDiv({ cls: "ccb-agent-offer-buttons" });
		const add = buttons.createEl("button", { cls: ["mod-cta", "ccb-agent-offer-add"], text: "Add the rules" });
		const notNow = buttons.createEl("button", { cls: "ccb-agent-offer-dismiss", text: "Not now" });
		add.addEventListener("click", () => {
			buttons.remove();
			void this.host.answered().then(() => this.host.preview(card, () => card.remove()));
		});
		notNow.addEventListener("click", () => {
			card.remove();
			void this.host.answered();
		});
		return true;
	}
}
