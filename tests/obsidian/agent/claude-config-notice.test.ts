import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import type { ProjectClaudeConfig } from "../../../src/agent/vault-config/project-claude-config";
import type { ProjectConfigState } from "../../../src/agent/vault-config/project-config-trust";
import { AgentView } from "../../../src/obsidian/agent/agent-view";
import {
	CHANGED_NOTICE,
	UNTRUSTED_NOTICE,
	type ClaudeConfigHost,
} from "../../../src/obsidian/agent/claude-config-notice";
import { ObsidianPanelVault } from "../../../src/obsidian/agent/panel-vault";
import { DEFAULT_AGENT_PANEL_SETTINGS } from "../../../src/settings";
import { App, Modal, type FakeElement } from "../../__mocks__/obsidian";
import { FakeAgentEngine } from "../../helpers/fake-agent-engine";
import { pollUntil } from "../../helpers/wait-until";

const CONFIG: ProjectClaudeConfig = {
	fingerprint: "c".repeat(64),
	items: [
		{
			kind: "runs",
			text: 'Runs "touch marker" when a session starts, before you type anything.',
			file: ".claude/settings.json",
		},
	],
};

class ConfigHost implements ClaudeConfigHost {
	trusted: string | undefined;
	constructor(public config: ProjectClaudeConfig | undefined) {}
	state(): Promise<ProjectConfigState> {
		if (this.config === undefined) return Promise.resolve({ kind: "none" });
		if (this.trusted === this.config.fingerprint) return Promise.resolve({ kind: "trusted", config: this.config });
		return Promise.resolve({ kind: "untrusted", config: this.config, changed: this.trusted !== undefined });
	}
	trust(fingerprint: string): void {
		this.trusted = fingerprint;
	}
}

async function openPanel(
	host: ConfigHost,
): Promise<{ view: AgentView; engine: FakeAgentEngine; notice: () => FakeElement }> {
	const app = new App("/vault", "Vault");
	const engine = new FakeAgentEngine();
	const view = new AgentView(app.workspace.getLeaf("tab") as unknown as RealLeaf, {
		engine: () => Promise.resolve(engine),
		vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
		panelSettings: () => DEFAULT_AGENT_PANEL_SETTINGS,
		claudeConfig: host,
	});
	view.load();
	await view.onOpen();
	const root = view.contentEl as unknown as FakeElement;
	return {
		view,
		engine,
		notice: () =>
			root.findAll("ccb-agent-config-notice")[0] ??
			(() => {
				throw new Error("no notice");
			})(),
	};
}

const shown = (notice: FakeElement): string | undefined =>
	notice.hasClass("is-hidden") ? undefined : notice.textContent;

describe("the panel's notice about the vault's own Claude Code settings", () => {
	afterEach(() => Modal.opened.splice(0));

	it("says nothing when the vault has none", async () => {
		const { notice } = await openPanel(new ConfigHost(undefined));
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(notice().hasClass("is-hidden")).toBe(true);
		expect(notice().children).toEqual([]);
	});

	it("says in one line that they are not used; Review… lists them, and Trust and restart trusts and restarts the session", async () => {
		const host = new ConfigHost(CONFIG);
		const { notice, engine, view } = await openPanel(host);
		expect(await pollUntil(() => shown(notice()), "the notice")).toBe(`${UNTRUSTED_NOTICE}Review…`);
		engine.latest.emit({ kind: "ready", sessionId: "s-1", slashCommands: [], model: "sonnet" });
		notice().findAll("ccb-agent-config-review")[0]?.dispatch("click");
		const review = Modal.opened[0];
		expect((review?.contentEl as unknown as FakeElement).textContent).toContain(
			'Runs "touch marker" when a session starts',
		);
		(review?.contentEl as unknown as FakeElement).findAll("ccb-config-review-trust")[0]?.dispatch("click");
		expect(host.trusted).toBe(CONFIG.fingerprint);
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "the restarted session");
		expect(engine.sessions[0]?.closed).toBe(true);
		expect(engine.latest.options.resume).toBe("s-1");
		expect(view.sessions).toEqual([view.activeTab]);
		await pollUntil(() => (notice().hasClass("is-hidden") ? true : undefined), "the notice gone");
	});

	it("asks again, saying so, when the settings changed since they were trusted", async () => {
		const host = new ConfigHost(CONFIG);
		host.trusted = "d".repeat(64);
		const { notice } = await openPanel(host);
		expect(await pollUntil(() => shown(notice()), "the notice")).toBe(`${CHANGED_NOTICE}Review…`);
	});

	it("Not now leaves everything as it was", async () => {
		const host = new ConfigHost(CONFIG);
		const { notice, engine } = await openPanel(host);
		await pollUntil(() => shown(notice()), "the notice");
		notice().findAll("ccb-agent-config-review")[0]?.dispatch("click");
		(Modal.opened[0]?.contentEl as unknown as FakeElement)
			.findAll("ccb-config-review-not-now")[0]
			?.dispatch("click");
		expect(host.trusted).toBeUndefined();
		expect(engine.sessions.length).toBe(1);
		expect(shown(notice())).toBe(`${UNTRUSTED_NOTICE}Review…`);
	});
});
