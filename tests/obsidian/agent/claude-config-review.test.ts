import type { App as RealApp } from "obsidian";
import type { ProjectClaudeConfig } from "../../../src/agent/vault-config/project-claude-config";
import { ClaudeConfigReview } from "../../../src/obsidian/agent/claude-config-review";
import { App, Modal, type FakeElement } from "../../__mocks__/obsidian";

const CONFIG: ProjectClaudeConfig = {
	fingerprint: "b".repeat(64),
	items: [
		{ kind: "instructions", text: "Adds the text of CLAUDE.md to every conversation.", file: "CLAUDE.md" },
		{
			kind: "runs",
			text: 'Runs "touch marker" when a session starts, before you type anything.',
			file: ".claude/settings.json",
		},
		{ kind: "sends", text: 'Sets ANTHROPIC_BASE_URL to "http://x".', file: ".claude/settings.json" },
	],
};

function open(changed: boolean): { review: ClaudeConfigReview; content: FakeElement; trusted: () => number } {
	let trusted = 0;
	const review = new ClaudeConfigReview(
		new App("/vault", "Vault") as unknown as RealApp,
		CONFIG,
		changed,
		() => void trusted++,
	);
	review.open();
	return { review, content: review.contentEl as unknown as FakeElement, trusted: () => trusted };
}

describe("ClaudeConfigReview", () => {
	afterEach(() => Modal.opened.splice(0));

	it("lists every item in words under its heading, programs first, with the file each comes from", () => {
		const { content } = open(false);
		const headings = content.findAll("setting-item-name").map((name) => name.text);
		expect(headings).toEqual([
			"Programs it would run",
			"Where it would send your messages",
			"Text added to every conversation",
		]);
		const lines = content.findAll("ccb-config-review-list").map((list) => list.children.map((item) => item.text));
		expect(lines).toEqual([
			['Runs "touch marker" when a session starts, before you type anything. (.claude/settings.json)'],
			['Sets ANTHROPIC_BASE_URL to "http://x". (.claude/settings.json)'],
			["Adds the text of CLAUDE.md to every conversation. (CLAUDE.md)"],
		]);
		expect(content.textContent).toContain("Anyone who can change the vault's files");
	});

	it("Trust and restart trusts and closes; Not now only closes", () => {
		const first = open(false);
		first.content.findAll("ccb-config-review-trust")[0]?.dispatch("click");
		expect(first.trusted()).toBe(1);
		expect(Modal.opened).toEqual([]);
		const second = open(true);
		expect(second.content.textContent).toContain("changed since you trusted them");
		second.content.findAll("ccb-config-review-not-now")[0]?.dispatch("click");
		expect(second.trusted()).toBe(0);
		expect(Modal.opened).toEqual([]);
	});
});
