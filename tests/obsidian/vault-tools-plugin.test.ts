import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createServer } from "node:net";
import ClaudeCodeBridgePlugin from "../../src/plugin";
import { NOT_READY_REASON } from "../../src/obsidian/vault-index/vault-tools-component";
import type { BridgeSettings } from "../../src/settings";
import { DIFF_VIEW_TYPE } from "../../src/obsidian/diff-view";
import type { App, FakeElement } from "../__mocks__/obsidian";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { createIndexedApp } from "./harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const NOTES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n\nThe alpha note links [[Beta]].\n",
	"Notes/Beta.md": "# Beta\n\nAbout beta.\n",
	"Private/Secret.md": "# Secret\n\nalpha secret\n",
	"Claude prompts/Weekly review.md": "---\ndescription: Review the week\n---\nList what changed this week.\n",
};

interface CallResult {
	content: { type: string; text: string }[];
	isError?: boolean;
}

function text(result: unknown): string {
	return (result as CallResult).content.map((block) => block.text).join("\n");
}

describe("the plugin serves Claude's vault tools over HTTP from Obsidian's index", () => {
	const temp = makeTempDir("vault-tools-plugin");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;
	let clients: Client[] = [];

	beforeEach(async () => {
		// The bridge writes its IDE lock file under the home directory: keep it in the test's folder.
		process.env.HOME = temp.path;
		app = await createIndexedApp(NOTES, temp.path);
		plugin = new ClaudeCodeBridgePlugin(app as never, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never);
		(plugin as unknown as { data: unknown }).data = { privateFolders: ["Private"], vaultTools: { reviewWrites: false } };
		// As Obsidian loads a plugin: load() runs the (async) onload; children added later load with it.
		plugin.load();
		await pollUntil(() => (plugin.settings as BridgeSettings | undefined)?.vaultTools, "the settings to load");
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		for (const client of clients) await client.close();
		clients = [];
		plugin?.unload();
		// Unloading closes both servers; wait until they have (no handle left open).
		await (plugin as unknown as { bridge?: { stopped: Promise<void> } }).bridge?.stopped;
		await pollUntil(() => (plugin?.vaultToolsStatus().http?.state === "listening" ? undefined : true), "the HTTP endpoint to close");
		process.env.HOME = previousHome;
	});
	afterAll(() => temp.remove());

	/** The review tab's button with this class, once Obsidian's review view shows the proposal. */
	async function reviewButton(cls: string): Promise<FakeElement> {
		return pollUntil(() => {
			const view = app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)[0]?.view as { contentEl?: FakeElement } | undefined;
			return view?.contentEl?.findAll(cls)[0];
		}, `a review tab with ${cls}`);
	}

	const stored = (): BridgeSettings => (plugin as unknown as { data: BridgeSettings }).data;

	async function connect(token = plugin.vaultTools.mcpToken()): Promise<Client> {
		const url = await pollUntil(() => plugin.vaultToolsStatus().http?.url, "the HTTP endpoint to listen");
		const client = new Client({ name: "vault-tools-plugin-test", version: "1.0.0" });
		await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
		clients.push(client);
		return client;
	}

	it("does nothing before layout ready, then listens on a port it keeps in the settings", async () => {
		expect(plugin.vaultToolsStatus()).toEqual({ running: false, relays: 0 });
		app.workspace.finishLayout();
		const port = await pollUntil(() => stored().vaultTools.httpPort ?? undefined, "the chosen port to be saved");
		expect(plugin.vaultToolsStatus().http).toMatchObject({ state: "listening", port, url: `http://127.0.0.1:${port}/mcp` });
	});

	it("answers the SDK Client: tools, search through Obsidian's index without private notes, prompts", async () => {
		app.workspace.finishLayout();
		const client = await connect();
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["search", "read_note", "move_note"]));
		const found = text(await client.callTool({ name: "search", arguments: { query: "alpha" } }));
		expect(found).toContain("Notes/Alpha.md:");
		expect(found).not.toContain("Secret");
		const { prompts } = await client.listPrompts();
		expect(prompts).toEqual([{ name: "Weekly-review", description: "Review the week" }]);
		const { resources } = await client.listResources();
		expect(resources.map((resource) => resource.uri)).toEqual(["vault://overview"]);
	});

	it("refuses a wrong token", async () => {
		app.workspace.finishLayout();
		await expect(connect("0".repeat(64))).rejects.toThrow(/wrong bearer token/);
	});

	it("refuses writes while Obsidian has not indexed every note, and writes through the vault once it has", async () => {
		app.vault.writeExternally("Notes/Gamma.md", "# Gamma\n");
		app.workspace.finishLayout();
		const client = await connect();
		const refused = (await client.callTool({ name: "create_note", arguments: { path: "Notes/New.md", content: "# New\n" } })) as CallResult;
		expect(refused.isError).toBe(true);
		expect(text(refused)).toContain(NOT_READY_REASON);
		expect(app.vault.contents.has("Notes/New.md")).toBe(false);
		await app.metadataCache.parsePending();
		const created = (await client.callTool({ name: "create_note", arguments: { path: "Notes/New.md", content: "# New\n\n[[Alpha]]\n" } })) as CallResult;
		expect(created.isError).toBeFalsy();
		expect(app.vault.contents.get("Notes/New.md")).toBe("# New\n\n[[Alpha]]\n");
	});

	it("moves a note through Obsidian's file manager and reports the links Obsidian rewrote", async () => {
		app.workspace.finishLayout();
		const client = await connect();
		const answer = text(await client.callTool({ name: "move_note", arguments: { path: "Notes/Beta.md", to: "Archive/Beta renamed.md" } }));
		expect(answer).toMatch(/^Moved Notes\/Beta\.md to Archive\/Beta renamed\.md; updated 1 link in 1 note\./);
		expect(app.fileManager.renames).toBe(1);
		expect(app.vault.contents.get("Notes/Alpha.md")).toBe("# Alpha\n\nThe alpha note links [[Beta renamed]].\n");
	});

	it("keeps the token out of data.json, in Obsidian's local storage, and rotates it", async () => {
		app.workspace.finishLayout();
		const client = await connect();
		const token = plugin.vaultTools.mcpToken();
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		await pollUntil(() => stored().vaultTools.httpPort ?? undefined, "the port to be saved");
		expect(JSON.stringify(stored())).not.toContain(token);
		expect([...app.localStorage.values()]).toContain(token);
		await client.listTools();
		const rotated = plugin.vaultTools.rotateMcpToken();
		expect(rotated).not.toBe(token);
		expect(JSON.stringify(stored())).not.toContain(rotated);
		await expect(client.listTools()).rejects.toThrow(/wrong bearer token/);
		await expect(connect(rotated).then((fresh) => fresh.listTools())).resolves.toBeDefined();
	});

	it("shows a vault-tool write in Obsidian's review view when review is on, and writes only what was accepted", async () => {
		plugin.settings.vaultTools.reviewWrites = true;
		app.workspace.finishLayout();
		const client = await connect();
		const rejected = client.callTool({ name: "create_note", arguments: { path: "Notes/Rejected.md", content: "# No\n" } });
		(await reviewButton("ccb-review-reject")).dispatch("click");
		expect(text(await rejected)).toMatch(/rejected/i);
		expect(app.vault.contents.has("Notes/Rejected.md")).toBe(false);
		await pollUntil(() => (app.workspace.getLeavesOfType(DIFF_VIEW_TYPE).length === 0 ? true : undefined), "the review tab to close");
		const accepted = client.callTool({ name: "create_note", arguments: { path: "Notes/Accepted.md", content: "# Yes\n" } });
		(await reviewButton("ccb-review-accept")).dispatch("click");
		expect((await accepted as CallResult).isError).toBeFalsy();
		expect(app.vault.contents.get("Notes/Accepted.md")).toBe("# Yes\n");
	});

	it("reports a taken port as an error and keeps it, never moving to another port", async () => {
		const holder = createServer();
		const taken = await new Promise<number>((resolve) => holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)));
		try {
			plugin.settings.vaultTools.httpPort = taken;
			app.workspace.finishLayout();
			const http = await pollUntil(() => (plugin.vaultToolsStatus().http?.state === "failed" ? plugin.vaultToolsStatus().http : undefined), "the endpoint to fail");
			expect(http?.error).toContain(`Port ${taken} is in use by another program`);
			expect(plugin.settings.vaultTools.httpPort).toBe(taken);
		} finally {
			await new Promise((resolve) => holder.close(resolve));
		}
	});

	it("serves no vault tools when they are switched off, while the bridge itself runs", async () => {
		plugin.settings.vaultTools.enabled = false;
		app.workspace.finishLayout();
		await pollUntil(() => (plugin.bridgeStatus().state === "listening" ? true : undefined), "the bridge to listen");
		expect(plugin.vaultToolsStatus()).toEqual({ running: false, relays: 0 });
		expect((plugin as unknown as { bridge?: { bridge: { vaultTools?: unknown } } }).bridge?.bridge.vaultTools).toBeUndefined();
	});

	it("listens on the same port again after a restart", async () => {
		app.workspace.finishLayout();
		const port = await pollUntil(() => stored().vaultTools.httpPort ?? undefined, "the chosen port to be saved");
		await pollUntil(() => plugin.vaultToolsStatus().http?.url, "the HTTP endpoint to listen");
		await plugin.applyServerSettings();
		const http = await pollUntil(() => {
			const status = plugin.vaultToolsStatus().http;
			return status?.state === "listening" || status?.state === "failed" ? status : undefined;
		}, "the restarted endpoint to settle");
		expect(http).toMatchObject({ state: "listening", port });
		const client = await connect();
		expect((await client.listTools()).tools.length).toBeGreaterThan(0);
	});
});
