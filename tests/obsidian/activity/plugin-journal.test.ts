import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../../src/journal/content-hash";
import { FolderJournalStore } from "../../../src/journal/folder-journal-store";
import { vaultId } from "../../../src/journal/journal-folder";
import type { CallRecord, ChangeRecord } from "../../../src/journal/journal-records";
import { pluginJournal, pluginJournalFolder } from "../../../src/obsidian/activity/plugin-journal";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import type { BridgeSettingsHost } from "../../../src/obsidian/settings/bridge-settings-host";
import { readHttpTokenRecord } from "../../../src/vault-tools/serve/http-token-record";
import { App } from "../../__mocks__/obsidian";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";
import { createIndexedApp } from "../harness/indexed-app";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("the plugin's journal store and undo writes", () => {
	it("lives in the plugin's own folder of the config folder, not among the notes nor in data.json", () => {
		expect(pluginJournalFolder("/v", ".config-x", { id: "claude-code-bridge" })).toBe(
			join("/v", ".config-x/plugins/claude-code-bridge", "journal"),
		);
		expect(pluginJournalFolder("/v", ".config-x", { id: "claude-code-bridge", dir: ".config-x/plugins/ccb" })).toBe(
			join("/v", ".config-x/plugins/ccb", "journal"),
		);
	});

	it("keeps one journal per vault when the config folder is a link shared by several vaults", () => {
		const temp = makeTempDir("plugin-journal-shared");
		try {
			const shared = join(temp.path, "shared-config");
			mkdirSync(join(shared, "plugins", "claude-code-bridge"), { recursive: true });
			const [one, two] = [join(temp.path, "One"), join(temp.path, "Two")];
			for (const vault of [one, two]) {
				mkdirSync(vault);
				symlinkSync(shared, join(vault, ".config-x"));
			}
			const manifest = { id: "claude-code-bridge", dir: ".config-x/plugins/claude-code-bridge" };
			const [first, second] = [
				pluginJournalFolder(one, ".config-x", manifest),
				pluginJournalFolder(two, ".config-x", manifest),
			];
			// Through the shared link both paths would name one folder: they must not.
			for (const folder of [first, second]) mkdirSync(folder, { recursive: true });
			expect(realpathSync(first)).not.toBe(realpathSync(second));
			expect(first).toBe(join(one, ".config-x/plugins/claude-code-bridge", "journal", vaultId(one)));
			const own = join(temp.path, "Own");
			mkdirSync(join(own, ".config-x", "plugins", "claude-code-bridge"), { recursive: true });
			expect(pluginJournalFolder(own, ".config-x", manifest)).toBe(
				join(own, ".config-x/plugins/claude-code-bridge", "journal"),
			);
		} finally {
			temp.remove();
		}
	});

	const dataHome = makeTempDir("plugin-journal-data");
	afterAll(() => dataHome.remove());

	it("seals its records with this device's key, kept in the user's data folder (never in the vault)", () => {
		const app = new App("/vault", "Vault");
		const options = pluginJournal(
			app as never,
			"/vault",
			{ id: "claude-code-bridge" },
			{ XDG_DATA_HOME: dataHome.path },
			dataHome.path,
		);
		expect(options.seal).toBeDefined();
		expect(existsSync(join(dataHome.path, "claude-code-bridge", "keys", "journal.key"))).toBe(true);
	});

	it("writes the pre-image through the vault only over the bytes the change left", async () => {
		const app = new App("/vault", "Vault");
		app.vault.writeExternally("A.md", "after\n");
		const writes = pluginJournal(
			app as never,
			"/vault",
			{ id: "claude-code-bridge" },
			{ XDG_DATA_HOME: dataHome.path },
			dataHome.path,
		).undo;
		await expect(
			writes?.writeBytes("A.md", bytes("before\r\n"), contentHash(bytes("something else"))),
		).rejects.toThrow("A.md changed since; nothing was written");
		expect(app.vault.contents.get("A.md")).toBe("after\n");
		await writes?.writeBytes("A.md", bytes("before\r\n"), contentHash(bytes("after\n")));
		expect(app.vault.contents.get("A.md")).toBe("before\r\n");
		await expect(writes?.writeBytes("Gone.md", bytes("x"), "0")).rejects.toThrow("Gone.md is gone");
	});

	it("trashes through the file manager (the user's trash setting)", async () => {
		const app = new App("/vault", "Vault");
		app.vault.writeExternally("New.md", "# New\n");
		const trashed: string[] = [];
		const trashFile = app.fileManager.trashFile.bind(app.fileManager);
		app.fileManager.trashFile = (file) => {
			trashed.push(file.path);
			return trashFile(file);
		};
		await pluginJournal(
			app as never,
			"/vault",
			{ id: "claude-code-bridge" },
			{ XDG_DATA_HOME: dataHome.path },
			dataHome.path,
		).undo?.trash("New.md");
		expect(trashed).toEqual(["New.md"]);
		expect(app.vault.contents.has("New.md")).toBe(false);
	});
});

describe("the running plugin records Claude's vault-tool calls", () => {
	jest.setTimeout(30_000);
	const temp = makeTempDir("plugin-journal");
	const home = join(temp.path, "home");
	const vaultPath = join(temp.path, "vault");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;
	let client: Client | undefined;

	beforeEach(async () => {
		process.env.HOME = home;
		app = await createIndexedApp({ "Notes/Alpha.md": "# Alpha\n", "Private/Secret.md": "# Secret\n" }, vaultPath);
		plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(plugin as unknown as { data: unknown }).data = {
			privateFolders: ["Private"],
			vaultTools: { reviewWrites: false },
		};
		plugin.load();
		await pollUntil(
			() => (plugin.settingsHost as BridgeSettingsHost | undefined)?.settings.vaultTools,
			"the settings to load",
		);
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		await client?.close();
		client = undefined;
		plugin?.unload();
		await (plugin as unknown as { bridge?: { stopped: Promise<void> } } | undefined)?.bridge?.stopped;
		process.env.HOME = previousHome;
	});
	afterAll(() => temp.remove());

	async function connect(): Promise<Client> {
		app.workspace.finishLayout();
		const port = await pollUntil(() => {
			const http = plugin.settingsHost.vaultToolsStatus().http;
			return http?.state === "listening" ? http.port : undefined;
		}, "the HTTP endpoint to listen");
		const token = readHttpTokenRecord(home, port).token ?? "";
		client = new Client({ name: "plugin-journal-test", version: "1.0.0" });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			}),
		);
		return client;
	}

	const store = (): FolderJournalStore =>
		new FolderJournalStore(pluginJournalFolder(vaultPath, app.vault.configDir, { id: "claude-code-bridge" }));

	it("a create_note over HTTP is in the plugin's store with its change, a private note is never named, and undo trashes the note", async () => {
		const mcp = await connect();
		await mcp.callTool({ name: "create_note", arguments: { path: "Notes/New.md", content: "# New\n" } });
		await mcp.callTool({ name: "read_note", arguments: { path: "Private/Secret.md" } });
		const records = await pollUntil(async () => {
			const loaded = await store().load();
			return loaded.filter((record) => record.type === "call").length >= 2 ? loaded : undefined;
		}, "both calls in the store");
		const calls = records.filter((record): record is CallRecord => record.type === "call");
		const created = calls.find((call) => call.tool === "create_note");
		expect(created).toMatchObject({
			session: { surface: "vault-tools-http" },
			notes: ["Notes/New.md"],
			outcome: "ok",
		});
		const change = records.find((record): record is ChangeRecord => record.type === "change");
		expect(change).toMatchObject({ id: created?.id, change: { kind: "create", path: "Notes/New.md" } });
		expect(JSON.stringify(records)).not.toContain("Secret");
		// The journal is in the config folder, which Obsidian never lists as notes: Claude cannot read it.
		const journalFile = `${app.vault.configDir}/plugins/claude-code-bridge/journal/records.jsonl`;
		const read = (await mcp.callTool({ name: "read_note", arguments: { path: journalFile } })) as {
			isError?: boolean;
			content: { text: string }[];
		};
		expect(read.isError).toBe(true);
		expect(read.content.map((block) => block.text).join("")).not.toContain("create_note");

		const activity = (
			plugin as unknown as {
				bridge: { bridge: { activity?: { undo?: { entry(id: string): Promise<{ kind: string }> } } } };
			}
		).bridge.bridge.activity;
		await expect(activity?.undo?.entry(created?.id ?? "")).resolves.toMatchObject({ kind: "undone" });
		expect(app.vault.contents.has("Notes/New.md")).toBe(false);
	});
});
