/**
 * A light host for one cold load of a built main.js, as a user's Obsidian loads the plugin: a fresh Node process
 * holding only the `obsidian` stand-in (tests/__mocks__/obsidian.ts), CodeMirror and a DOM, nothing of the bench.
 * scripts/run-bench.mjs bundles this file apart into its own small script (CCB_BENCH_PLUGIN_HOST); bench/plugin-load.ts
 * starts it once per sample: `node host.cjs <main.js> <vault folder> [--until-listening]`. It reports one
 * PluginLoadSample over IPC and exits.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as stub from "../tests/__mocks__/obsidian";
import type { App, Plugin, PluginManifest } from "../tests/__mocks__/obsidian";
import type { PluginLoadSample } from "./plugin-load-sample";

type PluginClass = new (app: App, manifest: PluginManifest) => Plugin;

/** Node's loader, whose `_load` resolves a bare `obsidian` the way Obsidian's own require of a plugin does. */
interface NodeLoader {
	_load(request: string, parent: unknown, isMain: boolean): unknown;
}

const TASKS = "/proc/self/task";

/**
 * CPU time in ms that the process's other threads (V8's GC helpers and compiler threads, libuv's pool) have run,
 * from Linux's per-thread run times (/proc/self/task/<tid>/schedstat, exact once a thread sleeps); 0 where there is
 * no /proc.
 */
function helperThreadsCpuMs(): number {
	if (!existsSync(TASKS)) return 0;
	let total = 0;
	for (const tid of readdirSync(TASKS)) {
		if (tid === String(process.pid)) continue;
		try {
			total += Number(readFileSync(join(TASKS, tid, "schedstat"), "utf8").split(" ")[0]) / 1e6;
		} catch {
			// The thread ended between the listing and the read.
		}
	}
	return total;
}

interface CpuMark {
	process: NodeJS.CpuUsage;
	helpers: number;
}

function cpuMark(): CpuMark {
	const helpers = helperThreadsCpuMs();
	return { helpers, process: process.cpuUsage() };
}

/**
 * CPU time in ms of the thread the plugin loads on since `start`, as Obsidian's renderer thread would spend it: the
 * process's CPU time less what its helper threads ran meanwhile. The process's alone counted V8's helper threads
 * (parallel GC, concurrent compiles), which ran inside the window in some samples and not in others, adding ~20 ms in
 * require or in onload (issue 31's bogus 0.63×). /proc/thread-self/schedstat cannot give it: it moves in ticks.
 */
function mainThreadCpuMsSince(start: CpuMark): number {
	const used = process.cpuUsage(start.process);
	const helpers = helperThreadsCpuMs() - start.helpers;
	return Math.max(0, (used.user + used.system) / 1000 - helpers);
}

/** After the host's own setup (jsdom, CodeMirror), long enough for V8's concurrent sweeping to finish. */
const SETTLE_MS = 50;

/**
 * A settled heap before the window, as Obsidian's is when it loads a plugin: a full GC of what the host's setup left,
 * then an idle pause so its concurrent sweeping and the setup's pending callbacks are done. Without it a GC fell inside
 * require in some samples, and the setup's callbacks ran in onload's await.
 */
async function settle(): Promise<void> {
	setFlagsFromString("--expose-gc");
	(runInNewContext("gc") as () => void)();
	await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

function nextTurn(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

/** `require("obsidian")` from main.js gets the stand-in; every other request goes to Node as usual. */
function provideObsidian(): void {
	const loader = Module as unknown as NodeLoader;
	const load = loader._load.bind(loader);
	loader._load = (request, parent, isMain) => (request === "obsidian" ? stub : load(request, parent, isMain));
}

async function loadOnce(mainJs: string, vaultPath: string, untilListening: boolean): Promise<PluginLoadSample> {
	provideObsidian();
	const load = createRequire(join(process.cwd(), "package.json"));
	// Obsidian has CodeMirror and its DOM before any plugin loads; so has this process before timing main.js.
	load("@codemirror/view");
	const { JSDOM } = load("jsdom") as typeof import("jsdom");
	const dom = new JSDOM("<!doctype html><html><body></body></html>");
	Object.assign(globalThis, { activeDocument: dom.window.document, activeWindow: dom.window });
	await settle();

	const requireCpu = cpuMark();
	const requireStart = performance.now();
	const loaded = load(resolve(mainJs)) as { default: PluginClass };
	const requireMs = performance.now() - requireStart;
	const requireCpuMs = mainThreadCpuMsSince(requireCpu);

	const app: App = new stub.App(vaultPath, "Bench vault");
	const plugin = new loaded.default(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "bench" });
	let onloadSettled: Promise<void> = Promise.resolve();
	const onload = plugin.onload.bind(plugin);
	plugin.onload = () => (onloadSettled = Promise.resolve(onload()));
	const onloadCpu = cpuMark();
	const start = performance.now();
	plugin.load();
	await onloadSettled;
	const onloadMs = performance.now() - start;
	const onloadCpuMs = mainThreadCpuMsSince(onloadCpu);

	let layoutReadyToListeningMs = Number.NaN;
	let onloadToListeningMs = Number.NaN;
	if (untilListening) {
		const readyAt = performance.now();
		app.workspace.finishLayout();
		// The status bar's words for a bridge that listens with no client yet (src/obsidian/bridge/status-bar.ts).
		while (plugin.statusBarItems[0]?.text !== "Claude: ready") {
			if (performance.now() - readyAt > 5000)
				throw new Error(
					`The plugin did not start listening: ${plugin.statusBarItems[0]?.text ?? "no status bar"}`,
				);
			await nextTurn();
		}
		layoutReadyToListeningMs = performance.now() - readyAt;
		onloadToListeningMs = performance.now() - start;
	}
	plugin.unload();
	return {
		requireMs,
		requireCpuMs,
		onloadMs,
		onloadCpuMs,
		cpuClock: existsSync(TASKS) ? "main thread" : "process",
		layoutReadyToListeningMs,
		onloadToListeningMs,
	};
}

const [mainJs, vaultPath, flag] = process.argv.slice(2);
if (!mainJs || !vaultPath) {
	process.stderr.write("Usage: node plugin-load-host.cjs <main.js> <vault folder> [--until-listening]\n");
	process.exit(2);
}
loadOnce(mainJs, vaultPath, flag === "--until-listening").then(
	(sample) => process.send?.(sample, undefined, undefined, () => process.exit(0)),
	(error: unknown) => {
		process.stderr.write(
			`plugin-load host: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exit(1);
	},
);
