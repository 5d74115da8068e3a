import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import ClaudeCodeBridgePlugin from "../../src/plugin";
import type { BridgeSettingsHost } from "../../src/obsidian/settings/bridge-settings-host";
import { NOT_READY_REASON } from "../../src/obsidian/vault-tools/vault-tools-component";
import type { BridgeSettings } from "../../src/settings";
import { httpTokenRecordPath, readHttpTokenRecord } from "../../src/vault-tools/serve/http-token-record";
import { DIFF_VIEW_TYPE } from "../../src/obsidian/review/diff-view";
import type { App, FakeElement } from "../__mocks__/obsidian";
import { NodeBackedWebWorker } from "../helpers/node-backed-web-worker";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { CATASTROPHIC_QUERY, PROSE_LINE, SETTLES_WITHIN_MS } from "../vault-tools/catastrophic-regex";
import { createIndexedApp } from "./harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const NOTES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n\nThe alpha note links [[Beta]].\n",
	"Notes/Beta.md": "# Beta\n\nAbout beta.\n",
	"Private/Secret.md": "# Secret\n\nalpha secret\n",
	"Claude prompts/Weekly review.md": "---\ndescription: Review the week\n---\nList what changed this week.\n",
	"Notes/Prose.md": `# Prose\n\n${PROSE_LINE}\n`,
};

interface CallResult {
	content: { type: string; text: string }[];
	isError?: boolean;
}

function text(result: unknown): string {
	return (result as CallResult).content.map((block) => block.text).join("\n");
}

describe("the plugin serves Claude's vault tools over HTTP from Obsidian's index", () => {
	// Real sockets and a bridge restart per test: a hang guard sized for a loaded machine.
	jest.setTimeout(30_000);
	const temp = makeTempDir("vault-tools-plugin");
	const home = join(temp.path, "home");
	const previousHome = process.env.HOME;
	let app: App;
	let plugin: ClaudeCodeBridgePlugin;
	let clients: Client[] = [];

	beforeEach(async () => {
		// The bridge writes its IDE lock file and the HTTP token record under the home directory: keep both in the
		// test's folder, beside the vault (a home inside the vault gets no token record).
		process.env.HOME = home;
		app = await createIndexedApp(NOTES, join(temp.path, "vault"));
		plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		(plugin as unknown as { data: unknown }).data = {
			privateFolders: ["Private"],
			vaultTools: { reviewWrites: false },
		};
		// As Obsidian loads a plugin: load() runs the (async) onload; children added later load with it.
		plugin.load();
		await pollUntil(
			() => (plugin.settingsHost as BridgeSettingsHost | undefined)?.settings.vaultTools,
			"the settings to load",
		);
	}, FIXTURE_TIMEOUT_MS);

	afterEach(async () => {
		for (const client of clients) await client.close();
		clients = [];
		plugin?.unload();
		// Unloading closes both servers; wait until they have (no handle left open).
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

	/** The review tab's button with this class, once Obsidian's review view shows the proposal. */
	async function reviewButton(cls: string): Promise<FakeElement> {
		return pollUntil(() => {
			const view = app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)[0]?.view as
				{ contentEl?: FakeElement } | undefined;
			return view?.contentEl?.findAll(cls)[0];
		}, `a review tab with ${cls}`);
	}

	const stored = (): BridgeSettings => (plugin as unknown as { data: BridgeSettings }).data;

	/** The token of the endpoint's current start, as `claude-code-bridge mcp-headers` reads it. */
	async function currentToken(): Promise<string> {
		const port = await pollUntil(() => {
			const http = plugin.settingsHost.vaultToolsStatus().http;
			return http?.state === "listening" ? http.port : undefined;
		}, "the HTTP endpoint to listen");
		return readHttpTokenRecord(home, port).token ?? "";
	}

	async function connect(token?: string): Promise<Client> {
		token ??= await currentToken();
		const url = await pollUntil(
			() => plugin.settingsHost.vaultToolsStatus().http?.url,
			"the HTTP endpoint to listen",
		);
		const client = new Client({ name: "vault-tools-plugin-test", version: "1.0.0" });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(url), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			}),
		);
		clients.push(client);
		return client;
	}

	it("does nothing before layout ready, then listens on a port it keeps in the settings", async () => {
		expect(plugin.settingsHost.vaultToolsStatus()).toEqual({ running: false, relays: 0 });
		app.workspace.finishLayout();
		const port = await pollUntil(() => stored().vaultTools.httpPort ?? undefined, "the chosen port to be saved");
		expect(plugin.settingsHost.vaultToolsStatus().http).toMatchObject({
			state: "listening",
			port,
			url: `http://127.0.0.1:${port}/mcp`,
		});
	});

	it("has one subscriber to the vault's and the metadata cache's note events, shared by the diagnostics and the vault tools", async () => {
		const events = ["create", "modify", "delete", "rename"] as const;
		const before: Record<string, number> = {
			changed: app.metadataCache.listenerCount("changed"),
			...Object.fromEntries(events.map((name) => [name, app.vault.listenerCount(name)])),
		};
		app.workspace.finishLayout();
		await connect();
		expect(plugin.settingsHost.vaultToolsStatus().running).toBe(true);
		expect(app.metadataCache.listenerCount("changed") - (before.changed ?? 0)).toBe(1);
		for (const name of events)
			expect([name, app.vault.listenerCount(name) - (before[name] ?? 0)]).toEqual([name, 1]);
		plugin.unload();
		await (plugin as unknown as { bridge?: { stopped: Promise<void> } }).bridge?.stopped;
		expect(app.metadataCache.listenerCount("changed")).toBe(before.changed ?? 0);
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
		const refused = (await client.callTool({
			name: "create_note",
			arguments: { path: "Notes/New.md", content: "# New\n" },
		})) as CallResult;
		expect(refused.isError).toBe(true);
		expect(text(refused)).toContain(NOT_READY_REASON);
		expect(app.vault.contents.has("Notes/New.md")).toBe(false);
		await app.metadataCache.parsePending();
		const created = (await client.callTool({
			name: "create_note",
			arguments: { path: "Notes/New.md", content: "# New\n\n[[Alpha]]\n" },
		})) as CallResult;
		expect(created.isError).toBeFalsy();
		expect(app.vault.contents.get("Notes/New.md")).toBe("# New\n\n[[Alpha]]\n");
	});

	it("moves a note through Obsidian's file manager and reports the links Obsidian rewrote", async () => {
		app.workspace.finishLayout();
		const client = await connect();
		const answer = text(
			await client.callTool({
				name: "move_note",
				arguments: { path: "Notes/Beta.md", to: "Archive/Beta renamed.md" },
			}),
		);
		expect(answer).toMatch(/^Moved Notes\/Beta\.md to Archive\/Beta renamed\.md; updated 1 link in 1 note\./);
		expect(app.fileManager.renames).toBe(1);
		expect(app.vault.contents.get("Notes/Alpha.md")).toBe("# Alpha\n\nThe alpha note links [[Beta renamed]].\n");
	});

	it("has a new token at every start, in neither data.json nor local storage; rotates it at once", async () => {
		app.saveLocalStorage("claude-code-bridge-mcp-token", "c".repeat(64));
		app.workspace.finishLayout();
		const client = await connect();
		const token = await currentToken();
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		const port = await pollUntil(() => stored().vaultTools.httpPort ?? undefined, "the port to be saved");
		expect(JSON.stringify(stored())).not.toContain(token);
		// The long-lived token earlier versions kept is gone; the new one is never stored there.
		expect([...app.localStorage.keys()]).not.toContain("claude-code-bridge-mcp-token");
		expect([...app.localStorage.values()]).not.toContain(token);
		await client.listTools();
		plugin.settingsHost.vaultTools.rotateMcpToken();
		const rotated = await currentToken();
		expect(rotated).not.toBe(token);
		await expect(client.listTools()).rejects.toThrow(/wrong bearer token/);
		await expect(connect(rotated).then((fresh) => fresh.listTools())).resolves.toBeDefined();

		// A restart (as after Obsidian quits and opens again): same port, another token; the record is never stale.
		await plugin.settingsHost.applyServerSettings();
		const afterRestart = await currentToken();
		expect(plugin.settingsHost.vaultToolsStatus().http?.port).toBe(port);
		expect(afterRestart).not.toBe(rotated);
		await expect(connect(rotated)).rejects.toThrow(/wrong bearer token/);
		await expect(connect(afterRestart).then((fresh) => fresh.listTools())).resolves.toBeDefined();
		expect(JSON.stringify(stored())).not.toContain(afterRestart);
	});

	it("removes the token record when Obsidian quits", async () => {
		app.workspace.finishLayout();
		await currentToken();
		const port = plugin.settingsHost.vaultToolsStatus().http?.port ?? 0;
		expect(existsSync(httpTokenRecordPath(home, port))).toBe(true);
		app.workspace.trigger("quit");
		expect(existsSync(httpTokenRecordPath(home, port))).toBe(false);
	});

	it("shows a vault-tool write in Obsidian's review view when review is on, and writes only what was accepted", async () => {
		plugin.settingsHost.settings.vaultTools.reviewWrites = true;
		app.workspace.finishLayout();
		const client = await connect();
		const rejected = client.callTool({
			name: "create_note",
			arguments: { path: "Notes/Rejected.md", content: "# No\n" },
		});
		(await reviewButton("ccb-review-reject")).dispatch("click");
		expect(text(await rejected)).toMatch(/rejected/i);
		expect(app.vault.contents.has("Notes/Rejected.md")).toBe(false);
		await pollUntil(
			() => (app.workspace.getLeavesOfType(DIFF_VIEW_TYPE).length === 0 ? true : undefined),
			"the review tab to close",
		);
		const accepted = client.callTool({
			name: "create_note",
			arguments: { path: "Notes/Accepted.md", content: "# Yes\n" },
		});
		(await reviewButton("ccb-review-accept")).dispatch("click");
		expect(((await accepted) as CallResult).isError).toBeFalsy();
		expect(app.vault.contents.get("Notes/Accepted.md")).toBe("# Yes\n");
	});

	it("a reason typed for Claude beside Reject goes back in the vault tool's answer, and nothing is written", async () => {
		plugin.settingsHost.settings.vaultTools.reviewWrites = true;
		app.workspace.finishLayout();
		const client = await connect();
		const rejected = client.callTool({
			name: "create_note",
			arguments: { path: "Notes/Rejected.md", content: "# No\n" },
		});
		const reason = await reviewButton("ccb-review-reason");
		expect(reason.attributes.get("placeholder")).toBe("Reason for Claude (optional)");
		reason.value = "Put it under Drafts/ instead\nplease";
		reason.dispatch("input");
		(await reviewButton("ccb-review-reject")).dispatch("click");
		expect(text(await rejected)).toBe(
			"Not created: the user rejected the change in the review: Put it under Drafts/ instead please. Nothing was written.",
		);
		expect(app.vault.contents.has("Notes/Rejected.md")).toBe(false);
	});

	it("with a private tag set: creates on a free path, and onto a private note shows the user why it cannot be made while Claude gets the answer a Reject gives", async () => {
		plugin.settingsHost.settings.privateTags = ["#private"];
		plugin.settingsHost.settings.vaultTools.reviewWrites = true;
		app.vault.writeExternally("Notes/Diary.md", "#private\nDear diary.\n");
		await app.metadataCache.parsePending();
		app.workspace.finishLayout();
		const client = await connect();
		const reviewTabsClosed = (): Promise<true> =>
			pollUntil(
				() => (app.workspace.getLeavesOfType(DIFF_VIEW_TYPE).length === 0 ? true : undefined),
				"the review tab to close",
			);
		const free = client.callTool({
			name: "create_note",
			arguments: { path: "Notes/Free.md", content: "# Mine\n" },
		});
		expect((await reviewButton("ccb-review-accept")).text).toBe("Accept all");
		// The decision bar says in words who proposes; the tool's name only on hover.
		expect((await reviewButton("ccb-review-proposer")).text).toBe("Claude's vault tools propose a change to");
		expect((await reviewButton("ccb-review-who")).attributes.get("title")).toBe(
			"Claude's vault tools · create_note",
		);
		(await reviewButton("ccb-review-reject")).dispatch("click");
		const freeAnswer = text(await free);
		await reviewTabsClosed();
		const taken = client.callTool({
			name: "create_note",
			arguments: { path: "Notes/Diary.md", content: "# Mine\n" },
		});
		expect((await reviewButton("ccb-review-cannot-apply")).text).toMatch(
			/^A note the vault tools cannot show \(private or hidden\) is already at this path/,
		);
		const view = app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)[0]?.view as unknown as { contentEl: FakeElement };
		expect(view.contentEl.findAll("ccb-review-accept")).toEqual([]);
		(await reviewButton("ccb-review-reject")).dispatch("click");
		expect(text(await taken).replace("Notes/Diary.md", "X")).toBe(freeAnswer.replace("Notes/Free.md", "X"));
		expect(freeAnswer).toMatch(/^Not created: the user rejected the change in the review/);
		expect(app.vault.contents.get("Notes/Diary.md")).toBe("#private\nDear diary.\n");
		await reviewTabsClosed();
		plugin.settingsHost.settings.vaultTools.reviewWrites = false;
		const created = (await client.callTool({
			name: "create_note",
			arguments: { path: "Notes/Created.md", content: "# New\n" },
		})) as CallResult;
		expect(text(created)).toMatch(/^Created Notes\/Created\.md/);
	}, 20_000);

	it("reports a taken port as an error and keeps it, never moving to another port", async () => {
		const holder = createServer();
		const taken = await new Promise<number>((resolve) =>
			holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)),
		);
		try {
			plugin.settingsHost.settings.vaultTools.httpPort = taken;
			app.workspace.finishLayout();
			const http = await pollUntil(
				() =>
					plugin.settingsHost.vaultToolsStatus().http?.state === "failed"
						? plugin.settingsHost.vaultToolsStatus().http
						: undefined,
				"the endpoint to fail",
			);
			expect(http?.error).toContain(`Port ${taken} is in use by another program`);
			expect(plugin.settingsHost.settings.vaultTools.httpPort).toBe(taken);
		} finally {
			await new Promise((resolve) => holder.close(resolve));
		}
	});

	it("serves no vault tools when they are switched off, while the bridge itself runs", async () => {
		plugin.settingsHost.settings.vaultTools.enabled = false;
		app.workspace.finishLayout();
		await pollUntil(
			() => (plugin.settingsHost.bridgeStatus().state === "listening" ? true : undefined),
			"the bridge to listen",
		);
		expect(plugin.settingsHost.vaultToolsStatus()).toEqual({ running: false, relays: 0 });
		expect(
			(plugin as unknown as { bridge?: { bridge: { vaultTools?: unknown } } }).bridge?.bridge.vaultTools,
		).toBeUndefined();
	});

	it(
		"runs regex search in a Web Worker: a catastrophic pattern is stopped while another call is answered first, and unloading ends the worker",
		async () => {
			// Obsidian's renderer has Web Workers and window timers; Node has neither.
			const uninstall = NodeBackedWebWorker.install();
			const hadWindow = "window" in globalThis;
			if (!hadWindow) Object.defineProperty(globalThis, "window", { value: globalThis, configurable: true });
			try {
				app.workspace.finishLayout();
				const client = await connect();
				const order: string[] = [];
				const search = client
					.callTool({ name: "search", arguments: { query: CATASTROPHIC_QUERY, mode: "regex" } })
					.then((result) => {
						order.push("search");
						return result as CallResult;
					});
				const read = client
					.callTool({ name: "read_note", arguments: { path: "Notes/Beta.md" } })
					.then((result) => {
						order.push("read_note");
						return text(result);
					});
				const [stopped, beta] = await Promise.all([search, read]);
				expect(order).toEqual(["read_note", "search"]);
				expect(beta).toContain("About beta.");
				expect(stopped.isError).toBe(true);
				expect(text(stopped)).toMatch(
					/^search: the regular expression did not finish within 3 s and was stopped/,
				);

				expect(
					text(
						await client.callTool({
							name: "search",
							arguments: { query: "^About (\\w+)\\.$", mode: "regex" },
						}),
					),
				).toMatch(/^Notes\/Beta\.md:3: About beta\./);
				const workers = NodeBackedWebWorker.started.slice(-2);
				expect(workers.map((worker) => worker.terminated)).toEqual([true, false]);
				plugin.unload();
				expect(workers.map((worker) => worker.terminated)).toEqual([true, true]);
			} finally {
				if (!hadWindow) Reflect.deleteProperty(globalThis, "window");
				uninstall();
			}
		},
		SETTLES_WITHIN_MS,
	);

	it("listens on the same port again after a restart", async () => {
		app.workspace.finishLayout();
		const port = await pollUntil(() => stored().vaultTools.httpPort ?? undefined, "the chosen port to be saved");
		await pollUntil(() => plugin.settingsHost.vaultToolsStatus().http?.url, "the HTTP endpoint to listen");
		await plugin.settingsHost.applyServerSettings();
		const http = await pollUntil(() => {
			const status = plugin.settingsHost.vaultToolsStatus().http;
			return status?.state === "listening" || status?.state === "failed" ? status : undefined;
		}, "the restarted endpoint to settle");
		expect(http).toMatchObject({ state: "listening", port });
		const client = await connect();
		expect((await client.listTools()).tools.length).toBeGreaterThan(0);
	});
});
