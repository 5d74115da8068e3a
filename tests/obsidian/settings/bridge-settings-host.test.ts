import {
	BridgeSettingsHost,
	type PluginData,
	type RunningBridge,
} from "../../../src/obsidian/settings/bridge-settings-host";
import { App } from "../../__mocks__/obsidian";

/** data.json in memory, and a bridge that is off; restarts are counted. */
function hostParts(saved: unknown): {
	app: App;
	data: PluginData & { saved: unknown; writes: number };
	running: RunningBridge & { restarts: number };
} {
	const app = new App("/vault", "Vault");
	const data = {
		saved,
		loadData: () => Promise.resolve(data.saved),
		writes: 0,
		saveData: (value: unknown) => {
			data.writes++;
			data.saved = JSON.parse(JSON.stringify(value)) as unknown;
			return Promise.resolve();
		},
	};
	const running = {
		restarts: 0,
		bridge: () => undefined,
		vaultTools: () => undefined,
		restart: () => {
			running.restarts++;
			return Promise.resolve();
		},
	};
	return { app, data, running };
}

describe("BridgeSettingsHost", () => {
	it("reads data.json migrated, and writes the settings back", async () => {
		const { app, data, running } = hostParts({ privateFolders: ["Diary"], unknownKey: 1 });
		const host = await BridgeSettingsHost.load(app as never, data, running);
		expect(host.settings.privateFolders).toEqual(["Diary"]);
		expect("unknownKey" in host.settings).toBe(false);
		host.settings.privateTags = ["#secret"];
		await host.saveSettings();
		expect(data.saved).toMatchObject({ privateFolders: ["Diary"], privateTags: ["#secret"] });
	});

	it("writes data.json once when a field is typed into key by key (every caller waits for that write), and at unload what is still waiting", async () => {
		const { app, data, running } = hostParts({});
		const host = await BridgeSettingsHost.load(app as never, data, running);
		const keys = ["D", "Di", "Dia", "Diar", "Diary"].map((typed) => {
			host.settings.privateFolders = [typed];
			return host.saveSettings();
		});
		expect(data.writes).toBe(0);
		await Promise.all(keys);
		expect(data.writes).toBe(1);
		expect(data.saved).toMatchObject({ privateFolders: ["Diary"] });
		host.settings.privateFolders = ["Journal"];
		void host.saveSettings();
		await host.flushSettings();
		expect(data.writes).toBe(2);
		expect(data.saved).toMatchObject({ privateFolders: ["Journal"] });
		await host.flushSettings();
		expect(data.writes).toBe(2);
	});

	it("builds the privacy rules from the settings, plus Obsidian's Excluded files only when that option is on", async () => {
		const { app, data, running } = hostParts({ privateFolders: ["Diary"], excludedFilesArePrivate: false });
		Object.assign(app.vault, {
			getConfig: (key: string) => (key === "userIgnoreFilters" ? ["Archive/"] : undefined),
		});
		const host = await BridgeSettingsHost.load(app as never, data, running);
		expect(host.privacyRules().folders).toEqual(["Diary"]);
		host.settings.excludedFilesArePrivate = true;
		expect(host.privacyRules().folders).toEqual(["Diary", "Archive"]);
		expect(host.denyRuleSources().configDirs).toEqual([app.vault.configDir]);
	});

	it("while the bridge is off: stopped, no vault tools, no token to rotate; Apply restarts through the plugin", async () => {
		const { app, data, running } = hostParts(null);
		const host = await BridgeSettingsHost.load(app as never, data, running);
		expect(host.vaultPath).toBe("/vault");
		expect(host.bridgeStatus()).toEqual({ state: "stopped", clients: [] });
		expect(host.vaultToolsStatus()).toEqual({ running: false, relays: 0 });
		await expect(host.rotateToken()).rejects.toThrow("The bridge is not running");
		expect(() => host.vaultTools.rotateMcpToken()).toThrow("the vault tools are not running");
		await host.applyServerSettings();
		expect(running.restarts).toBe(1);
	});
});
