import { fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeTempDir } from "../tests/helpers/temp-dir";
import type { PluginLoadSample } from "./plugin-load-sample";
import { round, summarize, type Summary } from "./stats";

export type { PluginLoadSample } from "./plugin-load-sample";

export interface PluginLoad {
	runs: number;
	/** The clock of the CPU figures: the thread main.js loads on (Linux) or the whole process. */
	cpuClock: PluginLoadSample["cpuClock"];
	requireMs: Summary;
	requireCpuMs: Summary;
	onloadMs: Summary;
	onloadCpuMs: Summary;
	/** require + onload in CPU time, per sample: what issue 31 compares with the baseline. */
	loadCpuMs: Summary;
	layoutReadyToListeningMs: Summary;
	onloadToListeningMs: Summary;
}

/** A built main.js to load: the current build or the baseline's. */
export interface PluginBuild {
	name: string;
	mainJs: string;
}

/** The same cold load of two builds, sample by sample in turn, in fresh light processes. */
export interface PluginLoadComparison {
	samplesEach: number;
	current: PluginBuild & { load: PluginLoad };
	baseline: PluginBuild & { load: PluginLoad };
	/** current ÷ baseline of the require + onload CPU medians. */
	loadCpuRatio: number;
	/** current ÷ baseline of the require CPU medians. */
	requireCpuRatio: number;
}

interface HostOptions {
	untilListening: boolean;
	/** Extra node flags for each light host (`--cpu-prof …`). */
	nodeFlags: readonly string[];
}

/** The light host scripts/run-bench.mjs bundled apart (bench/plugin-load-host.ts). */
function hostScript(): string {
	const host = process.env.CCB_BENCH_PLUGIN_HOST;
	if (!host) throw new Error("CCB_BENCH_PLUGIN_HOST is not set: run the bench through scripts/run-bench.mjs");
	return host;
}

function loadOnce(
	build: PluginBuild,
	vaultPath: string,
	home: string,
	options: HostOptions,
): Promise<PluginLoadSample> {
	return new Promise((resolveSample, reject) => {
		const child = fork(
			hostScript(),
			[build.mainJs, vaultPath, ...(options.untilListening ? ["--until-listening"] : [])],
			{
				env: { ...process.env, HOME: home },
				execArgv: [...options.nodeFlags],
				stdio: ["ignore", "inherit", "inherit", "ipc"],
			},
		);
		child.once("message", (message) => resolveSample(message as PluginLoadSample));
		child.once("error", reject);
		child.once("exit", (code) =>
			reject(
				new Error(`The plugin-load host exited with ${code ?? "a signal"} before reporting (${build.name})`),
			),
		);
	});
}

function summarizeLoads(samples: readonly PluginLoadSample[]): PluginLoad {
	const of = (pick: (sample: PluginLoadSample) => number): Summary =>
		summarize(samples.map((sample) => round(pick(sample), 3)).filter((value) => !Number.isNaN(value)));
	return {
		runs: samples.length,
		cpuClock: samples.every((sample) => sample.cpuClock === "main thread") ? "main thread" : "process",
		requireMs: of((sample) => sample.requireMs),
		requireCpuMs: of((sample) => sample.requireCpuMs),
		onloadMs: of((sample) => sample.onloadMs),
		onloadCpuMs: of((sample) => sample.onloadCpuMs),
		loadCpuMs: of((sample) => sample.requireCpuMs + sample.onloadCpuMs),
		layoutReadyToListeningMs: of((sample) => sample.layoutReadyToListeningMs),
		onloadToListeningMs: of((sample) => sample.onloadToListeningMs),
	};
}

/** A temp HOME (the lock file goes there) and a one-note vault for the hosts; removed after `run`. */
async function withScratch<T>(run: (vaultPath: string, home: string) => Promise<T>): Promise<T> {
	const temp = makeTempDir("plugin");
	try {
		const home = join(temp.path, "home");
		const vaultPath = join(temp.path, "vault");
		mkdirSync(home);
		mkdirSync(vaultPath);
		writeFileSync(join(vaultPath, "Welcome.md"), "# Welcome\n");
		return await run(vaultPath, home);
	} finally {
		temp.remove();
	}
}

/** `runs` cold loads of main.js (until the bridge listens), each in a fresh light process. */
export function measurePluginLoad(runs: number, mainJs = resolve("main.js")): Promise<PluginLoad> {
	return withScratch(async (vaultPath, home) => {
		const samples: PluginLoadSample[] = [];
		const build = { name: "current", mainJs };
		for (let run = 0; run < runs; run++)
			samples.push(await loadOnce(build, vaultPath, home, { untilListening: true, nodeFlags: [] }));
		return summarizeLoads(samples);
	});
}

/**
 * `samplesEach` cold loads of each build (require + onload), in turns: current, baseline, baseline, current, … so
 * that drift on a shared machine falls on both; a warm-up pair first (the file cache) is not counted.
 */
export function comparePluginLoad(
	current: PluginBuild,
	baseline: PluginBuild,
	samplesEach: number,
	nodeFlags: (build: PluginBuild, sample: number) => readonly string[] = () => [],
): Promise<PluginLoadComparison> {
	return withScratch(async (vaultPath, home) => {
		const load = (build: PluginBuild, sample: number): Promise<PluginLoadSample> =>
			loadOnce(build, vaultPath, home, { untilListening: false, nodeFlags: nodeFlags(build, sample) });
		await load(current, -1);
		await load(baseline, -1);
		const samples = { current: [] as PluginLoadSample[], baseline: [] as PluginLoadSample[] };
		for (let sample = 0; sample < samplesEach; sample++) {
			const order = sample % 2 === 0 ? (["current", "baseline"] as const) : (["baseline", "current"] as const);
			for (const side of order) samples[side].push(await load(side === "current" ? current : baseline, sample));
		}
		const currentLoad = summarizeLoads(samples.current);
		const baselineLoad = summarizeLoads(samples.baseline);
		return {
			samplesEach,
			current: { ...current, load: currentLoad },
			baseline: { ...baseline, load: baselineLoad },
			loadCpuRatio: round(currentLoad.loadCpuMs.median / baselineLoad.loadCpuMs.median),
			requireCpuRatio: round(currentLoad.requireCpuMs.median / baselineLoad.requireCpuMs.median),
		};
	});
}
