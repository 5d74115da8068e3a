import { readdirSync } from "node:fs";
import ClaudeCodeBridgePlugin from "../../src/plugin";
import type { BridgeSettingsHost } from "../../src/obsidian/settings/bridge-settings-host";
import { lockDirectory } from "../../src/server/lock-file";
import type { App } from "../__mocks__/obsidian";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { createIndexedApp } from "./harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/** Resolves once a dynamic import of the bridge's modules started now has settled, and the turn after it has run. */
async function afterTheBridgeModulesLoad(): Promise<void> {
	await import("../../src/obsidian/bridge/bridge-runtime");
	await new Promise((resolve) => setImmediate(resolve));
}

describe("the plugin loads the bridge's modules at layout ready", () => {
	const temp = makeTempDir("plugin-lazy-start");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;

	beforeEach(async () => {
		process.env.HOME = temp.path;
		app = await createIndexedApp({ "Notes/Alpha.md": "# Alpha\n" }, temp.path);
		plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(plugin as unknown as { data: unknown }).data = { vaultTools: { enabled: false } };
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

	it("starts the bridge once they have loaded", async () => {
		expect(plugin.settingsHost.bridgeStatus().state).toBe("stopped");
		app.workspace.finishLayout();
		await pollUntil(
			() => (plugin.settingsHost.bridgeStatus().state === "listening" ? true : undefined),
			"the bridge to listen",
		);
	});

	it("starts nothing when the plugin is unloaded while they load", async () => {
		app.workspace.finishLayout();
		plugin.unload();
		await afterTheBridgeModulesLoad();
		expect((plugin as unknown as { bridge?: unknown }).bridge).toBeUndefined();
		expect(plugin.settingsHost.bridgeStatus().state).toBe("stopped");
	});

	it("starts one bridge (one lock file) when a restart comes while they load", async () => {
		app.workspace.finishLayout();
		await plugin.settingsHost.applyServerSettings();
		await afterTheBridgeModulesLoad();
		await pollUntil(
			() => (plugin.settingsHost.bridgeStatus().state === "listening" ? true : undefined),
			"the bridge to listen",
		);
		expect(readdirSync(lockDirectory(temp.path)).filter((name) => name.endsWith(".lock"))).toEqual([
			`${plugin.settingsHost.bridgeStatus().port}.lock`,
		]);
	});
});
