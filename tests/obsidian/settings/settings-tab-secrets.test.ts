/**
 * The settings tab of the running plugin never shows or copies either token: the IDE connection token (in the lock
 * file) and the vault tools HTTP token (in the record `claude-code-bridge mcp-headers` reads). Every row, every
 * folded section, every copy button and the results of Check connection are read.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import type { BridgeSettingsHost } from "../../../src/obsidian/settings/bridge-settings-host";
import { readHttpTokenRecord } from "../../../src/vault-tools/serve/http-token-record";
import { Setting, notices, type App, type FakeElement } from "../../__mocks__/obsidian";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";
import { createIndexedApp } from "../harness/indexed-app";

describe("the settings tab of the running plugin", () => {
	const temp = makeTempDir("settings-tab-secrets");
	const home = join(temp.path, "home");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;

	beforeEach(async () => {
		process.env.HOME = home;
		// The notes live in the fake vault; the folder itself exists, as Check connection resolves it on disk.
		mkdirSync(join(temp.path, "vault"), { recursive: true });
		app = await createIndexedApp({ "Notes/A.md": "# A\n" }, join(temp.path, "vault"));
		plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(plugin as unknown as { data: unknown }).data = { privateFolders: ["Private"] };
		plugin.load();
		await pollUntil(
			() => (plugin.settingsHost as BridgeSettingsHost | undefined)?.settings.vaultTools,
			"the settings to load",
		);
		app.workspace.finishLayout();
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		plugin?.unload();
		await (plugin as unknown as { bridge?: { stopped: Promise<void> } }).bridge?.stopped;
		await pollUntil(
			() =>
				(plugin?.settingsHost as BridgeSettingsHost | undefined)?.vaultToolsStatus().http?.state === "listening"
					? undefined
					: true,
			"the HTTP endpoint to close",
		);
		process.env.HOME = previousHome;
	});
	afterAll(() => temp.remove());

	it("shows neither token, nor half of one, anywhere in the tab, and copies neither", async () => {
		const lockFile = await pollUntil(() => plugin.settingsHost.bridgeStatus().lockFilePath, "the lock file");
		const ideToken = (JSON.parse(readFileSync(lockFile, "utf8")) as { authToken: string }).authToken;
		const port = await pollUntil(() => {
			const http = plugin.settingsHost.vaultToolsStatus().http;
			return http?.state === "listening" ? http.port : undefined;
		}, "the HTTP endpoint to listen");
		const httpToken = readHttpTokenRecord(home, port).token ?? "";
		expect(Math.min(ideToken.length, httpToken.length)).toBeGreaterThanOrEqual(32);

		const copied: string[] = [];
		Object.defineProperty(globalThis, "navigator", {
			configurable: true,
			value: { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } },
		});
		notices.splice(0);
		Setting.created = [];
		const tab = (plugin as unknown as { settingTabs: { display(): void; containerEl: FakeElement }[] })
			.settingTabs[0];
		if (!tab) throw new Error("no settings tab");
		tab.display();
		await Setting.created
			.find((setting) => setting.name === "Start Claude Code in a terminal")
			?.buttons.find((button) => button.text === "Check connection")
			?.click();
		const root = tab.containerEl;
		expect(root.findAll("claude-code-bridge-doctor-summary")).toHaveLength(1);
		const copyButtons = root.findAll("ccb-command-copy");
		// The launch command, the vault tools' terminal command and its --allowedTools line, and the doctor's launch command.
		expect(copyButtons.length).toBeGreaterThanOrEqual(4);
		for (const button of copyButtons) button.dispatch("click");
		// And the buttons of the rows that copy (Copy launch command).
		const copyRowButtons = Setting.created
			.flatMap((setting) => setting.buttons)
			.filter((button) => button.text.startsWith("Copy"));
		expect(copyRowButtons.length).toBeGreaterThanOrEqual(1);
		for (const button of copyRowButtons) await button.click();
		await pollUntil(
			() => (copied.length === copyButtons.length + copyRowButtons.length ? true : undefined),
			"every copy",
		);

		const everything = [
			root.textContent,
			...Setting.created.flatMap((setting) => [setting.name, setting.desc]),
			...copied,
			...notices,
		].join("\n");
		expect(everything).toContain('cat \\"$HOME/.claude-code-bridge/mcp-tokens/');
		for (const token of [ideToken, httpToken]) {
			expect(everything).not.toContain(token.slice(0, token.length / 2));
			expect(everything).not.toContain(token.slice(token.length / 2));
		}
	});
});
