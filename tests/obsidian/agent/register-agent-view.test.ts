import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AgentView } from "../../../src/obsidian/agent/agent-view";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import type { BridgeSettingsHost } from "../../../src/obsidian/settings/bridge-settings-host";
import type { BridgeSettings } from "../../../src/settings";
import { Setting, type App, type FakeElement } from "../../__mocks__/obsidian";
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
		plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(plugin as unknown as { data: unknown }).data = {
			privateFolders: ["Private"],
			privateTags: ["secret"],
			vaultTools: { enabled: false },
			agentPanel: { exportFolder: "Exports" },
		};
		plugin.load();
		await pollUntil(
			() => (plugin.settingsHost as BridgeSettingsHost | undefined)?.settings,
			"the settings to load",
		);
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		plugin?.unload();
		await (plugin as unknown as { bridge?: { stopped: Promise<void> } }).bridge?.stopped;
		process.env.HOME = previousHome;
	});
	afterAll(() => temp.remove());

	async function openPanel(): Promise<{ view: AgentView; root: FakeElement }> {
		const fake = plugin as unknown as {
			ribbonIcons: { title: string; click: () => unknown }[];
			runCommand(id: string): boolean;
		};
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
		await pollUntil(
			() => (plugin.settingsHost.bridgeStatus().state === "listening" ? true : undefined),
			"the bridge to listen",
		);
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
		const tab = (plugin as unknown as { settingTabs: { display(): void; containerEl: FakeElement }[] })
			.settingTabs[0];
		tab?.display();
		const names = tab?.containerEl.findAll("setting-item-name").map((name) => name.text) ?? [];
		expect(names).toEqual(
			expect.arrayContaining([
				"Claude Code in a panel",
				"Claude Code panel",
				"Claude Code executable",
				"Export folder",
				"Always allowed",
			]),
		);
	});

	it("opens the panel from the settings tab's Open panel button, once", async () => {
		Setting.created = [];
		const tab = (plugin as unknown as { settingTabs: { display(): void }[] }).settingTabs[0];
		tab?.display();
		const open = Setting.created
			.find((setting) => setting.name === "Claude Code in a panel")
			?.buttons.find((button) => button.text === "Open panel");
		expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toHaveLength(0);
		await open?.click();
		await pollUntil(() => app.workspace.getLeavesOfType(VIEW_TYPE)[0], "the panel");
		await open?.click();
		await new Promise((settle) => setTimeout(settle, 0));
		expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toHaveLength(1);
	});
	describe("the offer of the deny rules for Claude Code's own file tools", () => {
		const rulesFile = () => join(temp.path, "vault", ".claude", "settings.json");
		const offerCard = (view: AgentView): FakeElement | undefined =>
			(view.activeTab?.offerSlot as unknown as FakeElement | undefined)?.findAll("ccb-agent-offer")[0];
		const click = (card: FakeElement | undefined, cls: string): void => {
			const found = card?.findAll(cls)[0];
			if (!found) throw new Error(`no .${cls}`);
			found.dispatch("click");
		};

		/** Obsidian closed and opened again on `data` as it was saved (the settings migrated from it). */
		async function restartWith(data: unknown): Promise<void> {
			// Obsidian builds the panel's view anew on start; the fake workspace keeps its leaves, so they are closed here.
			app.workspace.detachLeavesOfType(VIEW_TYPE);
			plugin.unload();
			await (plugin as unknown as { bridge?: { stopped: Promise<void> } }).bridge?.stopped;
			plugin = new ClaudeCodeBridgePlugin(
				app as never,
				{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
			);
			(plugin as unknown as { data: unknown }).data = JSON.parse(JSON.stringify(data)) as unknown;
			plugin.load();
			await pollUntil(
				() => (plugin.settingsHost as BridgeSettingsHost | undefined)?.settings,
				"the settings to load",
			);
		}
		const saved = (): BridgeSettings => (plugin as unknown as { data: BridgeSettings }).data;

		beforeEach(() => rmSync(join(temp.path, "vault", ".claude"), { recursive: true, force: true }));

		it("is shown once, above the message box, when the vault has private folders and the rules are off", async () => {
			const { view } = await openPanel();
			const card = offerCard(view);
			expect(card?.textContent).toContain(
				"Claude Code's own file tools open vault files directly, private ones too",
			);
			const tabEl = view.activeTab?.el as unknown as FakeElement;
			const slotAt = tabEl.children.indexOf(view.activeTab?.offerSlot as unknown as FakeElement);
			expect(slotAt).toBeGreaterThan(-1);
			expect(slotAt).toBeLessThan(
				tabEl.children.findIndex(
					(child) => child.hasClass("ccb-agent-input") || child.findAll("ccb-agent-textarea").length > 0,
				),
			);
			await view.newSession();
			expect(view.sessions).toHaveLength(2);
			expect(offerCard(view)).toBeUndefined();
		});

		it("Add the rules shows the file change as the settings tab does, and writing it turns the option on", async () => {
			const { view } = await openPanel();
			const card = offerCard(view);
			click(card, "ccb-agent-offer-add");
			const write = await pollUntil(
				() =>
					Setting.created
						.filter((setting) => (setting.containerEl as unknown as FakeElement).parent === card)
						.flatMap((setting) => setting.buttons)
						.find((button) => button.text === "Write the rules"),
				"the previewed change",
			);
			expect(card?.findAll("claude-code-bridge-permissions-diff")[0]?.text).toContain("Read(./Private/**)");
			expect(saved().agentPanel.denyRulesOffered).toBe(true);
			expect(plugin.settingsHost.settings.keepPrivateFromClaudeTools).toBe(false);
			await write.click();
			await pollUntil(
				() => (plugin.settingsHost.settings.keepPrivateFromClaudeTools ? true : undefined),
				"the option to turn on",
			);
			expect(readFileSync(rulesFile(), "utf8")).toContain("Read(./Private/**)");
			expect(saved().keepPrivateFromClaudeTools).toBe(true);
			expect(plugin.settingsHost.previewedPermissions.load()?.settingsFile).toBe(".claude/settings.json");
			expect(offerCard(view)).toBeUndefined();
		});

		it("Not now is remembered: the card goes, nothing is written, and it is not offered again after a restart", async () => {
			const { view } = await openPanel();
			click(offerCard(view), "ccb-agent-offer-dismiss");
			await pollUntil(() => (saved().agentPanel.denyRulesOffered ? true : undefined), "the answer to be saved");
			expect(offerCard(view)).toBeUndefined();
			expect(plugin.settingsHost.settings.keepPrivateFromClaudeTools).toBe(false);
			expect(() => readFileSync(rulesFile(), "utf8")).toThrow(/ENOENT/);
			await restartWith(saved());
			const reopened = await openPanel();
			expect(offerCard(reopened.view)).toBeUndefined();
		});

		it("is offered again after a restart while it was not answered", async () => {
			await openPanel();
			await restartWith(saved());
			const { view } = await openPanel();
			expect(offerCard(view)).toBeDefined();
		});

		it("is not shown in a vault without private folders (private tags alone are not covered by the rules)", async () => {
			await restartWith({ privateTags: ["secret"], vaultTools: { enabled: false } });
			const { view } = await openPanel();
			expect(offerCard(view)).toBeUndefined();
		});

		it("is not shown when the rules are already on", async () => {
			await restartWith({
				privateFolders: ["Private"],
				keepPrivateFromClaudeTools: true,
				vaultTools: { enabled: false },
			});
			const { view } = await openPanel();
			expect(offerCard(view)).toBeUndefined();
		});
	});
});
