import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentView } from "../../../src/obsidian/agent/agent-view";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import type { BridgeSettings } from "../../../src/settings";
import type { App, FakeElement } from "../../__mocks__/obsidian";
import { FakeAgentEngine } from "../../helpers/fake-agent-engine";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";
import { createIndexedApp } from "../harness/indexed-app";

/** How many times the engine's module was loaded, and the engine it built (the module is replaced by the fake). */
const loaded = { count: 0, engine: new FakeAgentEngine() };
jest.mock("../../../src/obsidian/agent/agent-engine-runtime", () => {
	loaded.count++;
	return { createAgentEngine: () => loaded.engine };
});

const VIEW_TYPE = "claude-code-agent";

describe("the plugin's Claude Code panel", () => {
	jest.setTimeout(30_000);
	const temp = makeTempDir("agent-panel-plugin");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;

	beforeEach(async () => {
		process.env.HOME = join(temp.path, "home");
		const vault = join(temp.path, "vault");
		mkdirSync(vault, { recursive: true });
		app = await createIndexedApp(
			{
				"Notes/Plan.md": "# Plan\n",
				"Notes/Diary.md": "# Diary\n\n#secret thoughts\n",
				"Private/Plans.md": "# Plans\n",
				"Projects/Garden plan.md": "# Garden\n",
			},
			vault,
		);
		plugin = new ClaudeCodeBridgePlugin(app as never, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never);
		(plugin as unknown as { data: unknown }).data = { privateFolders: ["Private"], privateTags: ["secret"], vaultTools: { enabled: false }, agentPanel: { exportFolder: "Exports" } };
		plugin.load();
		await pollUntil(() => plugin.settings as BridgeSettings | undefined, "the settings to load");
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		plugin?.unload();
		await (plugin as unknown as { bridge?: { stopped: Promise<void> } }).bridge?.stopped;
		process.env.HOME = previousHome;
	});
	afterAll(() => temp.remove());

	async function openPanel(): Promise<{ view: AgentView; root: FakeElement }> {
		const fake = plugin as unknown as { ribbonIcons: { title: string; click: () => unknown }[]; runCommand(id: string): boolean };
		fake.ribbonIcons.find((icon) => icon.title === "Open Claude Code panel")?.click();
		const leaf = await pollUntil(() => app.workspace.getLeavesOfType(VIEW_TYPE)[0], "the panel");
		expect(fake.runCommand("open-agent-panel")).toBe(true);
		const view = leaf.view as unknown as AgentView;
		await pollUntil(() => (view.sessions.length > 0 ? true : undefined), "the first session");
		expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toHaveLength(1);
		return { view, root: view.contentEl as unknown as FakeElement };
	}

	it("loads the engine's module when the panel first opens, not with the plugin, and once", async () => {
		expect(loaded.count).toBe(0);
		await openPanel();
		expect(loaded.count).toBe(1);
		expect(loaded.engine.latest.options).toEqual({ permissionMode: "default" });
		// The command again: the panel is shown, not opened twice, and no second session starts.
		(plugin as unknown as { runCommand(id: string): boolean }).runCommand("open-agent-panel");
		await new Promise((resolve) => setImmediate(resolve));
		expect(loaded.count).toBe(1);
		expect(loaded.engine.sessions).toHaveLength(1);
	});

	it("never offers a private note after @: private folders and private tags, through the bridge's privacy boundary", async () => {
		app.workspace.finishLayout();
		await pollUntil(() => (plugin.bridgeStatus().state === "listening" ? true : undefined), "the bridge to listen");
		const { view } = await openPanel();
		const input = view.activeTab?.input;
		const textarea = input?.textarea as unknown as FakeElement;
		textarea.value = "@";
		textarea.dispatch("input");
		expect(input?.shownSuggestions).toEqual(["Notes/Plan.md", "Projects/Garden plan.md", "Notes", "Projects"]);
		textarea.value = "@plan";
		textarea.dispatch("input");
		expect(input?.shownSuggestions).toEqual(["Notes/Plan.md", "Projects/Garden plan.md"]);
	});

	it("offers nothing after @ while the bridge (and so the privacy boundary) is not running", async () => {
		const { view } = await openPanel();
		const textarea = view.activeTab?.input.textarea as unknown as FakeElement;
		textarea.value = "@";
		textarea.dispatch("input");
		expect(view.activeTab?.input.shownSuggestions).toEqual([]);
	});

	it("shows the Claude Code panel rows in the settings tab", () => {
		const tab = (plugin as unknown as { settingTabs: { display(): void; containerEl: FakeElement }[] }).settingTabs[0];
		tab?.display();
		const names = tab?.containerEl.findAll("setting-item-name").map((name) => name.text) ?? [];
		expect(names).toEqual(expect.arrayContaining(["Claude Code panel", "Claude Code executable", "Export folder", "Always allowed"]));
	});
});
