import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { App, Plugin, Setting, type FakeElement } from "../../__mocks__/obsidian";
import type { BridgeStatus } from "../../../src/ide/bridge-host";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { BridgeSettingTab, type SettingsHost } from "../../../src/obsidian/settings/settings-tab";
import { DEFAULT_SETTINGS, type BridgeSettings } from "../../../src/settings";
import { makeTempDir } from "../../helpers/temp-dir";

/** Issue 11, finding 3: the settings tab says when a private-folder rule matches no folder, so it protects nothing. */
describe("the private folders setting warns about rules that match no folder", () => {
	const temp = makeTempDir("private-folder-warning");
	afterAll(() => temp.remove());

	function open(privateFolders: string[]): { warning: () => string; change: (value: string) => Promise<void> } {
		Setting.created = [];
		const vaultPath = join(temp.path, "Vault");
		mkdirSync(vaultPath, { recursive: true });
		const settings: BridgeSettings = { ...DEFAULT_SETTINGS, privateFolders, privateTags: [] };
		const status: BridgeStatus = { state: "stopped", clients: [] };
		const host: SettingsHost = {
			settings,
			vaultPath,
			saveSettings: () => Promise.resolve(),
			bridgeStatus: () => status,
			applyServerSettings: () => Promise.resolve(),
			applyLiveSettings: () => undefined,
			rotateToken: () => Promise.resolve(status),
			doctorInputs: () => ({ vaultPath, status, pid: process.pid }),
		};
		const app = new App(vaultPath, "Vault");
		for (const path of ["Secret/Health/a.md", "Journal/b.md", "top.md"]) app.vault.contents.set(path, "x");
		const tab = new BridgeSettingTab(
			app as never,
			new Plugin(app, { id: "x", name: "x", version: "0" }) as never,
			host,
		);
		tab.display();
		const container = (tab as unknown as { containerEl: FakeElement }).containerEl;
		const element = container.children.find((child) => child.hasClass("claude-code-bridge-setting-warning"));
		const area = Setting.created.find((setting) => setting.name === "Private folders")?.texts[0];
		if (!element || !area) throw new Error("no private folders setting with its warning");
		return { warning: () => element.text, change: (value) => area.change(value) };
	}

	it("is empty while every rule names a folder", () => {
		expect(open(["Secret", "Secret/Health", "Journal/"]).warning()).toBe("");
	});

	it("names a rule that matches nothing, and clears as soon as the rule is fixed", async () => {
		const tab = open(["Secret", "Diary"]);
		expect(tab.warning()).toBe(
			'This private folder rule matches no folder of the vault, so it protects nothing: "Diary".',
		);
		await tab.change("Secret\nJournal");
		expect(tab.warning()).toBe("");
	});

	it("judges case as the vault's volume does (detected on the real temp folder)", () => {
		const caseInsensitive = new VaultPaths(join(temp.path, "Vault")).identity.caseInsensitive;
		// A case-insensitive volume makes `secret` the folder `Secret`; on a case-sensitive one it is not, and the tab says so.
		expect(open(["secret"]).warning()).toBe(
			caseInsensitive
				? ""
				: 'This private folder rule matches no folder of the vault, so it protects nothing: "secret" (did you mean "Secret"?).',
		);
	});
});
