/**
 * Loads the built main.js (as Obsidian would) with the `obsidian` stub: catches bundling mistakes
 * such as `ws` resolving to its browser stub or a Node built-in being bundled.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { App, Plugin } from "../__mocks__/obsidian";
import { connectOrThrow } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { waitUntil } from "../helpers/wait-until";

interface LoadedPlugin extends Plugin {
	onunload(): void;
}

describe("the built main.js", () => {
	const originalHome = process.env.HOME;
	const temp = makeTempDir("bundle");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "My vault");

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
		process.env.HOME = home;
	});

	afterAll(() => {
		process.env.HOME = originalHome;
		temp.remove();
	});

	it("says it is starting from load, and not running (never stuck on starting) when the vault is not on the local file system", async () => {
		const module = jest.requireActual<{ default: new (app: App, manifest: object) => LoadedPlugin }>(
			resolve(__dirname, "../../main.js"),
		);
		const app = new App(vault, "Remote vault");
		Object.defineProperty(app.vault, "adapter", { value: {} });
		const plugin = new module.default(app, {
			id: "claude-code-bridge",
			name: "Claude Code Bridge",
			version: "0.1.0",
		});
		plugin.load();
		try {
			await flush();
			const statusBar = plugin.statusBarItems[0];
			if (!statusBar) throw new Error("no status bar item");
			expect(statusBar.text).toBe("Claude: starting…");
			app.workspace.finishLayout();
			await waitUntil(() => statusBar.text !== "Claude: starting…", "the bridge to give up starting");
			expect(statusBar.text).toBe("Claude: not running");
			expect(statusBar.attributes.get("aria-label")).toContain("not on the local file system");
		} finally {
			plugin.unload();
		}
	});

	it("loads in Node, starts the server after layout ready, serves a client, and cleans up on unload", async () => {
		const bundle = resolve(__dirname, "../../main.js");
		expect(existsSync(bundle)).toBe(true);
		// Obsidian loads a plugin by requiring main.js; Jest maps its `obsidian` import to the same stub.
		const module = jest.requireActual<{ default: new (app: App, manifest: object) => LoadedPlugin }>(bundle);
		const app = new App(vault, "My vault");
		const plugin = new module.default(app, {
			id: "claude-code-bridge",
			name: "Claude Code Bridge",
			version: "0.1.0",
		});
		plugin.load();
		try {
			await flush();

			const lockDirectory = join(home, ".claude", "ide");
			expect(existsSync(lockDirectory)).toBe(false);
			app.workspace.finishLayout();

			const statusBar = plugin.statusBarItems[0];
			if (!statusBar) throw new Error("no status bar item");
			await waitUntil(
				() => statusBar.text !== "Claude: off" && statusBar.text !== "Claude: starting…",
				"the bridge to leave the starting state",
			);
			expect([statusBar.text, statusBar.attributes.get("aria-label")]).toEqual([
				"Claude: ready",
				"Ready: run claude in the vault's folder and type /ide to connect",
			]);
			const lockNames = readdirSync(lockDirectory);
			expect(lockNames).toEqual([expect.stringMatching(/^\d+\.lock$/)]);
			const lockName = lockNames[0] ?? "";
			const lock = JSON.parse(readFileSync(join(lockDirectory, lockName), "utf8")) as {
				authToken: string;
				ideName: string;
				workspaceFolders: string[];
			};
			expect(lock.ideName).toBe("Obsidian · My vault");
			expect(lock.workspaceFolders).toEqual([vault]);
			const port = Number(lockName.replace(".lock", ""));

			const client = await connectOrThrow(port, { token: lock.authToken });
			expect(client.protocol).toBe("mcp");
			expect((await client.initialize()).result).toMatchObject({
				serverInfo: { name: "obsidian-claude-code-bridge" },
			});
			const listed = (await client.request("tools/list")).result as { tools: { name: string }[] };
			expect(listed.tools.map((tool) => tool.name).sort()).toEqual(
				[
					"checkDocumentDirty",
					"closeAllDiffTabs",
					"close_tab",
					"getCurrentSelection",
					"getDiagnostics",
					"getLatestSelection",
					"getOpenEditors",
					"getWorkspaceFolders",
					"openDiff",
					"openFile",
					"saveDocument",
				].sort(),
			);
			expect(plugin.commands.map((command) => command.id)).toEqual(
				expect.arrayContaining(["tag-for-claude", "restart-server"]),
			);
			client.notify("ide_connected", { pid: 4242 });
			await waitUntil(() => statusBar.text === "Claude: connected", "the status bar to say connected");
			expect(statusBar.attributes.get("aria-label")).toBe("Claude Code is connected to this vault");

			// Quitting Obsidian removes the lock file at once (nothing async runs while the app quits).
			app.workspace.trigger("quit");
			expect(existsSync(join(lockDirectory, lockName))).toBe(false);

			plugin.unload();
			expect(readdirSync(lockDirectory)).toEqual([]);
			expect((await client.closed).code).toBe(1001);
			await expect(connectOrThrow(port, { token: lock.authToken })).rejects.toMatchObject({
				code: "ECONNREFUSED",
			});
		} finally {
			plugin.unload();
		}
	});
});

function flush(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 0));
}
