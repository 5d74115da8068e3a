/**
 * The built main.js keeps the code only `import()` reaches as strings and compiles each on first use
 * (build/plugin-lazy-chunks.mjs), so that loading the plugin does not parse it (issue 31). V8 reports every script it
 * compiles to the inspector, a lazy chunk under its `claude-code-bridge/<chunk>` sourceURL: none may be compiled by
 * require + onload, the bridge's when the layout is ready, the panel's engine only when something asks for it.
 */
import { Session } from "node:inspector";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { App, Plugin } from "../__mocks__/obsidian";
import { makeTempDir } from "../helpers/temp-dir";
import { waitUntil } from "../helpers/wait-until";

const CHUNK_URL = "claude-code-bridge/";

describe("the built main.js's lazy chunks", () => {
	const originalHome = process.env.HOME;
	const temp = makeTempDir("bundle-lazy");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "My vault");
	const session = new Session();
	const compiled: string[] = [];

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(vault);
		process.env.HOME = home;
		session.connect();
		session.on("Debugger.scriptParsed", (event) => {
			const url = (event.params as { url: string }).url;
			if (url.startsWith(CHUNK_URL)) compiled.push(url.slice(CHUNK_URL.length));
		});
		session.post("Debugger.enable");
		// Enabling the debugger reports every script already compiled in this worker, including chunks of main.js
		// that an earlier test file loaded: only what is compiled from here on counts.
		compiled.length = 0;
	});

	afterAll(() => {
		session.disconnect();
		process.env.HOME = originalHome;
		temp.remove();
	});

	it("compiles none while the plugin loads, the bridge's when the layout is ready, and never the panel's engine unasked", async () => {
		const module = jest.requireActual<{ default: new (app: App, manifest: object) => Plugin }>(
			resolve(__dirname, "../../main.js"),
		);
		const app = new App(vault, "My vault");
		const plugin = new module.default(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
		plugin.load();
		try {
			await new Promise((done) => setTimeout(done, 50));
			expect(compiled).toEqual([]);

			app.workspace.finishLayout();
			const statusBar = plugin.statusBarItems[0];
			if (!statusBar) throw new Error("no status bar item");
			await waitUntil(() => statusBar.text === "Claude: ready", "the bridge to listen");
			expect(compiled).toEqual(expect.arrayContaining([expect.stringMatching(/^bridge-runtime-\w+\.js$/)]));
			expect(compiled.filter((name) => name.startsWith("agent-engine-runtime-"))).toEqual([]);
			// Each chunk is compiled once, however many modules ask for it.
			expect(new Set(compiled).size).toBe(compiled.length);
		} finally {
			plugin.unload();
		}
	});
});
