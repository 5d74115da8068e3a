/**
 * What a writer sees on opening the plugin's settings, in the running plugin with a Claude Code connected: at most
 * 12 rows before any fold is opened (headings and the folds' summaries count), in the order a writer needs them,
 * and nothing technical among them. The address, the pid, the endpoint and the tokens are there, under Advanced.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import type { BridgeSettingsHost } from "../../../src/obsidian/settings/bridge-settings-host";
import { Setting, type App, type FakeElement } from "../../__mocks__/obsidian";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { makeTempDir } from "../../helpers/temp-dir";
import { connectOrThrow, type TestClient } from "../../helpers/test-client";
import { pollUntil } from "../../helpers/wait-until";
import { createIndexedApp } from "../harness/indexed-app";
import { rowName, visibleRows, visibleText } from "../harness/settings-rows";

const CLAUDE_PID = 48213;

describe("the settings tab's first screen, in the running plugin", () => {
	const temp = makeTempDir("settings-first-screen");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;
	let client: TestClient | undefined;

	beforeEach(async () => {
		process.env.HOME = home;
		mkdirSync(vault, { recursive: true });
		app = await createIndexedApp({ "Notes/A.md": "# A\n", "Private/B.md": "# B\n" }, vault);
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
		await client?.close();
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

	/** Claude Code connects over the socket as the CLI does, and tells its pid. */
	async function connectClaude(): Promise<number> {
		const lockFile = await pollUntil(() => plugin.settingsHost.bridgeStatus().lockFilePath, "the lock file");
		const { authToken } = JSON.parse(readFileSync(lockFile, "utf8")) as { authToken: string };
		const port = plugin.settingsHost.bridgeStatus().port ?? 0;
		client = await connectOrThrow(port, { token: authToken });
		await client.request("initialize", {
			protocolVersion: "2025-11-25",
			capabilities: {},
			clientInfo: { name: "claude-code", version: "2.1.330" },
		});
		client.notify("notifications/initialized");
		client.notify("ide_connected", { pid: CLAUDE_PID });
		await pollUntil(
			() => (plugin.settingsHost.bridgeStatus().clients[0]?.pid === CLAUDE_PID ? true : undefined),
			"the client's pid",
		);
		return port;
	}

	it(
		"opens with at most 12 rows, in the order a writer needs them, with no address, port, pid, endpoint, token or path",
		async () => {
			const port = await connectClaude();
			const mcpPort = await pollUntil(() => {
				const http = plugin.settingsHost.vaultToolsStatus().http;
				return http?.state === "listening" ? http.port : undefined;
			}, "the vault tools' endpoint");
			Setting.created = [];
			const tab = (plugin as unknown as { settingTabs: { display(): void; containerEl: FakeElement }[] })
				.settingTabs[0];
			if (!tab) throw new Error("no settings tab");
			tab.display();
			const root = tab.containerEl;
			// The connect row asks the user's Claude Code what it has; its answer is part of the first screen.
			await pollUntil(
				() => (root.findAll("ccb-vault-tools-state")[0]?.text.endsWith("…") ? undefined : true),
				"Claude Code's answer",
			);

			const rows = visibleRows(root);
			expect(rows.map(rowName)).toEqual([
				"Connection",
				"Let Claude Code connect",
				"Start Claude Code in a terminal",
				"Claude Code in a panel",
				"Privacy",
				"Private folders",
				"Private tags",
				"Keep private folders out of Claude Code's file tools",
				"Claude's vault tools",
				"Connect to Claude Code",
				"More settings",
				"Advanced",
			]);
			expect(rows.length).toBeLessThanOrEqual(12);
			expect(root.findAll("claude-code-bridge-settings-status")[0]?.text).toMatch(
				/^Connected: Claude Code, since /,
			);

			const shown = new Set(rows);
			const buttons = Setting.created
				.filter((setting) => shown.has(setting.settingEl))
				.flatMap((setting) => setting.buttons.map((button) => button.text));
			const firstScreen = [...visibleText(root), ...buttons].join("\n");
			const technical: RegExp[] = [
				/127\.0\.0\.1|localhost|::1/i,
				new RegExp(`\\b(?:${port}|${mcpPort})\\b`),
				/\bports?\b/i,
				/\bpid\b/i,
				new RegExp(`\\b${CLAUDE_PID}\\b`),
				/endpoint|\/mcp\b/i,
				/\btokens?\b|fingerprint/i,
				new RegExp(temp.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
				// An absolute path (two segments at least, so that /ide is not one), or a settings or lock file.
				/(?:^|[\s"'(])(?:~|[A-Za-z]:)?[/\\][\w.-]+[/\\]/m,
				/\.claude\b|\.json\b|\.lock\b/,
				/mcp__|JSON-RPC|WebSocket/i,
			];
			const found = technical.map((pattern) => ({
				pattern: String(pattern),
				match: pattern.exec(firstScreen)?.[0],
			}));
			expect(found).toEqual(technical.map((pattern) => ({ pattern: String(pattern), match: undefined })));

			// The same facts are there, folded, for whoever troubleshoots.
			const advanced = root.children.filter((child) => child.tag === "details").at(-1);
			expect(advanced?.attributes.has("open")).toBe(false);
			expect(advanced?.textContent).toContain(`127.0.0.1:${port}`);
			expect(advanced?.textContent).toContain(`pid ${CLAUDE_PID}`);
			expect(advanced?.textContent).toContain(`http://127.0.0.1:${mcpPort}/mcp`);
		},
		FIXTURE_TIMEOUT_MS,
	);
});
