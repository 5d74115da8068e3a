import { chmodSync } from "node:fs";
import { App, Plugin, Setting, notices, type FakeElement } from "../__mocks__/obsidian";
import type { BridgeStatus } from "../../src/ide/bridge-host";
import type { DoctorInputs } from "../../src/ide/doctor/doctor";
import { BridgeSettingTab, type SettingsHost } from "../../src/obsidian/settings-tab";
import { DEFAULT_SETTINGS, type BridgeSettings } from "../../src/settings";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const LISTENING: BridgeStatus = {
	state: "listening",
	port: 40123,
	lockFilePath: "/home/me/.claude/ide/40123.lock",
	tokenFingerprint: "ab12cd34",
	clients: [{ id: 1, pid: 4242, clientName: "claude-code", connectedAt: new Date("2026-11-23T10:00:00Z") }],
};

function setUp(status: BridgeStatus = LISTENING, doctorInputs?: () => DoctorInputs) {
	Setting.created = [];
	notices.splice(0);
	const calls: string[] = [];
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
	};
	const app = new App("/home/me/My vault", "My vault");
	const tab = new BridgeSettingTab(app as never, new Plugin(app, { id: "x", name: "x", version: "0" }) as never, host);
	tab.display();
	const named = (name: string): Setting => {
		const found = Setting.created.filter((setting) => setting.name === name).at(-1);
		if (!found) throw new Error(`No setting named ${name}`);
		return found;
	};
	return { tab, settings, calls, named };
}

describe("the settings tab", () => {
	it("has sentence-case sections made with setHeading()", () => {
		setUp();
		expect(Setting.created.filter((setting) => setting.isHeading).map((setting) => setting.name)).toEqual(["Server", "Status", "Connecting", "Check connection", "Context", "Edits", "Advanced"]);
	});

	it("shows the status: port, lock file, clients with pid, the token fingerprint", () => {
		const { named } = setUp();
		expect(named("State").desc).toBe("Listening on 127.0.0.1:40123");
		expect(named("Lock file").desc).toBe("/home/me/.claude/ide/40123.lock");
		expect(named("Connected clients").desc).toMatch(/^claude-code \(pid 4242\) since /);
		expect(named("Token").desc).toContain("Fingerprint ab12cd34");
		expect(named("Token").desc).toContain("run /ide again");
	});

	it("rotates the token from its button and says how to reconnect", async () => {
		const { named, calls } = setUp();
		const button = named("Token").buttons[0];
		expect(button?.text).toBe("Rotate token");
		await button?.click();
		expect(calls).toContain("rotate");
		expect(notices).toEqual(["Token rotated. Run /ide in Claude Code to reconnect."]);
	});

	it("disables rotation while the bridge is off", () => {
		const { named } = setUp({ state: "stopped", clients: [] });
		expect(named("Token").buttons[0]?.disabled).toBe(true);
		expect(named("State").desc).toBe("Off");
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
		await named("Run the bridge").toggles[0]?.change(false);
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

	it("says how to rebind the tag hotkey when AltGr+K must type a letter (Windows)", () => {
		const { named } = setUp();
		expect(named("Tag hotkey").desc).toContain("AltGr counts as Ctrl+Alt");
		expect(named("Tag hotkey").desc).toContain("Settings → Hotkeys");
	});

	it("offers the launch command for the vault", () => {
		const { named } = setUp();
		expect(named("Launch command").desc).toBe('cd "/home/me/My vault" && claude --ide');
		expect(named("Launch command").buttons[0]?.text).toBe("Copy launch command");
	});
});

describe("the settings tab's connection check", () => {
	let bridge: BridgeFixture;
	beforeEach(async () => {
		bridge = await startBridge();
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => bridge?.stop());

	function setUpWithBridge() {
		const context = setUp(bridge.host.status(), () => ({ vaultPath: bridge.vault, status: bridge.host.status(), pid: process.pid, ideName: "Obsidian · test", homeDir: bridge.home }));
		const button = context.named("Why /ide does not list this vault").buttons[0];
		if (!button) throw new Error("No check button");
		// The tab is typed against Obsidian's API; under test its container is the fake's element tree.
		const root = context.tab.containerEl as unknown as FakeElement;
		const rows = () =>
			root.findAll("claude-code-bridge-doctor-line").map((row) => ({
				level: [...row.classes].find((name) => name.startsWith("is-")),
				label: row.children[0]?.text,
				what: row.children[1]?.text,
				fix: row.children[2]?.text,
			}));
		return { ...context, button, rows, root };
	}

	it("runs the doctor from its button and shows each line with its level and fix", async () => {
		const { button, rows, root } = setUpWithBridge();
		expect(button.text).toBe("Check connection");
		expect(rows()).toEqual([]);
		const running = button.click();
		expect(button.disabled).toBe(true);
		expect(root.findAll("claude-code-bridge-doctor-running")[0]?.text).toBe("Checking…");
		await running;
		expect(button.disabled).toBe(false);
		expect(root.findAll("claude-code-bridge-doctor-running")).toEqual([]);

		const shown = rows();
		expect(shown[0]).toEqual({ level: "is-ok", label: "OK", what: `The bridge listens on 127.0.0.1:${bridge.port}`, fix: undefined });
		expect(shown).toContainEqual({ level: "is-ok", label: "OK", what: `Port ${bridge.port} answers and accepts the token in the lock file`, fix: undefined });
		expect(shown).toContainEqual({
			level: "is-warn",
			label: "Warning",
			what: "No Claude Code client is connected",
			fix: 'Start Claude Code with the launch command below, or run /ide in a running session and pick "Obsidian · test".',
		});
		expect(shown.at(-1)?.what).toContain(`cd "${bridge.vault}" && claude --ide`);
		expect(shown.filter((row) => row.level === "is-fail")).toEqual([]);
	});

	(process.platform === "win32" ? it.skip : it)("shows a failed check as a problem with what to do, and replaces the previous results", async () => {
		const { button, rows } = setUpWithBridge();
		await button.click();
		const aboutTheLockFile = () => rows().filter((row) => row.what.startsWith(`The lock file ${bridge.lockFilePath}`));
		expect(aboutTheLockFile()).toEqual([expect.objectContaining({ level: "is-ok", what: `The lock file ${bridge.lockFilePath} exists with mode 0600` })]);
		chmodSync(bridge.lockFilePath, 0o644);
		await button.click();
		expect(aboutTheLockFile()).toEqual([
			{
				level: "is-fail",
				label: "Problem",
				what: `The lock file ${bridge.lockFilePath} is refused: it has mode 0644, not 0600`,
				fix: "Restart the bridge: it writes a new lock file with mode 0600 and a new token.",
			},
		]);
	});
});
