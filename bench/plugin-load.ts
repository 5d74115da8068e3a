import { fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { App, Plugin, PluginManifest } from "../tests/__mocks__/obsidian";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { elapsedMs, round, summarize, type Summary } from "./stats";

export const PLUGIN_LOAD_ROLE = "--role=plugin-load";

/** One cold start of the built main.js in a fresh process. */
export interface PluginLoadSample {
	/** Evaluating main.js (Obsidian's require of the plugin). */
	requireMs: number;
	/** The same, in CPU time (user + system) of the process: unaffected by other work on the machine. */
	requireCpuMs: number;
	/** plugin.load() until the async onload() settled. */
	onloadMs: number;
	onloadCpuMs: number;
	/** Layout ready until the status bar says listening (server, lock file). */
	layoutReadyToListeningMs: number;
	/** onload start to listening, with layout ready right after onload. */
	onloadToListeningMs: number;
}

export interface PluginLoad {
	runs: number;
	requireMs: Summary;
	requireCpuMs: Summary;
	onloadMs: Summary;
	onloadCpuMs: Summary;
	layoutReadyToListeningMs: Summary;
	onloadToListeningMs: Summary;
}

type PluginClass = new (app: App, manifest: PluginManifest) => Plugin;

/** CPU time (user + system) of this process since `start`, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

function nextTurn(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

/** In the child: loads main.js with the `obsidian` stub (aliased by scripts/run-bench.mjs), as Obsidian would. */
export async function pluginLoadChild(vaultPath: string): Promise<void> {
	// The stub is loaded only in this child: the rest of the benchmark does not depend on it.
	const stub = await import("../tests/__mocks__/obsidian");
	// Resolved at run time from node_modules (NODE_PATH), not bundled.
	const load = createRequire(join(process.cwd(), "package.json"));
	// Obsidian has CodeMirror loaded before any plugin; so does this process before timing main.js.
	load("@codemirror/view");
	// Obsidian's globals: the plugin watches the focused document for selection gestures (a jsdom one here).
	const { JSDOM } = load("jsdom") as typeof import("jsdom");
	const dom = new JSDOM("<!doctype html><html><body></body></html>");
	Object.assign(globalThis, { activeDocument: dom.window.document, activeWindow: dom.window });
	const requireCpu = process.cpuUsage();
	const requireStart = performance.now();
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a static require lets esbuild bundle main.js itself
	const loaded = require("../main.js") as { default: PluginClass };
	const requireMs = elapsedMs(requireStart);
	const requireCpuMs = cpuMsSince(requireCpu);
	const app: App = new stub.App(vaultPath, "Bench vault");
	const plugin = new loaded.default(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "bench" });
	let onloadSettled: Promise<void> = Promise.resolve();
	const onload = plugin.onload.bind(plugin);
	plugin.onload = () => (onloadSettled = Promise.resolve(onload()));

	const onloadCpu = process.cpuUsage();
	const start = performance.now();
	plugin.load();
	await onloadSettled;
	const onloadMs = elapsedMs(start);
	const onloadCpuMs = cpuMsSince(onloadCpu);
	const readyAt = performance.now();
	app.workspace.finishLayout();
	// The status bar's words for a bridge that listens with no client yet (src/obsidian/bridge/status-bar.ts).
	while (plugin.statusBarItems[0]?.text !== "Claude: ready") {
		if (elapsedMs(readyAt) > 5000)
			throw new Error(`The plugin did not start listening: ${plugin.statusBarItems[0]?.text ?? "no status bar"}`);
		await nextTurn();
	}
	const sample: PluginLoadSample = {
		requireMs,
		requireCpuMs,
		onloadMs,
		onloadCpuMs,
		layoutReadyToListeningMs: elapsedMs(readyAt),
		onloadToListeningMs: elapsedMs(start),
	};
	plugin.unload();
	process.send?.(sample, undefined, undefined, () => process.exit(0));
}

function runChild(bundle: string, vaultPath: string, home: string): Promise<PluginLoadSample> {
	return new Promise((resolve, reject) => {
		const child = fork(bundle, [PLUGIN_LOAD_ROLE, vaultPath], {
			env: { ...process.env, HOME: home },
			stdio: ["ignore", "inherit", "inherit", "ipc"],
		});
		child.once("message", (message) => resolve(message as PluginLoadSample));
		child.once("error", reject);
		child.once("exit", (code) =>
			reject(new Error(`The plugin-load child exited with ${code ?? "a signal"} before reporting`)),
		);
	});
}

/** `runs` cold loads of main.js, each in a fresh Node process with a temp HOME (the lock file goes there). */
export async function measurePluginLoad(runs: number): Promise<PluginLoad> {
	const temp = makeTempDir("plugin");
	try {
		const home = join(temp.path, "home");
		const vaultPath = join(temp.path, "vault");
		mkdirSync(home);
		mkdirSync(vaultPath);
		writeFileSync(join(vaultPath, "Welcome.md"), "# Welcome\n");
		const samples: PluginLoadSample[] = [];
		for (let run = 0; run < runs; run++) samples.push(await runChild(process.argv[1] ?? "", vaultPath, home));
		const of = (key: keyof PluginLoadSample): Summary => summarize(samples.map((sample) => round(sample[key], 3)));
		return {
			runs,
			requireMs: of("requireMs"),
			requireCpuMs: of("requireCpuMs"),
			onloadMs: of("onloadMs"),
			onloadCpuMs: of("onloadCpuMs"),
			layoutReadyToListeningMs: of("layoutReadyToListeningMs"),
			onloadToListeningMs: of("onloadToListeningMs"),
		};
	} finally {
		temp.remove();
	}
}
