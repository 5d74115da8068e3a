/**
 * `node scripts/run-bench.mjs bench/plugin-load-only.ts [samples] [--baseline COMMIT] [--profile DIR] [--record]`:
 * plugin load (require of the built main.js, then onload) of the current build and of the baseline (main.js built
 * from COMMIT's sources, by default main at the filing of issue 31), side by side: each sample a fresh light Node
 * process holding only the obsidian stand-in (bench/plugin-load-host.ts), the two builds in turns. Prints the medians
 * and the ratio; --record also measures layout ready → listening (10 loads) and writes all of it into
 * bench/results.json (its plugin-load figures and rows, the other figures left as they are). --profile DIR
 * runs every host under `node --cpu-prof` (DIR/current-N.cpuprofile, DIR/baseline-N.cpuprofile).
 * Build main.js first (`node esbuild.config.mjs production`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PLUGIN_LOAD_BASELINE_COMMIT, baselineMainJs } from "./plugin-load-baseline";
import { comparePluginLoad, measurePluginLoad, type PluginLoad, type PluginLoadComparison } from "./plugin-load";
import { describeComparison, isPluginLoadRow, pluginLoadRows } from "./plugin-load-rows";
import type { Summary } from "./stats";

const DEFAULT_SAMPLES = 40;
/** With --record: cold loads until the bridge listens, for the row after the comparison. */
const LISTENING_SAMPLES = 10;

interface RecordedResults {
	figures: Record<string, unknown>;
	table: { figure: string }[];
}

function show(name: string, summary: Summary): string {
	return `${name}: median ${summary.median.toFixed(2)} ms, max ${summary.max.toFixed(2)} ms`;
}

function print(comparison: PluginLoadComparison, loadAtStart: string, loadAtEnd: string): void {
	const lines = [`load average ${loadAtStart} at start, ${loadAtEnd} at the end`];
	for (const side of [comparison.current, comparison.baseline]) {
		lines.push(`${side.name} (${side.mainJs})`);
		lines.push(`  ${show("require(main.js) CPU", side.load.requireCpuMs)}`);
		lines.push(`  ${show("onload CPU", side.load.onloadCpuMs)}`);
		lines.push(`  ${show("require + onload CPU", side.load.loadCpuMs)}`);
		lines.push(`  ${show("require(main.js) wall", side.load.requireMs)}`);
	}
	lines.push(describeComparison(comparison));
	process.stdout.write(`${lines.join("\n")}\n`);
}

/** Replaces the plugin-load figures and rows of bench/results.json, leaving every other figure as it was. */
function record(listening: PluginLoad, comparison: PluginLoadComparison, loadAverage: number): void {
	const path = join("bench", "results.json");
	const results = JSON.parse(readFileSync(path, "utf8")) as RecordedResults;
	const rows = pluginLoadRows(listening, comparison, loadAverage);
	const at = results.table.findIndex((row) => isPluginLoadRow(row.figure));
	const kept = results.table.filter((row) => !isPluginLoadRow(row.figure));
	kept.splice(at < 0 ? kept.length : at, 0, ...rows);
	results.figures.pluginLoad = listening;
	results.figures.pluginLoadComparison = { ...comparison, loadAverage };
	results.table = kept;
	writeFileSync(path, `${JSON.stringify(results, null, 1)}\n`);
	process.stdout.write(`Wrote the plugin-load figures into ${path}\n`);
}

async function main(): Promise<void> {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			baseline: { type: "string", default: PLUGIN_LOAD_BASELINE_COMMIT },
			profile: { type: "string" },
			record: { type: "boolean", default: false },
			"until-listening": { type: "boolean", default: false },
		},
	});
	const samples = Number(positionals[0] ?? DEFAULT_SAMPLES);
	if (values["until-listening"]) {
		const load = await measurePluginLoad(samples);
		process.stdout.write(`${show("layout ready → listening", load.layoutReadyToListeningMs)}\n`);
		return;
	}
	const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
	const baseline = { name: `baseline ${values.baseline.slice(0, 10)}`, mainJs: baselineMainJs(values.baseline) };
	const current = { name: "current", mainJs: resolve("main.js") };
	const loadAtStart = loadavg()[0] ?? Number.NaN;
	const comparison = await comparePluginLoad(current, baseline, samples, (build, sample) =>
		profileDir === undefined || sample < 0
			? []
			: [
					"--cpu-prof",
					"--cpu-prof-dir",
					profileDir,
					"--cpu-prof-name",
					`${build === current ? "current" : "baseline"}-${sample}.cpuprofile`,
				],
	);
	const loadAtEnd = loadavg()[0] ?? Number.NaN;
	print(comparison, loadAtStart.toFixed(2), loadAtEnd.toFixed(2));
	if (!values.record) return;
	const listening = await measurePluginLoad(LISTENING_SAMPLES);
	record(listening, comparison, Math.max(loadAtStart, loadAtEnd, loadavg()[0] ?? 0));
}

main().catch((error: unknown) => {
	process.stderr.write(
		`plugin-load-only failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
