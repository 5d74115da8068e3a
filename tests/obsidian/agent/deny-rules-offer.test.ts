import { DenyRulesOffer, type DenyRulesOfferHost } from "../../../src/obsidian/agent/deny-rules-offer";
import { FakeElement } from "../../__mocks__/obsidian";
import { pollUntil } from "../../helpers/wait-until";

/** A host that records what the card asked for; the preview is a marker element answered by the test. */
function recordingHost(due = true): DenyRulesOfferHost & { calls: string[]; finish?: () => void } {
	const host: DenyRulesOfferHost & { calls: string[]; finish?: () => void } = {
		calls: [],
		due: () => due,
		answered: () => {
			host.calls.push("answered");
			return Promise.resolve();
		},
		preview: (containerEl, done) => {
			host.calls.push("preview");
			containerEl.createDiv({ cls: "test-preview" });
			host.finish = done;
			return Promise.resolve();
		},
	};
	return host;
}

const card = (slot: FakeElement): FakeElement | undefined => slot.findAll("ccb-agent-offer")[0];
const button = (slot: FakeElement, cls: string): FakeElement => {
	const found = slot.findAll(cls)[0];
	if (!found) throw new Error(`no .${cls}`);
	return found;
};

describe("the panel's offer of the deny rules", () => {
	it("shows one card saying what the rules do, with Add the rules and Not now, and only once", () => {
		const offer = new DenyRulesOffer(recordingHost());
		const first = new FakeElement();
		const second = new FakeElement();
		expect(offer.showIn(first as unknown as HTMLElement)).toBe(true);
		expect(card(first)?.textContent).toContain(
			"Claude Code's own file tools open vault files directly, private ones too",
		);
		expect(card(first)?.textContent).toContain("they will skip your private folders");
		expect(button(first, "ccb-agent-offer-add").text).toBe("Add the rules");
		expect(button(first, "ccb-agent-offer-dismiss").text).toBe("Not now");
		expect(offer.showIn(second as unknown as HTMLElement)).toBe(false);
		expect(card(second)).toBeUndefined();
	});

	it("shows nothing when the offer is not due", () => {
		const slot = new FakeElement();
		expect(new DenyRulesOffer(recordingHost(false)).showIn(slot as unknown as HTMLElement)).toBe(false);
		expect(slot.children).toEqual([]);
	});

	it("Add the rules: remembers the answer, then shows the change in the card, which goes once the change is answered", async () => {
		const host = recordingHost();
		const slot = new FakeElement();
		new DenyRulesOffer(host).showIn(slot as unknown as HTMLElement);
		button(slot, "ccb-agent-offer-add").dispatch("click");
		await pollUntil(() => host.finish, "the preview");
		expect(host.calls).toEqual(["answered", "preview"]);
		expect(slot.findAll("ccb-agent-offer-add")).toEqual([]);
		expect(card(slot)?.findAll("test-preview")).toHaveLength(1);
		host.finish?.();
		expect(card(slot)).toBeUndefined();
	});

	it("Not now: remembers the answer and takes the card away, without a preview", async () => {
		const host = recordingHost();
		const slot = new FakeElement();
		new DenyRulesOffer(host).showIn(slot as unknown as HTMLElement);
		button(slot, "ccb-agent-offer-dismiss").dispatch("click");
		await pollUntil(() => (host.calls.length > 0 ? true : undefined), "the answer");
		expect(host.calls).toEqual(["answered"]);
		expect(card(slot)).toBeUndefined();
	});
});
