/**
 * `npm run bench`: the headless host (`node dist/headless.cjs --vault DIR`) and a raw `ws` floor that answers the
 * same bytes, canned (bench/raw-server.ts), each in its own process; this process is the one client of both and
 * alternates between them. Plus vault-scale, plugin start-up (against the `obsidian` stub), memory under load and
 * bundle size, and the activity journal's cost (the same calls to a host with and one without a journal). Prints a Markdown table and writes bench/results.json.
 *
 * Options: --quick (fewer samples, for trying the bench itself), --profile DIR (the headless host runs the wire
 * benchmarks under `node --cpu-prof`, as does the floor; DIR/bridge.cpuprofile and DIR/floor.cpuprofile),
 * --no-jit-warm-up (the round-trip rows without the warm-up burst before them, as runs before it were made).
 */
import { statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { placement } from "./server-processes";
import { measureLoadMemory, type LoadMemory, type ProcessMemory } from "./memory";
import { comparePluginLoad, measurePluginLoad, type PluginLoad, type PluginLoadComparison } from "./plugin-load";
import { baselineMainJs, PLUGIN_LOAD_BASELINE_COMMIT } from "./plugin-load-baseline";
import { pluginLoadRows, TARGETS as PLUGIN_LOAD_TARGETS } from "./plugin-load-rows";
import { loadavg } from "node:os";
import {
	comparisonRow,
	describeMachine,
	formatMs,
	machine,
	markdownTable,
	missedNotes,
	ms,
	times,
	type Row,
} from "./report";
import { measureVaultScale, type VaultScale } from "./vault-scale";
import type { ObsidianDiagnosticsRow } from "./obsidian-diagnostics";
import {
	OBSIDIAN_HEAVY_ROLE,
	measureObsidianHeavy,
	obsidianHeavyChild,
	type ObsidianHeavyFigures,
} from "./obsidian-heavy";
import { OBSIDIAN_HEAVY_CLIENT_ROLE, obsidianHeavyClient } from "./obsidian-heavy-client";
import type { Throughput } from "./throughput";
import { measureWire, type HostCpu, type HostCpuFigures, type ToolCallFigures, type WireFigures } from "./wire";
import { MISSED_NOTES } from "./missed-notes";
import { JOURNAL_MAX_RATIO, measureJournalCost, type JournalCostFigures } from "./journal-cost";
import type { InlineStreamingFigures } from "./inline-edit-streaming";
import { errorStack } from "../src/shared/describe-error";
import { otherRunnersResults } from "./results-file";

const TARGETS = {
	pingRatio: 1.05,
	throughputRatio: 0.95,
	readRatio: 1.1,
	toolOverheadRatio: 1.1,
	selectionRatio: 1.1,
	diagnosticsVaultMs: 100,
	...PLUGIN_LOAD_TARGETS,
	mainJsBytes: 200 * 1024,
};
/** The whole run stops by itself past this, whatever hangs. */
const WATCHDOG_MS = 8 * 60_000;
const MEMORY_REPETITIONS = 5;

interface Figures {
	wire: WireFigures;
	/** Helper rows from bench/obsidian-diagnostics.ts (the Obsidian diagnostics source over the stub). */
	obsidianDiagnostics: ObsidianDiagnosticsRow[];
	vaults: VaultScale[];
	/** Layout ready until the bridge listens, current build, light hosts. */
	pluginLoad: PluginLoad;
	/** require + onload of this build and of the baseline, in turns, light hosts (issue 31). */
	pluginLoadComparison: PluginLoadComparison & { loadAverage: number };
	memory: LoadMemory;
	mainJsBytes: number;
	journal: JournalCostFigures;
	/** bench/inline-edit-streaming.ts: the editor's work per streamed chunk of an inline edit (issue 30). */
	inlineEdit: InlineStreamingFigures;
	inlineEditRows: Row[];
	/** The vault tools through the plugin in the stand-in, 10k notes (bench/obsidian-heavy.ts; 100k: its own runner). */
	obsidianHeavy: ObsidianHeavyFigures;
}

function kib(bytes: number): string {
	return `${(bytes / 1024).toFixed(1)} KiB`;
}

function mib(bytes: number): string {
	return `${(bytes / 2 ** 20).toFixed(1)}`;
}

function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] ?? Number.NaN)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** "median (min–max)" in MiB of one field over the repetitions. */
function spreadMiB(values: readonly number[]): string {
	return `${mib(median(values))} (${mib(Math.min(...values))}–${mib(Math.max(...values))}) MiB`;
}

function vaultRows(vault: VaultScale): Row[] {
	const notes = `${vault.notes / 1000}k notes`;
	const list = vault.resourcesListFirstPage;
	const diagnostics = vault.getDiagnosticsVault;
	const withinTarget = vault.notes === 10_000 ? diagnostics.warm.median <= TARGETS.diagnosticsVaultMs : undefined;
	return [
		{
			figure: `resources/list first page (${list.resources}), ${notes}, headless host: warm median / max (ms); first call`,
			bridge: `${ms(list.warm)}; ${formatMs(list.coldMs)}`,
			raw: "—",
			ratio: "—",
			target: "—",
		},
		{
			figure: `getDiagnostics {} (${diagnostics.notesWithProblems} notes with problems), ${notes}, headless host: warm median / max (ms); first call`,
			bridge: `${ms(diagnostics.warm)}; ${formatMs(diagnostics.coldMs)}`,
			raw: "—",
			ratio: "—",
			target: withinTarget === undefined ? "—" : `≤ ${TARGETS.diagnosticsVaultMs} ms (warm median)`,
			met: withinTarget,
		},
	];
}

/**
 * A tools/call round trip without the tool's own work: the host's extra CPU per call of this tool over a ping
 * (measured in the host process, 16 in flight) is the tool's work plus the tools/call dispatch, and is taken off the
 * bridge's median. The in-process tight-loop time of the tool is shown beside it (warm caches: a lower bound).
 */
function toolOverheadRow(
	name: string,
	figures: ToolCallFigures,
	toolCpu: HostCpu,
	pingCpu: HostCpu,
	note: string | undefined,
): Row {
	const figure = `${name} minus the tool's own work (the host's extra CPU per call over a ping, from /proc; in process, tight loop: ${formatMs(figures.work.median)} ms)`;
	if (toolCpu.bridge === undefined || pingCpu.bridge === undefined) {
		return {
			figure,
			bridge: "not measured (no /proc)",
			raw: formatMs(figures.comparison.raw.median),
			ratio: "—",
			target: `≤ ${times(TARGETS.toolOverheadRatio)}`,
		};
	}
	const work = Math.max(0, toolCpu.bridge - pingCpu.bridge) / 1000;
	const withoutWork = figures.comparison.bridge.median - work;
	const ratio = withoutWork / figures.comparison.raw.median;
	return {
		figure,
		bridge: `${formatMs(withoutWork)} (work ${formatMs(work)})`,
		raw: formatMs(figures.comparison.raw.median),
		ratio: times(ratio),
		target: `≤ ${times(TARGETS.toolOverheadRatio)}`,
		met: ratio <= TARGETS.toolOverheadRatio,
		note,
	};
}

/** Server CPU per call or push, from /proc: what each side's own code costs, whatever else runs on the machine. */
function hostCpuRows(cpu: HostCpuFigures): Row[] {
	const row = (figure: string, pair: HostCpu): Row[] =>
		pair.bridge === undefined || pair.raw === undefined
			? []
			: [
					{
						figure,
						bridge: pair.bridge.toFixed(1),
						raw: pair.raw.toFixed(1),
						ratio: times(pair.bridge / pair.raw),
						target: "—",
					},
				];
	return [
		...row("server CPU per ping, 16 in flight on one connection (µs, user + system from /proc)", cpu.ping),
		...row("server CPU per tools/call getWorkspaceFolders, same (µs)", cpu.getWorkspaceFolders),
		...row("server CPU per tools/call getDiagnostics {uri}, same (µs)", cpu.getDiagnosticsNote),
		...row(
			"server CPU per files/read of the 1 MiB note, 16 in flight (µs; the floor sends its canned answer)",
			cpu.filesRead1MiB,
		),
		...row(
			"server CPU per selection push: a burst of headless `select` lines (the editor stand-in uses the note's text it holds while the vault's watcher reports no change) vs the floor's `push` lines (µs)",
			cpu.selectionPush,
		),
	];
}

function memoryRows(memory: LoadMemory): Row[] {
	const of = (side: "bridge" | "raw", field: keyof ProcessMemory): number[] =>
		memory.repetitions.map((repetition) => repetition[side][field]);
	const row = (figure: string, field: keyof ProcessMemory): Row => {
		const ratios = memory.repetitions.map((repetition) => repetition.bridge[field] / repetition.raw[field]);
		return {
			figure,
			bridge: spreadMiB(of("bridge", field)),
			raw: spreadMiB(of("raw", field)),
			ratio: times(median(ratios)),
			target: "—",
		};
	};
	const runs = memory.repetitions.length;
	return [
		row(
			`server RSS at start (after one client's initialize), before the load: median (min–max) of ${runs} fresh processes`,
			"startRss",
		),
		row(
			`server peak RSS (VmHWM) after the throughput run, ${memory.clients} clients: median (min–max) of ${runs}`,
			"peakRss",
		),
		row(`server RSS right after the throughput run: median (min–max) of ${runs}`, "rssAfterRun"),
		row(
			`server RSS after the clients closed and ${memory.pauseMs / 1000} s idle: median (min–max) of ${runs}`,
			"rssAfterPause",
		),
		row(`server RSS after that and a forced full GC: median (min–max) of ${runs}`, "rssAfterGc"),
		row(`server JS heap in use after the forced GC: median (min–max) of ${runs}`, "heapUsedAfterGc"),
	];
}

/** Server CPU per request: what the bridge's own code costs, whatever else runs on the machine. */
function cpuRows(throughput: Throughput): Row[] {
	const { bridgeCpuUsPerRequest: bridge, rawCpuUsPerRequest: raw } = throughput;
	if (bridge === undefined || raw === undefined) return [];
	return [
		{
			figure: "server CPU time (user + system) per ping during the throughput rounds (µs, from /proc)",
			bridge: bridge.toFixed(1),
			raw: raw.toFixed(1),
			ratio: times(bridge / raw),
			target: "—",
		},
	];
}

/** Journal on ("bridge" column) against journal off ("raw" column): two headless hosts, each in its own process. */
function journalRows(journal: JournalCostFigures): Row[] {
	return [
		{
			...comparisonRow(
				"journal cost: vaultTools/call read_note (the relay's call) round trip, host with a journal vs without",
				journal.vaultToolCall,
				JOURNAL_MAX_RATIO,
			),
			note: MISSED_NOTES.journal,
		},
		{
			...comparisonRow(
				"journal cost: tools/call getDiagnostics {uri} round trip, host with a journal vs without",
				journal.ideToolCall,
				JOURNAL_MAX_RATIO,
			),
			note: MISSED_NOTES.journal,
		},
	];
}

function rows(figures: Figures): Row[] {
	const { wire, pluginLoad } = figures;
	const throughput = wire.throughput;
	const cpu =
		throughput.bridgeCpuUsPerRequest === undefined || throughput.rawCpuUsPerRequest === undefined
			? " Server CPU per ping: not measured (no /proc)."
			: ` Server CPU per ping in this run: bridge ${throughput.bridgeCpuUsPerRequest.toFixed(1)} µs, floor ${throughput.rawCpuUsPerRequest.toFixed(1)} µs (${times(throughput.bridgeCpuUsPerRequest / throughput.rawCpuUsPerRequest)}).`;
	const ping = comparisonRow("ping round trip", wire.ping, TARGETS.pingRatio);
	const read = comparisonRow(
		"files/read of a 1 MiB note (the floor sends the same answer, canned)",
		wire.filesRead1MiB,
		TARGETS.readRatio,
	);
	const selection = comparisonRow(
		"editor event → selection_changed at the client (headless `select` on stdin vs the floor pushing the same bytes on a stdin line; debounce excluded: `select` is a whole gesture and flushes at once)",
		wire.selectionChanged,
		TARGETS.selectionRatio,
	);
	return [
		{ ...ping, note: MISSED_NOTES.ping + cpu },
		comparisonRow(
			"tools/call getWorkspaceFolders round trip (floor: same answer, canned)",
			wire.getWorkspaceFolders.comparison,
		),
		toolOverheadRow(
			"tools/call getWorkspaceFolders",
			wire.getWorkspaceFolders,
			wire.hostCpu.getWorkspaceFolders,
			wire.hostCpu.ping,
			MISSED_NOTES.trivialToolOverhead,
		),
		comparisonRow(
			"tools/call getDiagnostics {uri} round trip (floor: same answer, canned)",
			wire.getDiagnosticsNote.comparison,
		),
		toolOverheadRow(
			"tools/call getDiagnostics {uri}",
			wire.getDiagnosticsNote,
			wire.hostCpu.getDiagnosticsNote,
			wire.hostCpu.ping,
			MISSED_NOTES.toolOverhead,
		),
		{
			figure: `throughput, ${throughput.clients} clients × ${throughput.window} pipelined pings (requests/s, median of ${throughput.rounds} alternating rounds)`,
			bridge: String(throughput.bridgePerSecond),
			raw: String(throughput.rawPerSecond),
			ratio: times(throughput.ratio),
			target: `≥ ${times(TARGETS.throughputRatio)}`,
			met: throughput.ratio >= TARGETS.throughputRatio,
			note: MISSED_NOTES.throughput + cpu,
		},
		...cpuRows(throughput),
		...hostCpuRows(wire.hostCpu),
		{ ...read, note: MISSED_NOTES.read },
		{ ...selection, note: MISSED_NOTES.selection },
		comparisonRow(
			"tag → at_mentioned at the client (headless `tag` on stdin vs the floor's canned push)",
			wire.atMentioned,
		),
		...journalRows(figures.journal),
		...memoryRows(figures.memory),
		...figures.vaults.flatMap(vaultRows),
		...figures.inlineEditRows,
		...figures.obsidianDiagnostics.map((row): Row => ({
			figure: `${row.name} (${row.note})`,
			bridge: `${row.value} ${row.unit}`,
			raw: "—",
			ratio: "—",
			target: "—",
		})),
		...figures.obsidianHeavy.rows.map((row): Row => ({
			figure: `Obsidian side: ${row.name} (through the plugin's HTTP endpoint, the fake metadata cache; ${row.note})`,
			bridge: `${row.value} ${row.unit}`,
			raw: "—",
			ratio: "—",
			target: row.budget === undefined ? "—" : `≤ ${row.budget} ${row.unit}`,
			...(row.budget === undefined ? {} : { met: row.value <= row.budget }),
			...(row.budget === undefined || row.value <= row.budget ? {} : { note: row.missed ?? "" }),
		})),
		...pluginLoadRows(pluginLoad, figures.pluginLoadComparison, figures.pluginLoadComparison.loadAverage),
		{
			figure: "main.js size (production build)",
			bridge: `${figures.mainJsBytes} bytes (${kib(figures.mainJsBytes)})`,
			raw: "—",
			ratio: "—",
			target: `budget ${kib(TARGETS.mainJsBytes)}`,
			met: figures.mainJsBytes <= TARGETS.mainJsBytes,
			note: MISSED_NOTES.size,
		},
	];
}

function step<T>(name: string, run: () => Promise<T>): Promise<T> {
	process.stderr.write(`bench: ${name}…\n`);
	return run();
}

interface Options {
	quick: boolean;
	profileDir?: string;
	/** Off with --no-jit-warm-up: the round-trip rows as measured before the warm-up existed. */
	jitWarmUp: boolean;
}

function readOptions(argv: readonly string[]): Options {
	const options: Options = { quick: argv.includes("--quick"), jitWarmUp: !argv.includes("--no-jit-warm-up") };
	const profileAt = argv.indexOf("--profile");
	if (profileAt >= 0) {
		const dir = argv[profileAt + 1];
		if (!dir) throw new Error("--profile needs a folder");
		options.profileDir = resolve(dir);
	}
	return options;
}

async function runBenchmarks(options: Options): Promise<void> {
	const watchdog = setTimeout(() => {
		process.stderr.write(`bench: still running after ${WATCHDOG_MS / 60_000} minutes; stopping\n`);
		process.exit(1);
	}, WATCHDOG_MS);
	watchdog.unref();
	const info = machine();
	const scale = options.quick ? 0.2 : 1;
	const mainJsBytes = statSync("main.js").size;
	const profileFlags = (name: string): string[] =>
		options.profileDir
			? ["--cpu-prof", "--cpu-prof-dir", options.profileDir, "--cpu-prof-name", `${name}.cpuprofile`]
			: [];
	const wire = await step("round trips, pushes and throughput (headless host and floor in their own processes)", () =>
		measureWire({
			scale,
			bridgeNodeFlags: profileFlags("bridge"),
			rawNodeFlags: profileFlags("floor"),
			jitWarmUp: options.jitWarmUp,
		}),
	);
	const journal = await step(
		"the activity journal's cost (a host with and one without a journal, in their own processes)",
		() => measureJournalCost({ scale, jitWarmUp: options.jitWarmUp }),
	);
	const memory = await step("memory under load (fresh pairs of processes)", () =>
		measureLoadMemory(options.quick ? 2 : MEMORY_REPETITIONS, options.quick ? 300 : 1000),
	);
	const vaults = [
		await step("1k-note vault", () => measureVaultScale(1000, options.quick ? 5 : 20)),
		await step("10k-note vault", () => measureVaultScale(10_000, options.quick ? 5 : 20)),
	];
	// Each sample a fresh light process (bench/plugin-load-host.ts), not a child of this loaded one: the figure a user feels.
	const pluginLoadComparison = await step(
		`plugin load, this build vs ${PLUGIN_LOAD_BASELINE_COMMIT.slice(0, 10)} in turns (light hosts over the obsidian stub)`,
		async () => {
			const baseline = { name: `baseline ${PLUGIN_LOAD_BASELINE_COMMIT.slice(0, 10)}`, mainJs: baselineMainJs() };
			const loadAtStart = loadavg()[0] ?? 0;
			const comparison = await comparePluginLoad(
				{ name: "current", mainJs: resolve("main.js") },
				baseline,
				options.quick ? 5 : 40,
			);
			return { ...comparison, loadAverage: Math.max(loadAtStart, loadavg()[0] ?? 0) };
		},
	);
	const pluginLoad = await step("plugin start-up until listening (light hosts over the obsidian stub)", () =>
		measurePluginLoad(options.quick ? 3 : 10),
	);
	// Loaded only here: it runs over the obsidian stub, which the rest of the run does not need.
	const obsidianDiagnostics = await step(
		"Obsidian diagnostics source, 10k notes (over the obsidian stub)",
		async () => (await import("./obsidian-diagnostics")).runObsidianDiagnosticsBench(),
	);
	// Loaded only here, like the diagnostics above: it runs the editor over the obsidian stub in jsdom.
	const inlineModule = await import("./inline-edit-streaming");
	const inlineEdit = await step("inline edit streaming into the editor (a real CodeMirror editor in jsdom)", () =>
		inlineModule.measureInlineEditStreaming(options.quick ? 2 : 5),
	);
	const inlineEditRows = inlineEdit.rows.map((row): Row => ({
		figure: inlineModule.streamingFigure(row, inlineEdit),
		bridge: inlineModule.cpuSpread(row),
		raw: "—",
		ratio: "—",
		target: `under ${inlineModule.INLINE_STREAMING_GOAL_MS} ms (p95)`,
		met: inlineModule.meetsStreamingGoal(row),
		note: MISSED_NOTES.inlineEditStreaming,
	}));
	const obsidianHeavy = await step(
		"vault tools through the plugin, 10k notes (the Obsidian stand-in, a process of its own)",
		() => measureObsidianHeavy(options.quick ? 2000 : 10_000),
	);
	const figures: Figures = {
		wire,
		vaults,
		pluginLoad,
		pluginLoadComparison,
		memory,
		mainJsBytes,
		obsidianDiagnostics,
		journal,
		inlineEdit,
		inlineEditRows,
		obsidianHeavy,
	};
	const table = rows(figures);
	const warm = wire.warmUp;
	const warmUp = warm
		? `round trips timed after ${warm.rounds} warm-up rounds (${warm.steady ? "the host's compiler threads idle in the last" : "the host's compiler threads still busy in the last"})`
		: "round trips timed without a warm-up (--no-jit-warm-up)";
	process.stdout.write(
		`\n${describeMachine(info)}; ${placement()}; ${warmUp}\n\n${markdownTable(table)}\n\n${missedNotes(table)}\n`,
	);
	if (options.quick || options.profileDir) {
		process.stdout.write("\nNot written to bench/results.json (a --quick or --profile run)\n");
		return;
	}
	// The figures other runners keep in the file (bench:vault-tools-heavy) stay.
	const others = otherRunnersResults();
	writeFileSync(
		join("bench", "results.json"),
		`${JSON.stringify({ machine: info, placement: placement(), jitWarmUp: options.jitWarmUp, targets: TARGETS, figures, table, ...others }, null, 1)}\n`,
	);
	process.stdout.write("\nWrote bench/results.json\n");
}

function main(): Promise<void> {
	const [role, argument = ""] = process.argv.slice(2);
	if (role === OBSIDIAN_HEAVY_ROLE) return obsidianHeavyChild(argument);
	if (role === OBSIDIAN_HEAVY_CLIENT_ROLE) return obsidianHeavyClient(argument);
	return runBenchmarks(readOptions(process.argv.slice(2)));
}

main().catch((error: unknown) => {
	process.stderr.write(`bench failed: ${errorStack(error)}\n`);
	process.exit(1);
});
