import { FakeElement, Setting, notices, type FakeButton } from "../../__mocks__/obsidian";
import { spawnSync } from "node:child_process";
import type { VaultToolsHttpStatus } from "../../../src/vault-tools/serve/http-endpoint";
import type { ClaudeRun } from "../../../src/vault-tools/serve/claude-mcp-add";
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
	const runs: string[][] = [];
	/** A stand-in for the user's Claude Code with one local entry (CLI 2.1.330's words). */
	const claude = {
		url: undefined as string | undefined,
		trustMissing: false,
		missing: false,
		answer(args: readonly string[]): ClaudeRun {
			if (this.missing)
				return {
					exitCode: null,
					stdout: "",
					stderr: "",
					failure: "Claude Code was not found on this computer.",
				};
			const verb = args[1];
			if (verb === "remove") {
				this.url = undefined;
				return { exitCode: 0, stdout: "Removed", stderr: "" };
			}
			if (verb === "add-json") {
				this.url = (JSON.parse(args[5] ?? "{}") as { url: string }).url;
				return { exitCode: 0, stdout: "Added", stderr: "" };
			}
			if (this.url === undefined) return { exitCode: 1, stdout: "", stderr: 'No MCP server named "obsidian".' };
			const status = this.trustMissing ? "✘ Failed to connect" : "✔ Connected";
			return {
				exitCode: 0,
				stdout: `obsidian:\n  Scope: Local config (private to you in this project)\n  Status: ${status}\n  Type: http\n  URL: ${this.url}\n`,
				stderr: this.trustMissing
					? "MCP server 'obsidian': headersHelper not run — this workspace has no persisted trust"
					: "",
			};
		},
	};
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
		claudeRunner: () => (args) => {
			runs.push([...args]);
			return Promise.resolve(claude.answer(args));
		},
	};
	const section = new VaultToolsSettingsSection(host, () => void calls.push("changed"));
	const container = new FakeElement();
	section.displayConnect(container as never);
	section.displayOptions(container as never);
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
	/** The code blocks under "Run it yourself in a terminal": their text, and a click on their copy button. */
	const terminalBlocks = () =>
		container
			.findAll("ccb-other-ways")[0]
			?.findAll("ccb-command")
			.map((block) => ({
				code: block.children[0]?.text ?? "",
				copy: () => (block.children[1]?.dispatch("click"), new Promise((done) => setImmediate(done))),
			})) ?? [];
	return { settings, calls, copied, runs, claude, named, button, statusText, terminalBlocks, container };
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
		const { statusText, terminalBlocks, container } = setUp({
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
			"The vault tools are not listening (their status is under Advanced)",
		);
		expect(terminalBlocks()).toEqual([]);
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

	it("Connect runs the user's claude (get, add-json, get) and shows Claude Code's answer; Remove takes the local entry out", async () => {
		const { button, container, runs, claude } = setUp();
		await new Promise((done) => setImmediate(done));
		const state = (): string => container.findAll("ccb-vault-tools-state")[0]?.text ?? "";
		expect(state()).toBe("Not connected: Claude Code does not have this vault's tools yet.");
		await button("Connect to Claude Code", "Connect to Claude Code").click();
		expect(state()).toBe("Connected: Claude Code started in this vault folder can use the vault tools.");
		const added = runs.find((args) => args[1] === "add-json") ?? [];
		expect(added.slice(0, 5)).toEqual(["mcp", "add-json", "--scope", "local", "obsidian"]);
		expect(JSON.parse(added[5] ?? "")).toEqual({
			type: "http",
			url: "http://127.0.0.1:41999/mcp",
			headersHelper: expect.stringMatching(
				/^cat "\$HOME\/\.claude-code-bridge\/mcp-tokens\/41999-[0-9a-f]{16}\.headers\.json"$/,
			) as unknown,
		});
		expect(notices.at(-1)).toMatch(/^Vault tools added to Claude Code\. Connected: /);
		claude.trustMissing = true;
		await button("Connect to Claude Code", "Connect to Claude Code").click();
		expect(notices.at(-1)).toMatch(
			/^Claude Code already had the vault tools; nothing else changed\. Added, but not connected yet: start Claude Code once in the vault folder/,
		);
		await button("Connect to Claude Code", "Remove").click();
		expect(state()).toBe("Not connected: Claude Code does not have this vault's tools yet.");
		expect(runs.at(-2)).toEqual(["mcp", "remove", "obsidian", "--scope", "local"]);
	});

	it("says why when Claude Code cannot be run", async () => {
		const { button, container, claude } = setUp();
		claude.missing = true;
		await button("Connect to Claude Code", "Connect to Claude Code").click();
		expect(container.findAll("ccb-vault-tools-state")[0]?.text).toBe(
			"Could not ask Claude Code: Claude Code was not found on this computer.",
		);
		expect(notices.at(-1)).toBe("Could not connect: Claude Code was not found on this computer.");
	});

	it("shows the same command for a terminal, folded, with no token; copying says so", async () => {
		const { named, terminalBlocks, copied } = setUp();
		const connect = named("Connect to Claude Code");
		expect(connect.desc).toContain("local scope");
		const details = connect.descEl.findAll("ccb-other-ways")[0];
		expect(details?.tag).toBe("details");
		expect(details?.children[0]?.text).toBe("Run it yourself in a terminal");
		const [add, allow] = terminalBlocks();
		expect(add?.code).toMatch(
			/^cd "\/home\/me\/My vault" && claude mcp add-json --scope local obsidian '\{"type":"http","url":"http:\/\/127\.0\.0\.1:41999\/mcp","headersHelper":"cat \\"\$HOME\/\.claude-code-bridge\/mcp-tokens\/41999-[0-9a-f]{16}\.headers\.json\\""\}'$/,
		);
		expect(allow?.code).toBe('claude --allowedTools "mcp__obsidian"');
		await add?.copy();
		expect(copied[0]).toBe(add?.code);
		expect(notices).toEqual(["Command copied. It holds no key."]);
		// A POSIX shell hands `claude mcp add-json` exactly that JSON.
		const echoed = spawnSync(
			"/bin/sh",
			["-c", (add?.code ?? "").replace(/^cd "[^"]*" && claude mcp add-json --scope local obsidian/, "printf %s")],
			{ encoding: "utf8" },
		);
		expect(JSON.parse(echoed.stdout)).toMatchObject({ type: "http", url: "http://127.0.0.1:41999/mcp" });
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
