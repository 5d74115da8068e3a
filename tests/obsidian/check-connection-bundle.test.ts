/**
 * "Check connection" in the built main.js: the plugin loads against the fake, starts its bridge in a temp HOME,
 * and the settings tab's button runs the doctor on what the plugin really wrote.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { App, Plugin, Setting, type FakeElement } from "../__mocks__/obsidian";
import { makeTempDir } from "../helpers/temp-dir";
import { waitUntil } from "../helpers/wait-until";

describe("Check connection in the built plugin", () => {
	const originalHome = process.env.HOME;
	const originalConfigDir = process.env.CLAUDE_CONFIG_DIR;
	const temp = makeTempDir("check-connection");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "My vault");

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
		process.env.HOME = home;
		// Only the temp HOME's lock folder: nothing of the machine's own Claude Code set-up.
		delete process.env.CLAUDE_CONFIG_DIR;
	});

	afterAll(() => {
		process.env.HOME = originalHome;
		if (originalConfigDir !== undefined) process.env.CLAUDE_CONFIG_DIR = originalConfigDir;
		temp.remove();
	});

	it("finds the plugin's own lock file, token and vault, and only warns about the missing client (a space in the path is no problem: every command quotes it)", async () => {
		const module = jest.requireActual<{ default: new (app: App, manifest: object) => Plugin }>(
			resolve(__dirname, "../../main.js"),
		);
		const app = new App(vault, "My vault");
		const plugin = new module.default(app, {
			id: "claude-code-bridge",
			name: "Claude Code Bridge",
			version: "0.1.0",
		});
		plugin.load();
		try {
			await new Promise((resolveTick) => setTimeout(resolveTick, 0));
			app.workspace.finishLayout();
			const statusBar = plugin.statusBarItems[0];
			if (!statusBar) throw new Error("no status bar item");
			await waitUntil(() => statusBar.text === "Claude: ready", "the status bar to say ready");

			const tab = plugin.settingTabs[0];
			if (!tab) throw new Error("no settings tab");
			Setting.created = [];
			(tab as unknown as { display(): void }).display();
			const button = Setting.created
				.find((setting) => setting.name === "Start Claude Code in a terminal")
				?.buttons.find((candidate) => candidate.text === "Check connection");
			if (!button) throw new Error("no Check connection button");
			await button.click();

			const rows = tab.containerEl.findAll("claude-code-bridge-doctor-line").map((row: FakeElement) => ({
				level: [...row.classes].find((name) => name.startsWith("is-")),
				what: row.children[1]?.text ?? "",
			}));
			expect(rows.filter((row) => row.level !== "is-ok").map((row) => row.what)).toEqual([
				"No Claude Code client is connected",
			]);
			expect(tab.containerEl.findAll("claude-code-bridge-doctor-summary")[0]?.text).toBe("1 warning.");
			const port = /^The bridge listens on 127\.0\.0\.1:(\d+)$/.exec(
				rows.find((row) => row.what.startsWith("The bridge listens"))?.what ?? "",
			)?.[1];
			expect(rows.map((row) => row.what)).toEqual(
				expect.arrayContaining([
					expect.stringMatching(
						new RegExp(
							`^The lock file is this bridge's: pid ${process.pid}, "Obsidian · My vault", token fingerprint [0-9a-f]{8}$`,
						),
					),
					`The lock file lists the vault's real path ${vault}`,
					`Port ${port} answers and accepts the token in the lock file`,
				]),
			);
		} finally {
			plugin.unload();
		}
	});
});
