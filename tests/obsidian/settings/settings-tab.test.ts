import { chmodSync } from "node:fs";
import { App, Plugin, Setting, notices, type FakeElement } from "../../__mocks__/obsidian";
import type { BridgeStatus } from "../../../src/ide/bridge-host";
import type { DoctorInputs } from "../../../src/ide/doctor/doctor";
import { BridgeSettingTab, type SettingsHost } from "../../../src/obsidian/settings/settings-tab";
import type { VaultToolsStatus } from "../../../src/obsidian/settings/vault-tools-section";
import { DEFAULT_SETTINGS, type BridgeSettings } from "../../../src/settings";
import { startBridge, type BridgeFixture } from "../../helpers/bridge-fixture";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { rowName, visibleRows } from "../harness/settings-rows";

const LISTENING: BridgeStatus = {
	state: "listening",
	port: 40123,
	lockFilePath: "/home/me/.claude/ide/40123.lock",
	tokenFingerprint: "ab12cd34",
	clients: [{ id: 1, pid: 4242, clientName: "claude-code", connectedAt: new Date("2026-11-23T10:00:00Z") }],
};

const VAULT_TOOLS_STATUS: VaultToolsStatus = {
	running: true,
	relays: 0,
	http: {
		state: "listening",
		port: 41999,
		url: "http://127.0.0.1:41999/mcp",
		calls: 0,
		refused: 0,
		probes: 0,
		clients: [],
	},
};

function setUp(status: BridgeStatus = LISTENING, doctorInputs?: () => DoctorInputs) {
	Setting.created = [];
	notices.splice(0);
	const calls: string[] = [];
	const copied: string[] = [];
	Object.defineProperty(globalThis, "navigator", {
		configurable: true,
		value: { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } },
	});
	const settings: BridgeSettings = { ...DEFAULT_SETTINGS, privateFolders: [], privateTags: [] };
	const host: SettingsHost = {
		settings,
		vaultPath: "/home/me/My vault",
		saveSettings: () => (calls.push("save"), Promise.resolve()),
		bridgeStatus: () => status,
		applyServerSettings: () => (calls.push("apply-server"), Promise.resolve()),
		applyLiveSettings: () => void calls.push("apply-live"),
		rotateToken: () => (calls.push("rotate"), Promise.resolve(status)),
		doctorInputs: doctorInputs ?? (() => ({ vaultPath: "/home/me/My vault", status, pid: process.pid })),
		vaultTools: {
			vaultPath: "/home/me/My vault",
			vaultToolsSettings: () => settings.vaultTools,
			saveSettings: () => (calls.push("save"), Promise.resolve()),
			applyServerSettings: () => (calls.push("apply-server"), Promise.resolve()),
			vaultToolsStatus: () => VAULT_TOOLS_STATUS,
			rotateMcpToken: () => void calls.push("rotate-mcp"),
			claudeRunner: () => undefined,
		},
	};
	const app = new App("/home/me/My vault", "My vault");
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
	// The tab is typed against Obsidian's API; under test its container is the fake's element tree.
	const root = tab.containerEl as unknown as FakeElement;
	return { tab, settings, calls, copied, named, root };
}

/** A code block's command and its copy button, by the command's start. */
function commandBlock(root: FakeElement, start: string): { code: string; copy: () => Promise<void> } {
	const block = root.findAll("ccb-command").find((each) => each.children[0]?.text.startsWith(start));
	if (!block) throw new Error(`No code block starting with ${start}`);
	return {
		code: block.children[0]?.text ?? "",
		copy: () => (
			block.findAll("ccb-command-copy")[0]?.dispatch("click"),
			new Promise((done) => setImmediate(done))
		),
	};
}

describe("the settings tab", () => {
	it("opens on Connection, Privacy and the vault tools' connect button under sentence-case headings; the rest is in two folds", () => {
		const { root } = setUp();
		expect(Setting.created.filter((setting) => setting.isHeading).map((setting) => setting.name)).toEqual([
			"Connection",
			"Privacy",
			"Claude's vault tools",
			"More settings",
			"Reviews",
			"Context and privacy",
			"Claude's vault tools",
			"Advanced",
			"Connection",
			"Claude's vault tools",
		]);
		expect(visibleRows(root).map(rowName)).toEqual([
			"Connection",
			"Let Claude Code connect",
			"Start Claude Code in a terminal",
			"Privacy",
			"Private folders",
			"Private tags",
			"Claude's vault tools",
			"Connect to Claude Code",
			"More settings",
			"Advanced",
		]);
		const [more, advanced] = root.children.filter((child) => child.tag === "details");
		expect([more?.attributes.has("open"), advanced?.attributes.has("open")]).toEqual([false, false]);
		expect(visibleRows(more ?? root).map(rowName)).toEqual([
			"More settings",
			"Reviews",
			"Review Claude's edits in Obsidian",
			"Review vault tool writes",
			"Context and privacy",
			"Tag hotkey",
			"Treat Obsidian's excluded files as private",
			"Claude's vault tools",
			"Serve vault tools",
			"Prompts folder",
		]);
		expect(visibleRows(advanced ?? root).map(rowName)).toEqual([
			"Advanced",
			"Connection",
			"Status",
			"Fixed port",
			"IDE connection token",
			"Selection delay",
			"Debug logging",
			"Claude's vault tools",
			"Vault tools status",
			"Vault tools HTTP port",
			"Vault tools HTTP token",
		]);
	});

	it("says in words whether Claude Code is connected; the address, the pid, the lock file and the fingerprint are under Advanced", () => {
		const { named, root } = setUp();
		const since = new Date("2026-11-23T10:00:00Z").toLocaleTimeString(undefined, {
			hour: "2-digit",
			minute: "2-digit",
		});
		expect(root.findAll("claude-code-bridge-settings-status")[0]?.text).toBe(
			`Connected: Claude Code, since ${since}.`,
		);
		expect(root.findAll("claude-code-bridge-settings-details")[0]?.text).toMatch(
			/^Listening on 127\.0\.0\.1:40123\. Connected: claude-code \(pid 4242\) since .+\.$/,
		);
		expect(named("IDE connection token").desc).toContain("its fingerprint is ab12cd34");
		expect(named("IDE connection token").desc).toContain("/home/me/.claude/ide/40123.lock");
		expect(named("IDE connection token").desc).toContain("run /ide again");
	});

	it("names the token each rotate button rotates, and says how to reconnect", async () => {
		const { named, calls } = setUp();
		const ide = named("IDE connection token").buttons[0];
		const http = named("Vault tools HTTP token").buttons[0];
		expect([ide?.text, http?.text]).toEqual(["Rotate IDE connection token", "Rotate vault tools HTTP token"]);
		await ide?.click();
		await http?.click();
		expect(calls).toEqual(["rotate", "rotate-mcp"]);
		expect(notices).toEqual([
			"IDE connection token rotated. Run /ide in Claude Code to reconnect.",
			"Vault tools HTTP token rotated: the old one no longer works. Claude Code fetches the new one when it reconnects.",
		]);
	});

	it("disables rotation while the bridge is off", () => {
		const { named, root } = setUp({ state: "stopped", clients: [] });
		expect(named("IDE connection token").buttons[0]?.disabled).toBe(true);
		expect(root.findAll("claude-code-bridge-settings-status")[0]?.text).toBe(
			"Off: Claude Code cannot connect to this vault.",
		);
	});

	it("keeps only valid fixed ports; empty means a random port", async () => {
		const { named, settings } = setUp();
		const field = named("Fixed port").texts[0];
		await field?.change("70000");
		expect(settings.fixedPort).toBeNull();
		await field?.change("41000");
		expect(settings.fixedPort).toBe(41000);
		await field?.change("");
		expect(settings.fixedPort).toBeNull();
	});

	it("turns the server off and on through applyServerSettings", async () => {
		const { named, settings, calls } = setUp();
		await named("Let Claude Code connect").toggles[0]?.change(false);
		expect(settings.enabled).toBe(false);
		expect(calls).toEqual(["save", "apply-server"]);
	});

	it("reads private folders and tags one per line, and applies them live", async () => {
		const { named, settings, calls } = setUp();
		await named("Private folders").texts[0]?.change("Journal\n  Work/HR  \n\n");
		await named("Private tags").texts[0]?.change("#private, #secret");
		expect(settings.privateFolders).toEqual(["Journal", "Work/HR"]);
		expect(settings.privateTags).toEqual(["#private", "#secret"]);
		expect(calls.filter((call) => call === "apply-live")).toHaveLength(2);
	});

	it("switches edit review live, and ignores a selection delay out of range", async () => {
		const { named, settings, calls } = setUp();
		await named("Review Claude's edits in Obsidian").toggles[0]?.change(false);
		expect(settings.reviewEditsInObsidian).toBe(false);
		expect(calls).toContain("apply-live");
		await named("Selection delay").texts[0]?.change("5000");
		expect(settings.selectionDebounceMs).toBe(DEFAULT_SETTINGS.selectionDebounceMs);
		await named("Selection delay").texts[0]?.change("250");
		expect(settings.selectionDebounceMs).toBe(250);
	});

	it("says under More settings how to rebind the tag hotkey when AltGr+K must type a letter (Windows)", () => {
		const { named } = setUp();
		expect(named("Tag hotkey").desc).toContain("AltGr counts as Ctrl+Alt");
		expect(named("Tag hotkey").desc).toContain("Settings → Hotkeys");
	});

	it("copies the launch command from a button, and shows it as code in a fold with its own copy button", async () => {
		const { root, named, copied } = setUp();
		const start = named("Start Claude Code in a terminal");
		expect(start.buttons.map((button) => button.text)).toEqual(["Copy launch command", "Check connection"]);
		await start.buttons[0]?.click();
		const folded = start.descEl.findAll("ccb-other-ways")[0];
		expect(folded?.tag).toBe("details");
		expect(folded?.attributes.has("open")).toBe(false);
		expect(folded?.children[0]?.text).toBe("Show the launch command");
		const launch = commandBlock(folded ?? root, "cd ");
		expect(launch.code).toBe('cd "/home/me/My vault" && claude --ide');
		await launch.copy();
		expect(copied).toEqual([launch.code, launch.code]);
		expect(notices).toEqual(["Launch command copied.", "Launch command copied."]);
	});

	it("offers one way to add the vault tools, with its scope, and the command for a terminal folded", async () => {
		const { root, named, copied } = setUp();
		const add = named("Connect to Claude Code");
		expect(add.desc).toContain("local scope");
		expect(add.buttons.map((button) => button.text)).toEqual(["Connect to Claude Code", "Remove"]);
		const folded = add.descEl.findAll("ccb-other-ways")[0];
		expect(folded?.tag).toBe("details");
		expect(folded?.attributes.has("open")).toBe(false);
		expect(folded?.children[0]?.text).toBe("Run it yourself in a terminal");
		await commandBlock(root, 'cd "/home/me/My vault" && claude mcp add-json --scope local obsidian').copy();
		expect(copied[0]).toContain('"headersHelper":"cat');
		expect(notices).toEqual(["Command copied. It holds no key."]);
	});
});

describe("the settings tab's connection check", () => {
	let bridge: BridgeFixture;
	beforeEach(async () => {
		bridge = await startBridge();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => bridge?.stop());

	function setUpWithBridge() {
		const context = setUp(bridge.host.status(), () => ({
			vaultPath: bridge.vault,
			status: bridge.host.status(),
			pid: process.pid,
			ideName: "Obsidian · test",
			homeDir: bridge.home,
		}));
		const button = context
			.named("Start Claude Code in a terminal")
			.buttons.find((candidate) => candidate.text === "Check connection");
		if (!button) throw new Error("No check button");
		const { root } = context;
		const results = (): FakeElement => {
			const found = root.findAll("claude-code-bridge-doctor")[0];
			if (!found) throw new Error("No results area");
			return found;
		};
		const describe = (row: FakeElement) => ({
			level: [...row.classes].find((name) => name.startsWith("is-")),
			label: row.children[0]?.text,
			what: row.children[1]?.text ?? "",
			fix: row.findAll("claude-code-bridge-doctor-fix")[0]?.text,
		});
		/** The findings shown before the fold, and those in "N checks passed". */
		const shown = () =>
			results()
				.children.filter((child) => child.hasClass("claude-code-bridge-doctor-line"))
				.map(describe);
		const passed = () => results().findAll("claude-code-bridge-doctor-passed")[0];
		const rows = () => results().findAll("claude-code-bridge-doctor-line").map(describe);
		const summary = () => results().findAll("claude-code-bridge-doctor-summary")[0]?.text;
		return { ...context, button, rows, shown, passed, summary, results };
	}

	it("runs the doctor from its button: the summary first, then what is wrong with its fix, the passed checks folded", async () => {
		const { button, shown, passed, summary, root, named } = setUpWithBridge();
		expect(named("Start Claude Code in a terminal").desc).not.toMatch(/Why \/ide does not list/);
		expect(button.text).toBe("Check connection");
		expect(summary()).toBeUndefined();
		const running = button.click();
		expect(button.disabled).toBe(true);
		expect(root.findAll("claude-code-bridge-doctor-running")[0]?.text).toBe("Checking…");
		await running;
		expect(button.disabled).toBe(false);
		expect(root.findAll("claude-code-bridge-doctor-running")).toEqual([]);

		expect(summary()).toBe("1 warning.");
		expect(shown()).toEqual([
			{
				level: "is-warn",
				label: "Warning",
				what: "No Claude Code client is connected",
				fix: 'Start Claude Code with the launch command below, or run /ide in a running session and pick "Obsidian · test".',
			},
		]);
		const fold = passed();
		expect(fold?.tag).toBe("details");
		expect(fold?.attributes.has("open")).toBe(false);
		const ok = fold?.findAll("claude-code-bridge-doctor-line") ?? [];
		expect(fold?.children[0]?.text).toBe(`${ok.length} checks passed`);
		expect(ok.map((row) => row.children[1]?.text)).toContainEqual(
			`Port ${bridge.port} answers and accepts the token in the lock file`,
		);
		const launch = ok.at(-1);
		expect(launch?.children[1]?.text).toContain(`cd "${bridge.vault}" && claude --ide`);
		expect(launch?.findAll("ccb-command")[0]?.children[0]?.text).toBe(`cd "${bridge.vault}" && claude --ide`);
	});

	it("clears the results when a setting changes: they may no longer hold", async () => {
		const { button, named, results, summary } = setUpWithBridge();
		await button.click();
		expect(summary()).toBe("1 warning.");
		await named("Private tags").texts[0]?.change("#private");
		expect(results().children).toEqual([]);
		await button.click();
		await named("Prompts folder").texts[0]?.change("Prompts");
		expect(results().children).toEqual([]);
	});

	(process.platform === "win32" ? it.skip : it)(
		"shows a failed check as a problem on top, with what to do, and replaces the previous results",
		async () => {
			const { button, rows, shown, summary } = setUpWithBridge();
			await button.click();
			const aboutTheLockFile = () =>
				rows().filter((row) => row.what.startsWith(`The lock file ${bridge.lockFilePath}`));
			expect(aboutTheLockFile()).toEqual([
				expect.objectContaining({
					level: "is-ok",
					what: `The lock file ${bridge.lockFilePath} exists with mode 0600`,
				}),
			]);
			chmodSync(bridge.lockFilePath, 0o644);
			await button.click();
			// The warnings around it (no client yet) are not what this test is about.
			expect(summary()).toMatch(/^1 problem(, \d+ warnings?)?\.$/);
			expect(shown()[0]).toEqual({
				level: "is-fail",
				label: "Problem",
				what: `The lock file ${bridge.lockFilePath} is refused: it has mode 0644, not 0600`,
				fix: "Restart the bridge: it writes a new lock file with mode 0600 and a new token.",
			});
			expect(aboutTheLockFile()).toHaveLength(1);
		},
	);
});
