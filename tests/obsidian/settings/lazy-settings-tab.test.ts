import { App, Plugin, type FakeElement } from "../../__mocks__/obsidian";
import type { BridgeStatus } from "../../../src/ide/bridge-host";
import type { SettingsHost } from "../../../src/obsidian/settings/settings-tab";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { rowName, visibleRows } from "../harness/settings-rows";

const SETTINGS_TAB = "../../../src/obsidian/settings/settings-tab";

function host(status: () => BridgeStatus): SettingsHost {
	return {
		settings: { ...DEFAULT_SETTINGS, privateFolders: [], privateTags: [] },
		vaultPath: "/home/me/My vault",
		saveSettings: () => Promise.resolve(),
		bridgeStatus: status,
		applyServerSettings: () => Promise.resolve(),
		applyLiveSettings: () => undefined,
		rotateToken: () => Promise.resolve(status()),
		doctorInputs: () => ({ vaultPath: "/home/me/My vault", status: status(), pid: process.pid }),
	};
}

describe("the settings tab Obsidian lists from load", () => {
	let modulesLoaded: number;
	let LazySettingTab: typeof import("../../../src/obsidian/settings/lazy-settings-tab").LazySettingTab;

	beforeEach(() => {
		modulesLoaded = 0;
		jest.resetModules();
		jest.doMock(SETTINGS_TAB, () => {
			modulesLoaded++;
			return jest.requireActual<object>(SETTINGS_TAB);
		});
		({ LazySettingTab } = jest.requireActual<typeof import("../../../src/obsidian/settings/lazy-settings-tab")>(
			"../../../src/obsidian/settings/lazy-settings-tab",
		));
	});

	afterEach(() => jest.dontMock(SETTINGS_TAB));

	function makeTab(status: () => BridgeStatus) {
		const app = new App("/home/me/My vault", "My vault");
		const tab = new LazySettingTab(
			app as never,
			new Plugin(app, { id: "x", name: "x", version: "0" }) as never,
			host(status),
		);
		return { tab, root: tab.containerEl as unknown as FakeElement };
	}

	it("initialises the settings tab's module only when first opened, then draws its rows in its own element", () => {
		const { tab, root } = makeTab(() => ({ state: "stopped", clients: [] }));
		tab.refreshStatus();
		expect(modulesLoaded).toBe(0);
		expect(root.children).toEqual([]);

		tab.display();
		expect(modulesLoaded).toBe(1);
		expect(visibleRows(root).map(rowName).slice(0, 3)).toEqual([
			"Connection",
			"Let Claude Code connect",
			"Start Claude Code in a terminal",
		]);

		tab.hide();
		tab.display();
		expect(modulesLoaded).toBe(1);
		expect(
			visibleRows(root)
				.map(rowName)
				.filter((name) => name === "Let Claude Code connect"),
		).toHaveLength(1);
	});

	it("passes a status change on to the open tab", () => {
		let status: BridgeStatus = { state: "stopped", clients: [] };
		const { tab, root } = makeTab(() => status);
		tab.display();
		const statusLine = (): string => root.findAll("claude-code-bridge-settings-status")[0]?.text ?? "";
		const stopped = statusLine();
		status = { state: "listening", port: 40123, clients: [] };
		tab.refreshStatus();
		expect(statusLine()).not.toBe(stopped);
		expect(statusLine()).not.toBe("");
	});
});
