import { FakeElement, Setting, notices, type FakeButton } from "../../__mocks__/obsidian";
import { spawnSync } from "node:child_process";
import type { VaultToolsHttpStatus } from "../../../src/vault-tools/serve/http-endpoint";
import { httpAddCommand } from "../../../src/obsidian/settings/mcp-commands";
import {
	VaultToolsSettingsSection,
	type VaultToolsSettingsHost,
	type VaultToolsStatus,
} from "../../../src/obsidian/settings/vault-tools-section";
import { DEFAULT_VAULT_TOOLS_SETTINGS, migrateSettings, type VaultToolsSettings } from "../../../src/settings";

const LISTENING: VaultToolsHttpStatus = {
	state: "listening",
	port: 41999,
	url: "http://127.0.0.1:41999/mcp",
	calls: 3,
	lastCallAt: new Date("2026-11-25T18:00:00Z"),
	refused: 1,
	probes: 0,
	clients: [{ userAgent: "claude-cli/2.0.0", lastCallAt: new Date("2026-11-25T18:00:00Z") }],
};

function setUp(status: VaultToolsStatus = { running: true, relays: 2, http: LISTENING }) {
	Setting.created = [];
	notices.splice(0);
	const calls: string[] = [];
	const copied: string[] = [];
	Object.defineProperty(globalThis, "navigator", {
		configurable: true,
		value: { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } },
	});
	const settings: VaultToolsSettings = { ...DEFAULT_VAULT_TOOLS_SETTINGS };
	const host: VaultToolsSettingsHost = {
		vaultPath: "/home/me/My vault",
		vaultToolsSettings: () => settings,
		saveSettings: () => (calls.push("save"), Promise.resolve()),
		applyServerSettings: () => (calls.push("restart"), Promise.resolve()),
		vaultToolsStatus: () => status,
		rotateMcpToken: () => void calls.push("rotate"),
	};
	const section = new VaultToolsSettingsSection(host, () => void calls.push("changed"));
	const container = new FakeElement();
	section.display(container as never);
	section.displayReview(container as never);
	section.displayAdvanced(container as never);
	const named = (name: string): Setting => {
		const found = Setting.created.find((setting) => setting.name === name);
		if (!found) throw new Error(`No setting named ${name}`);
		return found;
	};
	const button = (name: string, text: string): FakeButton => {
		const found = named(name).buttons.find((candidate) => candidate.text === text);
		if (!found) throw new Error(`No button ${text} on ${name}`);
		return found;
	};
	const statusText = (): string => container.findAll("ccb-vault-tools-status")[0]?.text ?? "";
	/** The code blocks under "Other ways to connect": their text, and a click on their copy button. */
	const otherWays = () =>
		container
			.findAll("ccb-other-ways")[0]
			?.findAll("ccb-command")
			.map((block) => ({
				code: block.children[0]?.text ?? "",
				copy: () => (block.children[1]?.dispatch("click"), new Promise((done) => setImmediate(done))),
			})) ?? [];
	return { settings, calls, copied, named, button, statusText, otherWays, container };
}

describe("the vault tools' settings rows", () => {
	it("has no heading of its own: the tab places its rows under its sections", () => {
		setUp();
		expect(Setting.created.filter((setting) => setting.isHeading)).toEqual([]);
	});

	it("switches the tools on and off (restarting the bridge) and review of writes (no restart)", async () => {
		const { named, settings, calls } = setUp();
		await named("Serve vault tools").toggles[0]?.change(false);
		expect(settings.enabled).toBe(false);
		expect(calls).toEqual(["changed", "save", "restart"]);
		await named("Review vault tool writes").toggles[0]?.change(false);
		expect(settings.reviewWrites).toBe(false);
		expect(calls).toEqual(["changed", "save", "restart", "changed", "save"]);
	});

	it("keeps only a valid port and says why another is refused", async () => {
		const { named, settings, calls } = setUp();
		const port = named("Vault tools HTTP port");
		await port.texts[0]?.change("99999");
		expect(settings.httpPort).toBeNull();
		expect(port.desc).toContain('"99999" is not a port');
		expect(calls).toEqual([]);
		await port.texts[0]?.change("42000");
		expect(settings.httpPort).toBe(42000);
		await port.texts[0]?.change("");
		expect(settings.httpPort).toBeNull();
	});

	it("shows a taken port as an error in the status, not another port", () => {
		const { statusText, otherWays, container } = setUp({
			running: true,
			relays: 0,
			http: {
				state: "failed",
				port: 41999,
				error: "Port 41999 is in use by another program; the MCP endpoint is off.",
				calls: 0,
				refused: 0,
				probes: 0,
				clients: [],
			},
		});
		expect(statusText()).toBe(
			"Error: Port 41999 is in use by another program; the MCP endpoint is off. stdio clients: 0.",
		);
		expect(container.findAll("ccb-other-ways")[0]?.textContent).toContain(
			"Over HTTP: the endpoint is not listening",
		);
		expect(otherWays().map((block) => block.code)).toEqual([
			expect.stringMatching(/^\{"mcpServers":\{"obsidian":\{"type":"stdio"/),
		]);
	});

	it("says when Claude Code cannot fetch the token (no token record)", () => {
		const { statusText } = setUp({
			running: true,
			relays: 0,
			http: {
				...LISTENING,
				calls: 0,
				refused: 0,
				clients: [],
				tokenRecordError: "the home folder is inside the vault",
			},
		});
		expect(statusText()).toBe(
			"HTTP endpoint: http://127.0.0.1:41999/mcp, 0 calls, last at " +
				LISTENING.lastCallAt?.toLocaleTimeString() +
				". Error: Claude Code cannot fetch the token: the home folder is inside the vault. stdio clients: 0.",
		);
	});

	it("shows the endpoint, its calls, the last call, its recent clients and the stdio clients", () => {
		const { statusText } = setUp();
		expect(statusText()).toMatch(
			/^HTTP endpoint: http:\/\/127\.0\.0\.1:41999\/mcp, 3 calls, last at .+, 1 refused\. HTTP clients: claude-cli\/2\.0\.0 \(last at .+\)\. stdio clients: 2\.$/,
		);
	});

	it("shows the recommended stdio command with its scope, and under Other ways to connect the HTTP command and JSON; none holds a token, and copying says so", async () => {
		const { named, otherWays, copied } = setUp();
		expect(named("Add to Claude Code").descEl.findAll("ccb-command")[0]?.children[0]?.text).toBe(
			'cd "/home/me/My vault" && claude mcp add --scope local obsidian -- claude-code-bridge mcp --vault "/home/me/My vault"',
		);
		const entry = {
			type: "http",
			url: "http://127.0.0.1:41999/mcp",
			headersHelper: 'claude-code-bridge mcp-headers --vault "/home/me/My vault" --port 41999',
		};
		const [http, httpJson, stdioJson] = otherWays();
		expect(http?.code).toBe(
			`cd "/home/me/My vault" && claude mcp add-json --scope local obsidian-http '${JSON.stringify(entry)}'`,
		);
		await http?.copy();
		await httpJson?.copy();
		await stdioJson?.copy();
		expect(copied[0]).toBe(http?.code);
		expect(JSON.parse(copied[1] ?? "")).toEqual({ mcpServers: { "obsidian-http": entry } });
		expect(JSON.parse(copied[2] ?? "")).toEqual({
			mcpServers: {
				obsidian: {
					type: "stdio",
					command: "claude-code-bridge",
					args: ["mcp", "--vault", "/home/me/My vault"],
				},
			},
		});
		expect(notices).toEqual([
			"Command copied. It holds no token: Claude Code fetches the current one each time it connects.",
			"JSON copied. It holds no token: Claude Code fetches the current one each time it connects.",
			"JSON copied.",
		]);
		// A POSIX shell hands `claude mcp add-json` exactly that JSON.
		const echoed = spawnSync(
			"/bin/sh",
			[
				"-c",
				(http?.code ?? "").replace(
					/^cd "[^"]*" && claude mcp add-json --scope local obsidian-http/,
					"printf %s",
				),
			],
			{ encoding: "utf8" },
		);
		expect(JSON.parse(echoed.stdout)).toEqual(entry);
	});

	it("on Windows, pipes the HTTP JSON into claude mcp add-json - (a PowerShell single-quoted string, not a native argument)", () => {
		const command = httpAddCommand("http://127.0.0.1:41999/mcp", "C:\\Users\\me\\Bob's vault", 41999, "win32");
		const quoted =
			/^cd '[^']*(?:''[^']*)*'; '((?:[^']|'')*)' \| claude mcp add-json --scope local obsidian-http -$/.exec(
				command,
			)?.[1];
		expect(JSON.parse(quoted?.replace(/''/g, "'") ?? "")).toEqual({
			type: "http",
			url: "http://127.0.0.1:41999/mcp",
			headersHelper: 'claude-code-bridge mcp-headers --vault "C:\\\\Users\\\\me\\\\Bob\'s vault" --port 41999',
		});
	});

	it("rotates the token and says the configuration stays as it is", async () => {
		const { button, calls } = setUp();
		await button("Vault tools HTTP token", "Rotate vault tools HTTP token").click();
		expect(calls).toEqual(["changed", "rotate"]);
		expect(notices).toEqual([
			"Vault tools HTTP token rotated: the old one no longer works. Claude Code fetches the new one when it reconnects.",
		]);
	});

	it("cannot rotate while the tools are not running", () => {
		const { button, statusText } = setUp({ running: false, relays: 0 });
		expect(button("Vault tools HTTP token", "Rotate vault tools HTTP token").disabled).toBe(true);
		expect(statusText()).toBe("Not running (the bridge is off).");
	});
});

describe("the vault tools' stored settings", () => {
	it("keep known keys only: a token stored under vaultTools is dropped, so data.json never carries it", () => {
		const stored: unknown = JSON.parse(
			`{"vaultTools":{"enabled":false,"httpPort":4100,"promptsFolder":" Prompts ","token":"${"a".repeat(64)}","mcpToken":"${"b".repeat(64)}"}}`,
		);
		const settings = migrateSettings(stored);
		expect(settings.vaultTools).toEqual({
			enabled: false,
			reviewWrites: true,
			httpPort: 4100,
			promptsFolder: "Prompts",
		});
		expect(JSON.stringify(settings)).not.toMatch(/aaaa|bbbb/);
	});

	it("fall back to the defaults for values of the wrong kind", () => {
		const settings = migrateSettings({
			vaultTools: { enabled: "yes", reviewWrites: 0, httpPort: 70000, promptsFolder: 5 },
		});
		expect(settings.vaultTools).toEqual(DEFAULT_VAULT_TOOLS_SETTINGS);
		expect(settings.vaultTools).not.toBe(DEFAULT_VAULT_TOOLS_SETTINGS);
	});
});
