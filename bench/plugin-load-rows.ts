import type { PluginLoad, PluginLoadComparison } from "./plugin-load";
import { MISSED_NOTES } from "./missed-notes";
import { formatMs, ms, times, type Row } from "./report";

/** Every plugin-load row starts with this, so bench/plugin-load-only.ts --record can replace them in results.json. */
export const PLUGIN_LOAD_ROW_PREFIX = "plugin load";

/** The rows the runs before the light host wrote; --record replaces them too. */
const EARLIER_ROW_PREFIXES = [
	"evaluating main.js (require)",
	"plugin onload()",
	"the same two in CPU time",
	"onload → layout ready",
];

export const TARGETS = { loadCpuRatio: 1, requireMs: 5, onloadMs: 10 };

export function isPluginLoadRow(figure: string): boolean {
	return [PLUGIN_LOAD_ROW_PREFIX, ...EARLIER_ROW_PREFIXES].some((prefix) => figure.startsWith(prefix));
}

const HOW =
	"each sample a fresh Node process holding only the obsidian stand-in, CodeMirror and a DOM (bench/plugin-load-host.ts), as a user's Obsidian loads the plugin, its heap settled first (a full GC, 50 ms idle); CPU time of the thread main.js loads on (the process's less its helper threads'); the two builds in turns";

export function describeComparison(comparison: PluginLoadComparison): string {
	const { current, baseline } = comparison;
	return (
		`require + onload CPU, median of ${comparison.samplesEach} each: ${formatMs(current.load.loadCpuMs.median)} ms (${current.name}) ` +
		`vs ${formatMs(baseline.load.loadCpuMs.median)} ms (${baseline.name}) = ${times(comparison.loadCpuRatio)} ` +
		`(require alone ${times(comparison.requireCpuRatio)}); goal ≤ ${times(TARGETS.loadCpuRatio)}`
	);
}

/**
 * The plugin-load rows: the current build against the baseline (issue 31: ≤ 1.0×), then the current build's own
 * figures, all from light hosts; `listening` (layout ready until the bridge listens) when it was measured.
 */
export function pluginLoadRows(
	listening: PluginLoad | undefined,
	comparison: PluginLoadComparison,
	loadAverage: number,
): Row[] {
	const { current, baseline } = comparison;
	const where = `${HOW}, ${comparison.samplesEach} samples each, load average ${loadAverage.toFixed(1)}`;
	const rows: Row[] = [
		{
			figure: `${PLUGIN_LOAD_ROW_PREFIX}, require(main.js) + onload CPU time, this build vs ${baseline.name} (main at the filing of issue 31): median (ms)`,
			bridge: formatMs(current.load.loadCpuMs.median),
			raw: formatMs(baseline.load.loadCpuMs.median),
			ratio: times(comparison.loadCpuRatio),
			target: `≤ ${times(TARGETS.loadCpuRatio)}`,
			met: comparison.loadCpuRatio <= TARGETS.loadCpuRatio,
			note: `${where}. require alone: ${formatMs(current.load.requireCpuMs.median)} vs ${formatMs(baseline.load.requireCpuMs.median)} ms (${times(comparison.requireCpuRatio)}).`,
		},
		{
			figure: `${PLUGIN_LOAD_ROW_PREFIX}, evaluating main.js (require), light host: median / max (ms)`,
			bridge: ms(current.load.requireMs),
			raw: "—",
			ratio: "—",
			target: `≤ ${TARGETS.requireMs} ms (median)`,
			met: current.load.requireMs.median <= TARGETS.requireMs,
			note: `${MISSED_NOTES.require} Taken as: ${where}. CPU time of the require: ${formatMs(current.load.requireCpuMs.median)} ms (median).`,
		},
		{
			figure: `${PLUGIN_LOAD_ROW_PREFIX}, onload(), light host: median / max (ms)`,
			bridge: ms(current.load.onloadMs),
			raw: "—",
			ratio: "—",
			target: `≤ ${TARGETS.onloadMs} ms (median)`,
			met: current.load.onloadMs.median <= TARGETS.onloadMs,
			note: `${MISSED_NOTES.onload} CPU time of onload: ${formatMs(current.load.onloadCpuMs.median)} ms (median).`,
		},
	];
	if (listening)
		rows.push({
			figure: `${PLUGIN_LOAD_ROW_PREFIX}, onload → layout ready → listening, light host, ${listening.runs} samples: median / max (ms)`,
			bridge: ms(listening.onloadToListeningMs),
			raw: "—",
			ratio: "—",
			target: "—",
		});
	return rows;
}
