import { FakeElement, Setting, notices, type FakeButton } from "../../__mocks__/obsidian";
import type { McpHttpStatus } from "../../../src/server/http/mcp-http-server";
import { displayVaultToolsSection, type VaultToolsSettingsHost, type VaultToolsStatus } from "../../../src/obsidian/settings/vault-tools-section";
import { DEFAULT_VAULT_TOOLS_SETTINGS, migrateSettings, type VaultToolsSettings } from "../../../src/settings";

const TOKEN = "f".repeat(64);
const LISTENING: McpHttpStatus = { state: "listening", port: 41999, url: "http://127.0.0.1:41999/mcp", calls: 3, lastCallAt: new Date("2026-11-25T18:00:00Z"), refused: 1, clients: [{ userAgent: "claude-cli/2.0.0", lastCallAt: new Date("2026-11-25T18:00:00Z") }] };

function setUp(status: VaultToolsStatus = { running: true, relays: 2, http: LISTENING }) {
	Setting.created = [];
	notices.splice(0);
	const calls: string[] = [];
	const copied: string[] = [];
	Object.defineProperty(globalThis, "navigator", { configurable: true, value: { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } } });
	const settings: VaultToolsSettings = { ...DEFAULT_VAULT_TOOLS_SETTINGS };
	let token = TOKEN;
	const host: VaultToolsSettingsHost = {
		vaultPath: "/home/me/My vault",
		vaultToolsSettings: () => settings,
		saveSettings: () => (calls.push("save"), Promise.resolve()),
		applyServerSettings: () => (calls.push("restart"), Promise.resolve()),
		vaultToolsStatus: () => status,
		mcpToken: () => token,
		rotateMcpToken: () => {
			calls.push("rotate");
			token = "e".repeat(64);
			return token;
		},
	};
	displayVaultToolsSection(new FakeElement() as never, host);
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
	return { settings, calls, copied, named, button };
}

describe('the settings section "Vault tools for Claude"', () => {
	it("is one sentence-case section made with setHeading()", () => {
		setUp();
		expect(Setting.created.filter((setting) => setting.isHeading).map((setting) => setting.name)).toEqual(["Vault tools for Claude"]);
	});

	it("switches the tools on and off (restarting the bridge) and review of writes (no restart)", async () => {
		const { named, settings, calls } = setUp();
		await named("Serve vault tools").toggles[0]?.change(false);
		expect(settings.enabled).toBe(false);
		expect(calls).toEqual(["save", "restart"]);
		await named("Review writes").toggles[0]?.change(false);
		expect(settings.reviewWrites).toBe(false);
		expect(calls).toEqual(["save", "restart", "save"]);
	});

	it("keeps only a valid port and says why another is refused", async () => {
		const { named, settings, calls } = setUp();
		const port = named("HTTP port");
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
		const { named } = setUp({ running: true, relays: 0, http: { state: "failed", port: 41999, error: "Port 41999 is in use by another program; the MCP endpoint is off.", calls: 0, refused: 0, clients: [] } });
		expect(named("Vault tools status").desc).toBe("Error: Port 41999 is in use by another program; the MCP endpoint is off. stdio clients: 0.");
		expect(named("Add to Claude Code (HTTP)").desc).toContain("not listening");
	});

	it("shows the endpoint, its calls, the last call, its recent clients and the stdio clients", () => {
		const { named } = setUp();
		expect(named("Vault tools status").desc).toMatch(/^HTTP endpoint: http:\/\/127\.0\.0\.1:41999\/mcp, 3 calls, last at .+, 1 refused\. HTTP clients: claude-cli\/2\.0\.0 \(last at .+\)\. stdio clients: 2\.$/);
	});

	it("shows the commands with the token masked and copies them whole", async () => {
		const { named, button, copied } = setUp();
		expect(named("Add to Claude Code (stdio)").desc).toBe('claude mcp add obsidian -- claude-code-bridge mcp --vault "/home/me/My vault"');
		const http = named("Add to Claude Code (HTTP)").desc;
		expect(http).toContain("claude mcp add --transport http obsidian http://127.0.0.1:41999/mcp --header");
		expect(http).not.toContain(TOKEN);
		expect(named("JSON for .mcp.json or --mcp-config").desc).not.toContain(TOKEN);
		await button("Add to Claude Code (HTTP)", "Copy").click();
		await button("JSON for .mcp.json or --mcp-config", "Copy HTTP JSON").click();
		await button("JSON for .mcp.json or --mcp-config", "Copy stdio JSON").click();
		expect(copied[0]).toContain(`Bearer ${TOKEN}`);
		expect(JSON.parse(copied[1] ?? "")).toEqual({ mcpServers: { obsidian: { type: "http", url: "http://127.0.0.1:41999/mcp", headers: { Authorization: `Bearer ${TOKEN}` } } } });
		expect(JSON.parse(copied[2] ?? "")).toEqual({ mcpServers: { obsidian: { type: "stdio", command: "claude-code-bridge", args: ["mcp", "--vault", "/home/me/My vault"] } } });
	});

	it("rotates the token and says to copy the configuration again", async () => {
		const { button, calls, copied } = setUp();
		await button("Vault tools token", "Rotate token").click();
		expect(calls).toEqual(["rotate"]);
		expect(notices).toEqual(["Vault tools token rotated. Copy the HTTP command again; the old token no longer works."]);
		await button("Add to Claude Code (HTTP)", "Copy").click();
		expect(copied[0]).toContain(`Bearer ${"e".repeat(64)}`);
	});

	it("cannot rotate while the tools are not running", () => {
		const { button, named } = setUp({ running: false, relays: 0 });
		expect(button("Vault tools token", "Rotate token").disabled).toBe(true);
		expect(named("Vault tools status").desc).toBe("Not running (the bridge is off).");
	});
});

describe("the vault tools' stored settings", () => {
	it("keep known keys only: a token stored under vaultTools is dropped, so data.json never carries it", () => {
		const stored: unknown = JSON.parse(`{"vaultTools":{"enabled":false,"httpPort":4100,"promptsFolder":" Prompts ","token":"${"a".repeat(64)}","mcpToken":"${"b".repeat(64)}"}}`);
		const settings = migrateSettings(stored);
		expect(settings.vaultTools).toEqual({ enabled: false, reviewWrites: true, httpPort: 4100, promptsFolder: "Prompts" });
		expect(JSON.stringify(settings)).not.toMatch(/aaaa|bbbb/);
	});

	it("fall back to the defaults for values of the wrong kind", () => {
		const settings = migrateSettings({ vaultTools: { enabled: "yes", reviewWrites: 0, httpPort: 70000, promptsFolder: 5 } });
		expect(settings.vaultTools).toEqual(DEFAULT_VAULT_TOOLS_SETTINGS);
		expect(settings.vaultTools).not.toBe(DEFAULT_VAULT_TOOLS_SETTINGS);
	});
});
