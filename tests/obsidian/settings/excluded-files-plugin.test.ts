import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import type { BridgeSettingsHost } from "../../../src/obsidian/settings/bridge-settings-host";
import type { BridgeStatus } from "../../../src/ide/bridge-host";
import { notices, type App } from "../../__mocks__/obsidian";
import { PreviewedPermissions } from "../../../src/obsidian/settings/previewed-permissions";
import { readBridgePrivacy, rulesNotKept } from "../../../src/vault/privacy/bridge-privacy";
import { PluginSettings } from "../../../src/vault/privacy/plugin-settings";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";
import { connectOrThrow, type TestClient } from "../../helpers/test-client";
import { pollUntil } from "../../helpers/wait-until";
import { createIndexedApp } from "../harness/indexed-app";

const NOTES: Record<string, string> = {
	"Notes/public.md": "PUBLIC-TEXT-1\n",
	"Archive/old.md": "ARCHIVED-SECRET-2\n",
};

/** Obsidian's Excluded files, as `vault.getConfig("userIgnoreFilters")` answers (see src/obsidian/settings/excluded-files.ts). */
function excludeInObsidian(app: App, filters: string[]): void {
	Object.assign(app.vault, { getConfig: (key: string) => (key === "userIgnoreFilters" ? filters : undefined) });
}

describe("Treat Obsidian's excluded files as private, through the plugin's own wiring", () => {
	jest.setTimeout(30_000);
	const temp = makeTempDir("excluded-files-plugin");
	const previousHome = process.env.HOME;
	let plugin: ClaudeCodeBridgePlugin;
	let client: TestClient | undefined;

	async function start(stored: Record<string, unknown>): Promise<TestClient> {
		process.env.HOME = temp.path;
		const app = await createIndexedApp(NOTES, temp.path);
		excludeInObsidian(app, ["Archive/", "/\\.png$/"]);
		plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(plugin as unknown as { data: unknown }).data = stored;
		plugin.load();
		await pollUntil(
			() => (plugin.settingsHost as BridgeSettingsHost | undefined)?.settings,
			"the settings to load",
		);
		app.workspace.finishLayout();
		const status = await pollUntil(
			() => {
				const current: BridgeStatus | undefined =
					(plugin.settingsHost as BridgeSettingsHost | undefined) === undefined
						? undefined
						: plugin.settingsHost.bridgeStatus();
				return current?.state === "listening" ? current : undefined;
			},
			() =>
				`the bridge to listen (${JSON.stringify((plugin.settingsHost as BridgeSettingsHost | undefined) === undefined ? "no settings" : plugin.settingsHost.bridgeStatus())})`,
		);
		const lock = JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as { authToken: string };
		client = await connectOrThrow(status.port ?? 0, { token: lock.authToken });
		await client.initialize();
		return client;
	}

	afterEach(async () => {
		await client?.close();
		client = undefined;
		plugin.unload();
		process.env.HOME = previousHome;
	});
	afterAll(() => temp?.remove());

	const read = async (connected: TestClient, path: string): Promise<string> =>
		JSON.stringify(await connected.request("files/read", { path }));

	it("on: a note in an excluded folder is not readable, a public note is", async () => {
		const connected = await start({ excludedFilesArePrivate: true });
		expect(await read(connected, "Archive/old.md")).not.toContain("ARCHIVED-SECRET-2");
		expect(await read(connected, "Notes/public.md")).toContain("PUBLIC-TEXT-1");
		expect(plugin.settingsHost.privacyRules().folders).toEqual(["Archive"]);
	});

	it("tells a relay the rules it applies and its config folder, and they agree with the same settings read from disk", async () => {
		const stored = { excludedFilesArePrivate: true, privateFolders: ["Secret"], privateTags: ["#private"] };
		const connected = await start(stored);
		const answer = await connected.request("vaultTools/privacy", {});
		expect(answer.result).toEqual({
			folders: ["Secret", "Archive"],
			tags: ["#private"],
			configFolder: ".vault-config",
		});
		// What the stdio side reads for the same vault: the plugin's data.json and Obsidian's app.json in that folder,
		// and a stale copy of the settings in another dot folder, which only the combined rules would require.
		const files: Record<string, string> = {
			".vault-config/plugins/claude-code-bridge/data.json": JSON.stringify(stored),
			".vault-config/app.json": JSON.stringify({ userIgnoreFilters: ["Archive/", "/\\.png$/"] }),
			".obsidian-old/plugins/claude-code-bridge/data.json": JSON.stringify({ privateFolders: ["Other"] }),
		};
		for (const [path, text] of Object.entries(files)) {
			mkdirSync(dirname(join(temp.path, path)), { recursive: true });
			writeFileSync(join(temp.path, path), text);
		}
		const onDisk = new PluginSettings({
			vaultRoot: temp.path,
			extra: { folders: [], tags: [] },
			log: () => undefined,
		});
		const bridge = readBridgePrivacy(answer.result);
		if (!bridge) throw new Error(`not a privacy answer: ${JSON.stringify(answer)}`);
		const identity = new VaultPaths(temp.path).identity;
		expect(rulesNotKept(onDisk.rulesFor(bridge.configFolder), bridge, identity)).toEqual([]);
		expect(rulesNotKept(onDisk.rulesFor(undefined), bridge, identity)).toEqual(['the folder "Other"']);
	});

	it("off (the default): Obsidian's excluded files are served as before (the check above can fail)", async () => {
		const connected = await start({});
		expect(await read(connected, "Archive/old.md")).toContain("ARCHIVED-SECRET-2");
	});
});

describe("Claude Code's deny rules at start-up", () => {
	const previousHome = process.env.HOME;
	let temp: { path: string; remove: () => void };
	let plugin: ClaudeCodeBridgePlugin | undefined;
	beforeEach(() => {
		temp = makeTempDir("permissions-startup");
		process.env.HOME = temp.path;
		notices.splice(0);
	});
	afterEach(() => {
		plugin?.unload();
		plugin = undefined;
		process.env.HOME = previousHome;
		temp?.remove();
	});

	/** The plugin with a data.json that turns the option on for Diary (as one synced from another device would). */
	async function startWith(app: App): Promise<ClaudeCodeBridgePlugin> {
		const started = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(started as unknown as { data: unknown }).data = {
			enabled: false,
			privateFolders: ["Diary"],
			keepPrivateFromClaudeTools: true,
		};
		started.load();
		await pollUntil(
			() => (started.settingsHost as BridgeSettingsHost | undefined)?.settings,
			"the settings to load",
		);
		return started;
	}

	it("are brought up to date once the layout is ready after a write previewed on this device, and the notice names the file (the private folders may have changed while Obsidian was closed)", async () => {
		const app = await createIndexedApp({ "Diary/today.md": "DIARY-3\n" }, temp.path);
		const secret = ["Read(./Secret)", "Read(./Secret/**)", "Edit(./Secret)", "Edit(./Secret/**)"];
		mkdirSync(join(temp.path, ".claude"));
		writeFileSync(
			join(temp.path, ".claude", "settings.json"),
			JSON.stringify({ permissions: { deny: ["Bash(rm *)", ...secret] } }),
		);
		new PreviewedPermissions(app).remember({ settingsFile: ".claude/settings.json", rules: secret });
		plugin = await startWith(app);
		app.workspace.finishLayout();
		const deny = await pollUntil(() => {
			const rules = (
				JSON.parse(readFileSync(join(temp.path, ".claude", "settings.json"), "utf8")) as {
					permissions: { deny: string[] };
				}
			).permissions.deny;
			return rules.includes("Read(./Diary/**)") ? rules : undefined;
		}, "the deny rules to be written");
		expect(deny).toContain("Bash(rm *)");
		expect(deny).not.toContain("Read(./Secret/**)");
		const notice = await pollUntil(
			() => notices.find((text) => text.startsWith("Claude Code's deny rules")),
			"the notice",
		);
		expect(notice).toMatch(
			new RegExp(
				`^Claude Code's deny rules updated in ${escapeRegExp(join(temp.path, ".claude", "settings.json"))} for the new private folders \\(\\d+ added, 4 removed\\)\\.`,
			),
		);
	});

	it("with the option on but no write previewed on this device, write nothing once the layout is ready and say a preview is waiting", async () => {
		const app = await createIndexedApp({ "Diary/today.md": "DIARY-3\n" }, temp.path);
		plugin = await startWith(app);
		app.workspace.finishLayout();
		const notice = await pollUntil(
			() => notices.find((text) => text.startsWith("Claude Code's deny rules")),
			"the notice",
		);
		expect(notice).toBe(
			`Claude Code's deny rules in ${join(temp.path, ".claude", "settings.json")} are not up to date, and nothing was written: the change has not been previewed on this device. See it in the plugin's settings, under "Claude Code's file tools".`,
		);
		expect(existsSync(join(temp.path, ".claude"))).toBe(false);
	});
});

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
