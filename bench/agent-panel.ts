/**
 * `node scripts/run-bench.mjs bench/agent-panel.ts [plugin-load runs] [first-character runs]`: the agent panel's
 * figures (issue 18), printed as a Markdown table; writes nothing.
 *
 * - the plugin still loads light: require(main.js) and onload in CPU time, as `npm run bench` measures them
 *   (bench/plugin-load.ts; build main.js first: `node esbuild.config.mjs production`);
 * - the panel's own memory with a 2,000-message session (bench/agent-panel-memory.ts);
 * - Enter → first streamed character with the pinned real CLI against the mock model API
 *   (bench/agent-panel-latency.ts; installs the CLI into .cache/claude-cli once).
 */
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { measureFirstCharacter, type FirstCharacter, type FirstCharacterRun } from "./agent-panel-latency";
import { measurePanelMemory } from "./agent-panel-memory";
import { measurePluginLoad } from "./plugin-load";
import { summarize } from "./stats";

/** Issue 18: require(main.js) plus onload, CPU median. */
const PLUGIN_LOAD_BUDGET_MS = 25;

const fixed = (value: number, digits = 1): string => value.toFixed(digits);

function latencyRows(label: string, runs: readonly FirstCharacter[]): string[] {
	const row = (what: string, key: keyof FirstCharacter): string => {
		const summary = summarize(runs.map((run) => run[key]));
		return `| ${label}: ${what}, median / max of ${runs.length} (ms) | ${fixed(summary.median)} / ${fixed(summary.max)} |`;
	};
	const spawn = runs.some((run) => run.toSpawn > 0)
		? [
				row(
					"of which ours before the CLI runs: Enter → the session's CLI spawned (finding it, its version check)",
					"toSpawn",
				),
			]
		: [];
	return [
		row("Enter → first text-delta", "total"),
		row("Enter → the mock has the request", "toRequest"),
		...spawn,
		row("mock's first event written → first text-delta (the way back)", "backToPanel"),
		row(
			"of which the CLI: mock's first event → its stdout chunk with the text delta reaches the plugin",
			"cliStream",
		),
		row("of which ours: that stdout chunk → the text-delta event", "ours"),
	];
}

async function main(): Promise<void> {
	const loadRuns = Number(process.argv[2] ?? "20");
	const latencyRuns = Number(process.argv[3] ?? "5");
	const load = loadavg()
		.map((value) => value.toFixed(2))
		.join(" ");

	const pluginLoad = await measurePluginLoad(loadRuns);
	const memory = await measurePanelMemory();
	const cli =
		execFileSync(process.execPath, [path.join(process.cwd(), "scripts", "install-claude-cli.mjs")], {
			encoding: "utf8",
		})
			.trim()
			.split("\n")
			.pop() ?? "";
	const runs: FirstCharacterRun[] = [];
	for (let run = 0; run < latencyRuns; run++) runs.push(await measureFirstCharacter(cli));
	const loadAfter = loadavg()
		.map((value) => value.toFixed(2))
		.join(" ");

	const pluginCpu = pluginLoad.requireCpuMs.median + pluginLoad.onloadCpuMs.median;
	process.stdout.write(
		[
			`load average (1, 5, 15 min) at the start ${load}, at the end ${loadAfter}; Node ${process.version}`,
			"",
			"| figure | value |",
			"| --- | ---: |",
			`| require(main.js) + onload, CPU time, median of ${loadRuns} fresh processes (ms; budget ${PLUGIN_LOAD_BUDGET_MS}) | ${fixed(pluginCpu)} (${fixed(pluginLoad.requireCpuMs.median)} + ${fixed(pluginLoad.onloadCpuMs.median)}): ${pluginCpu <= PLUGIN_LOAD_BUDGET_MS ? "met" : "**missed**"} |`,
			`| panel, ${memory.messages} messages (${fixed(memory.textChars / 1024, 0)} KiB of text) streamed in: JS heap in use after GC, before the view → after (MiB) | ${fixed(memory.heapBeforeMiB)} → ${fixed(memory.heapAfterMiB)} (+${fixed(memory.heapAfterMiB - memory.heapBeforeMiB)}) |`,
			`| panel, the same: elements under the view | ${memory.elements} |`,
			...latencyRows(
				"cold (a new session's first message)",
				runs.map((run) => run.cold),
			),
			...latencyRows(
				"warm (the second message)",
				runs.map((run) => run.warm),
			),
		].join("\n") + "\n",
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`agent-panel bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
