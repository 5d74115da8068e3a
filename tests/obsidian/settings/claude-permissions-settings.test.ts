import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { App, Plugin, Setting, notices, type FakeElement } from "../../__mocks__/obsidian";
import type { BridgeStatus } from "../../../src/ide/bridge-host";
import type { DenyRuleSources } from "../../../src/ide/claude-permissions/deny-rules";
import { ClaudePermissionsSync } from "../../../src/obsidian/settings/claude-permissions-sync";
import { PreviewedPermissions } from "../../../src/obsidian/settings/previewed-permissions";
import { readExcludedFiles } from "../../../src/obsidian/settings/excluded-files";
import { BridgeSettingTab, type SettingsHost } from "../../../src/obsidian/settings/settings-tab";
import { DEFAULT_SETTINGS, migrateSettings, type BridgeSettings } from "../../../src/settings";
import { makeTempDir } from "../../helpers/temp-dir";

const STOPPED: BridgeStatus = { state: "stopped", clients: [] };
/** A renamed config folder (users can rename it); what the plugin passes is `app.vault.configDir`. */
const CONFIG_DIR = ".vault-config";
const KEEP = "Keep private folders out of Claude Code's file tools";
const PERSONAL = "Use the personal settings file";
const EXCLUDED = "Treat Obsidian's excluded files as private";

let vault: string;
let removeVault: () => void;
beforeEach(() => {
	({ path: vault, remove: removeVault } = makeTempDir("permissions-settings"));
});
afterEach(() => removeVault?.());

function setUp(stored: Partial<BridgeSettings> = {}) {
	Setting.created = [];
	notices.splice(0);
	const calls: string[] = [];
	const settings: BridgeSettings = {
		...DEFAULT_SETTINGS,
		privateFolders: ["Secret"],
		privateTags: ["private"],
		...stored,
	};
	const sources = (): DenyRuleSources => ({
		folders: settings.privateFolders,
		tags: settings.privateTags,
		configDirs: [CONFIG_DIR],
	});
	const app = new App(vault, "My vault");
	const previewedPermissions = new PreviewedPermissions(app);
	const host: SettingsHost = {
		settings,
		vaultPath: vault,
		saveSettings: () => (calls.push("save"), Promise.resolve()),
		bridgeStatus: () => STOPPED,
		applyServerSettings: () => Promise.resolve(),
		applyLiveSettings: () => void calls.push("apply-live"),
		privacyChanged: () => void calls.push("privacy-changed"),
		rotateToken: () => Promise.resolve(STOPPED),
		doctorInputs: () => ({ vaultPath: vault, status: STOPPED, pid: process.pid }),
		denyRuleSources: sources,
		previewedPermissions,
	};
	const tab = new BridgeSettingTab(
		app as never,
		new Plugin(app, { id: "x", name: "x", version: "0" }) as never,
		host,
	);
	tab.display();
	const named = (name: string): Setting => {
		const found = Setting.created.filter((setting) => setting.name === name).at(-1);
		if (!found) throw new Error(`No setting named ${name}`);
		return found;
	};
	/** The preview area that shows a change: under the option (Privacy) or under the settings file (Advanced). */
	const previews = (): FakeElement[] =>
		(tab.containerEl as unknown as FakeElement).findAll("claude-code-bridge-permissions-preview");
	const preview = (): FakeElement => {
		const found = previews().find((area) => area.children.length > 0) ?? previews()[0];
		if (!found) throw new Error("No preview area");
		return found;
	};
	const button = (text: string) => {
		const found = Setting.created
			.filter((setting) => setting.containerEl === preview())
			.flatMap((setting) => setting.buttons)
			.reverse()
			.find((each) => each.text === text);
		if (!found) throw new Error(`No button ${text} in the preview; it shows: ${preview().textContent}`);
		return found;
	};
	return { settings, calls, named, preview, previews, button, sources, app, previewedPermissions };
}

const settingsFile = () => join(vault, ".claude", "settings.json");
const localFile = () => join(vault, ".claude", "settings.local.json");
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("the settings tab's Claude Code file tools section", () => {
	it("sits with the privacy rows, its settings file under Advanced, and both options are off by default", () => {
		const { named } = setUp();
		const names = Setting.created.map((setting) => setting.name);
		expect(names.slice(names.indexOf("Privacy"), names.indexOf("More settings"))).toEqual([
			"Privacy",
			"Private folders",
			"Private tags",
			KEEP,
		]);
		expect(names.slice(names.indexOf("Claude Code's file tools"))).toEqual(["Claude Code's file tools", PERSONAL]);
		expect(named(KEEP).toggles[0]?.value).toBe(false);
		expect(named(PERSONAL).toggles[0]?.value).toBe(false);
		expect(named(EXCLUDED).toggles[0]?.value).toBe(false);
		expect(migrateSettings({})).toMatchObject({
			keepPrivateFromClaudeTools: false,
			claudeSettingsFile: "shared",
			excludedFilesArePrivate: false,
		});
	});

	it("the toggle is not shown on until the file is written, and then says in a sentence what is kept out and where", async () => {
		const { named, button, previews } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		expect(named(KEEP).toggles[0]?.value).toBe(false);
		expect(named(KEEP).desc).not.toContain("will not read or edit");
		await button("Write the rules").click();
		expect(existsSync(settingsFile())).toBe(true);
		expect(named(KEEP).toggles[0]?.value).toBe(true);
		expect(named(KEEP).desc).toBe(
			`Claude Code will not read or edit: Secret/, ${CONFIG_DIR}/, .trash/ — in the vault's shared Claude Code settings.`,
		);
		await named(PERSONAL).toggles[0]?.change(true);
		expect(named(PERSONAL).toggles[0]?.value).toBe(false);
		// The change of file shows under its own row, in Advanced, and names the file.
		expect(previews()[1]?.textContent).toContain("— in .claude/settings.local.json.");
		expect(previews()[0]?.children).toEqual([]);
		await button("Write the rules").click();
		expect(named(PERSONAL).toggles[0]?.value).toBe(true);
		expect(named(KEEP).desc).toContain("— in your personal Claude Code settings for this vault.");
		await named(KEEP).toggles[0]?.change(false);
		expect(named(KEEP).toggles[0]?.value).toBe(true);
		await button("Remove the rules").click();
		expect(named(KEEP).toggles[0]?.value).toBe(false);
	});

	it("turning it on shows the exact change first and writes nothing; Write the rules writes it", async () => {
		const { named, preview, button, settings, calls } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		const shown = preview().textContent;
		expect(shown).toContain("+++ .claude/settings.json");
		expect(shown).toContain('+      "Read(./Secret/**)",');
		expect(shown).toContain(`"Read(./${CONFIG_DIR}/**)"`);
		expect(shown).toContain("#private");
		expect(preview().findAll("claude-code-bridge-permissions-diff")).toHaveLength(1);
		expect(existsSync(settingsFile())).toBe(false);
		expect(settings.keepPrivateFromClaudeTools).toBe(false);
		expect(button("Write the rules").cta).toBe(true);

		await button("Write the rules").click();
		expect((readJson(settingsFile()) as { permissions: { deny: string[] } }).permissions.deny).toContain(
			"Read(./Secret/**)",
		);
		expect(settings.keepPrivateFromClaudeTools).toBe(true);
		expect(calls).toContain("save");
		expect(notices.at(-1)).toBe(
			"Deny rules written into .claude/settings.json. Restart running Claude Code sessions.",
		);
		expect(preview().textContent).toBe("");
	});

	it("Cancel writes nothing and puts the toggle back", async () => {
		const { named, button, settings } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		await button("Cancel").click();
		expect(named(KEEP).toggles[0]?.value).toBe(false);
		expect(existsSync(settingsFile())).toBe(false);
		expect(settings.keepPrivateFromClaudeTools).toBe(false);
	});

	it("a malformed settings file: says so, writes nothing, puts the toggle back", async () => {
		mkdirSync(join(vault, ".claude"));
		writeFileSync(settingsFile(), "{ mine: true }");
		const { named, preview, settings } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		expect(preview().textContent).toMatch(
			/^Nothing was written: \.claude\/settings\.json: It is not valid JSON .*it was left as it is\.$/,
		);
		expect(readFileSync(settingsFile(), "utf8")).toBe("{ mine: true }");
		expect(named(KEEP).toggles[0]?.value).toBe(false);
		expect(settings.keepPrivateFromClaudeTools).toBe(false);
	});

	it("a settings.json linked to a file outside the vault: says so in the preview, writes nothing through it", async () => {
		const outside = makeTempDir("permissions-outside");
		try {
			const mine = JSON.stringify({ permissions: { deny: ["Read(~/.ssh/**)"] } });
			writeFileSync(join(outside.path, "settings.json"), mine);
			mkdirSync(join(vault, ".claude"));
			symlinkSync(join(outside.path, "settings.json"), settingsFile());
			const { named, preview, settings } = setUp();
			await named(KEEP).toggles[0]?.change(true);
			expect(preview().textContent).toMatch(
				/^Nothing was written: \.claude\/settings\.json is a symbolic link \(to .*\): the bridge writes Claude Code's rules only into a real file inside the vault, so nothing was written\./,
			);
			expect(readFileSync(join(outside.path, "settings.json"), "utf8")).toBe(mine);
			expect(named(KEEP).toggles[0]?.value).toBe(false);
			expect(settings.keepPrivateFromClaudeTools).toBe(false);
		} finally {
			outside.remove();
		}
	});

	it("turning it off previews and removes only the bridge's rules", async () => {
		mkdirSync(join(vault, ".claude"));
		writeFileSync(settingsFile(), JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }));
		const { named, button, preview, settings } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		await button("Write the rules").click();
		await named(KEEP).toggles[0]?.change(false);
		expect(preview().textContent).toContain('-      "Read(./Secret/**)",');
		await button("Remove the rules").click();
		expect(readJson(settingsFile())).toEqual({ permissions: { deny: ["Bash(rm *)"] } });
		expect(settings.keepPrivateFromClaudeTools).toBe(false);
	});

	it("choosing the personal file while on moves the rules there, after the preview", async () => {
		const { named, button, preview, settings } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		await button("Write the rules").click();
		await named(PERSONAL).toggles[0]?.change(true);
		expect(preview().findAll("claude-code-bridge-permissions-diff")).toHaveLength(2);
		await button("Write the rules").click();
		expect(readJson(settingsFile())).toEqual({});
		expect((readJson(localFile()) as { permissions: { deny: string[] } }).permissions.deny).toContain(
			"Edit(./Secret/**)",
		);
		expect(settings.claudeSettingsFile).toBe("local");
	});

	it("the excluded files option is saved and applied like the other privacy rules", async () => {
		const { named, settings, calls } = setUp();
		await named(EXCLUDED).toggles[0]?.change(true);
		expect(settings.excludedFilesArePrivate).toBe(true);
		expect(calls).toEqual(["save", "privacy-changed"]);
	});
});

describe("stored settings of the section", () => {
	it("keeps valid values and drops anything else to the defaults (a stored path cannot pick the settings file)", () => {
		expect(
			migrateSettings({
				keepPrivateFromClaudeTools: true,
				claudeSettingsFile: "local",
				excludedFilesArePrivate: true,
			}),
		).toMatchObject({
			keepPrivateFromClaudeTools: true,
			claudeSettingsFile: "local",
			excludedFilesArePrivate: true,
		});
		expect(
			migrateSettings({
				keepPrivateFromClaudeTools: "yes",
				claudeSettingsFile: "../../.bashrc",
				excludedFilesArePrivate: 1,
			}),
		).toMatchObject({
			keepPrivateFromClaudeTools: false,
			claudeSettingsFile: "shared",
			excludedFilesArePrivate: false,
		});
	});
});

describe("ClaudePermissionsSync (private folders changed while the option is on)", () => {
	function host(
		settings: BridgeSettings,
		previewedPermissions = new PreviewedPermissions(new App(vault, "My vault")),
	) {
		return {
			settings,
			vaultPath: vault,
			saveSettings: () => Promise.resolve(),
			previewedPermissions,
			denyRuleSources: (): DenyRuleSources => ({ folders: settings.privateFolders, tags: [], configDirs: [] }),
		};
	}

	it("after a write previewed in the settings tab, brings the rules up to date and names the file it changed", async () => {
		const { named, button, settings, previewedPermissions, sources } = setUp();
		await named(KEEP).toggles[0]?.change(true);
		await button("Write the rules").click();
		settings.privateFolders = ["Diary"];
		const told: string[] = [];
		const sync = new ClaudePermissionsSync(
			{
				settings,
				vaultPath: vault,
				saveSettings: () => Promise.resolve(),
				previewedPermissions,
				denyRuleSources: sources,
			},
			(message) => told.push(message),
		);
		await sync.sync();
		const deny = (readJson(settingsFile()) as { permissions: { deny: string[] } }).permissions.deny;
		expect(deny).toContain("Read(./Diary/**)");
		expect(deny).not.toContain("Read(./Secret/**)");
		expect(told).toEqual([
			`Claude Code's deny rules updated in ${join(vault, ".claude", "settings.json")} for the new private folders (4 added, 4 removed). Restart running Claude Code sessions.`,
		]);
		expect(await sync.doctorInputs()).toMatchObject({ enabled: true, settingsFile: ".claude/settings.json" });
	});

	it("without a write previewed on this device (the option came on in a synced data.json), writes nothing and says a preview is waiting", async () => {
		mkdirSync(join(vault, ".claude"));
		const mine = `${JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }, null, 2)}\n`;
		writeFileSync(settingsFile(), mine);
		const told: string[] = [];
		await new ClaudePermissionsSync(
			host({ ...DEFAULT_SETTINGS, privateFolders: ["Secret"], keepPrivateFromClaudeTools: true }),
			(message) => told.push(message),
		).sync();
		expect(readFileSync(settingsFile(), "utf8")).toBe(mine);
		expect(readdirSync(join(vault, ".claude"))).toEqual(["settings.json"]);
		expect(told).toEqual([
			`Claude Code's deny rules in ${join(vault, ".claude", "settings.json")} are not up to date, and nothing was written: the change has not been previewed on this device. See it in the plugin's settings, under "Claude Code's file tools".`,
		]);
	});

	it("a write previewed into the shared file does not let it write into the personal one", async () => {
		const previewed = new PreviewedPermissions(new App(vault, "My vault"));
		previewed.remember({ settingsFile: ".claude/settings.json", rules: ["Read(./Secret/**)"] });
		const told: string[] = [];
		await new ClaudePermissionsSync(
			host(
				{
					...DEFAULT_SETTINGS,
					privateFolders: ["Secret"],
					keepPrivateFromClaudeTools: true,
					claudeSettingsFile: "local",
				},
				previewed,
			),
			(message) => told.push(message),
		).sync();
		expect(existsSync(join(vault, ".claude"))).toBe(false);
		expect(told).toEqual([
			expect.stringMatching(
				/settings\.local\.json are not up to date, and nothing was written: the change has not been previewed on this device\./,
			),
		]);
	});

	it("the waiting preview in the settings tab: seen and written, the automatic update follows from then on", async () => {
		const { named, button, settings, previewedPermissions, sources } = setUp({ keepPrivateFromClaudeTools: true });
		const waiting = named("Deny rules waiting for your preview");
		await waiting.buttons[0]?.click();
		expect(existsSync(settingsFile())).toBe(false);
		await button("Write the rules").click();
		expect((readJson(settingsFile()) as { permissions: { deny: string[] } }).permissions.deny).toContain(
			"Read(./Secret/**)",
		);
		expect(previewedPermissions.load()?.settingsFile).toBe(".claude/settings.json");
		settings.privateFolders = ["Diary"];
		const told: string[] = [];
		await new ClaudePermissionsSync(
			{
				settings,
				vaultPath: vault,
				saveSettings: () => Promise.resolve(),
				previewedPermissions,
				denyRuleSources: sources,
			},
			(message) => told.push(message),
		).sync();
		expect((readJson(settingsFile()) as { permissions: { deny: string[] } }).permissions.deny).toContain(
			"Read(./Diary/**)",
		);
		expect(told).toEqual([
			`Claude Code's deny rules updated in ${settingsFile()} for the new private folders (4 added, 4 removed). Restart running Claude Code sessions.`,
		]);
	});

	it("writes nothing while the option is off", async () => {
		const sync = new ClaudePermissionsSync(
			host({ ...DEFAULT_SETTINGS, privateFolders: ["Secret"] }),
			() => undefined,
		);
		await sync.sync();
		expect(existsSync(settingsFile())).toBe(false);
	});

	it("tells the user, and writes nothing, when the settings file became malformed", async () => {
		mkdirSync(join(vault, ".claude"));
		writeFileSync(settingsFile(), "[1,");
		const told: string[] = [];
		await new ClaudePermissionsSync(
			host({ ...DEFAULT_SETTINGS, privateFolders: ["Secret"], keepPrivateFromClaudeTools: true }),
			(message) => told.push(message),
		).sync();
		expect(told).toEqual([
			expect.stringMatching(
				/^Could not update Claude Code's deny rules in .*\.claude\/settings\.json: \.claude\/settings\.json: It is not valid JSON/,
			),
		]);
		expect(readFileSync(settingsFile(), "utf8")).toBe("[1,");
	});
});

describe("readExcludedFiles (Obsidian's userIgnoreFilters)", () => {
	const vaultWith = (value: unknown) =>
		({ getConfig: (key: string) => (key === "userIgnoreFilters" ? value : undefined) }) as never;

	it("takes folder and file paths as paths and keeps regular expressions apart", () => {
		expect(readExcludedFiles(vaultWith(["Archive/", "Daily/2020", "/\\.png$/", "  ", 3, "/Templates/"]))).toEqual({
			paths: ["Archive", "Daily/2020"],
			patterns: ["/\\.png$/", "/Templates/"],
		});
	});

	it("reads anything of another shape, or a vault without getConfig, as nothing excluded", () => {
		expect(readExcludedFiles(vaultWith("Archive/"))).toEqual({ paths: [], patterns: [] });
		expect(readExcludedFiles({} as never)).toEqual({ paths: [], patterns: [] });
	});
});
