/**
 * `npm run bench`: the bridge against a raw `ws` floor on the same loopback, plus vault-scale, plugin start-up,
 * memory and bundle size figures. Prints a Markdown table and writes bench/results.json.
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MEMORY_ROLE, measureIdleMemory, memoryChild, type IdleMemory } from "./memory";
import { PLUGIN_LOAD_ROLE, measurePluginLoad, pluginLoadChild, type PluginLoad } from "./plugin-load";
import { comparisonRow, formatMs, machine, markdownTable, ms, type Row } from "./report";
import { measureVaultScale, type VaultScale } from "./vault-scale";
import { measureWire, type WireFigures } from "./wire";

const TARGETS = {
	roundTripRatio: 1.1,
	throughputRatio: 0.9,
	readRatio: 1.2,
	diagnosticsVaultMs: 100,
	onloadMs: 10,
	mainJsBytes: 120 * 1024,
};
/** The whole run stops by itself past this, whatever hangs. */
const WATCHDOG_MS = 5 * 60_000;

interface Figures {
	wire: WireFigures;
	vaults: VaultScale[];
	pluginLoad: PluginLoad;
	idleMemory: IdleMemory;
	mainJsBytes: number;
}

function kib(bytes: number): string {
	return `${(bytes / 1024).toFixed(1)} KiB`;
}

function vaultRows(vault: VaultScale): Row[] {
	const notes = `${vault.notes / 1000}k notes`;
	const list = vault.resourcesListFirstPage;
	const diagnostics = vault.getDiagnosticsVault;
	const withinTarget = vault.notes === 10_000 ? diagnostics.warm.median <= TARGETS.diagnosticsVaultMs : undefined;
	return [
		{ figure: `resources/list first page (${list.resources}), ${notes}: warm median / p99 (ms); first call`, bridge: `${ms(list.warm)}; ${formatMs(list.coldMs)}`, raw: "—", ratio: "—", target: "—" },
		{
			figure: `getDiagnostics {} (${diagnostics.notesWithProblems} notes with problems), ${notes}: warm median / p99 (ms); first call`,
			bridge: `${ms(diagnostics.warm)}; ${formatMs(diagnostics.coldMs)}`,
			raw: "—",
			ratio: "—",
			target: withinTarget === undefined ? "—" : `≤ ${TARGETS.diagnosticsVaultMs} ms (warm median)`,
			met: withinTarget,
		},
	];
}

/** The tools/call round trip without the tool's own work (measured in process): the protocol's share. */
function toolOverheadRow(wire: WireFigures): Row {
	const work = wire.getDiagnosticsNoteToolWork.median;
	const withoutWork = wire.getDiagnosticsNote.bridge.median - work;
	const ratio = withoutWork / wire.getDiagnosticsNote.raw.median;
	return {
		figure: "same, minus the tool's own work (getDiagnostics called in process: median)",
		bridge: `${formatMs(withoutWork)} (work ${formatMs(work)})`,
		raw: formatMs(wire.getDiagnosticsNote.raw.median),
		ratio: `${ratio.toFixed(2)}×`,
		target: `≤ ${TARGETS.roundTripRatio.toFixed(2)}×`,
		met: ratio <= TARGETS.roundTripRatio,
	};
}

function rows(figures: Figures): Row[] {
	const { wire, pluginLoad, idleMemory } = figures;
	const throughput = wire.throughput;
	const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
	return [
		comparisonRow("ping round trip: median / p99 (ms)", wire.ping, TARGETS.roundTripRatio),
		comparisonRow("tools/call getDiagnostics {uri} round trip (raw ws sends the same answer, canned): median / p99 (ms)", wire.getDiagnosticsNote, TARGETS.roundTripRatio),
		toolOverheadRow(wire),
		{
			figure: `throughput, ${throughput.clients} clients × ${throughput.window} pipelined pings (requests/s)`,
			bridge: String(throughput.bridgePerSecond),
			raw: String(throughput.rawPerSecond),
			ratio: `${throughput.ratio.toFixed(2)}×`,
			target: `≥ ${TARGETS.throughputRatio.toFixed(2)}×`,
			met: throughput.ratio >= TARGETS.throughputRatio,
		},
		comparisonRow("files/read of a 1 MiB note vs raw ws echoing it: median / p99 (ms)", wire.filesRead1MiBEcho, TARGETS.readRatio),
		comparisonRow("files/read of a 1 MiB note vs raw ws sending it canned: median / p99 (ms)", wire.filesRead1MiB),
		comparisonRow("editor event → selection_changed at the client: median / p99 (ms)", wire.selectionChanged),
		comparisonRow("tag → at_mentioned at the client: median / p99 (ms)", wire.atMentioned),
		...figures.vaults.flatMap(vaultRows),
		{
			figure: `plugin onload() in a fresh process, ${pluginLoad.runs} runs: median / p99 (ms)`,
			bridge: ms(pluginLoad.onloadMs),
			raw: "—",
			ratio: "—",
			target: `≤ ${TARGETS.onloadMs} ms (median)`,
			met: pluginLoad.onloadMs.median <= TARGETS.onloadMs,
		},
		{ figure: "onload → layout ready → listening: median / p99 (ms)", bridge: ms(pluginLoad.onloadToListeningMs), raw: "—", ratio: "—", target: "—" },
		{ figure: "of which layout ready → listening: median / p99 (ms)", bridge: ms(pluginLoad.layoutReadyToListeningMs), raw: "—", ratio: "—", target: "—" },
		{ figure: "evaluating main.js (require): median / p99 (ms)", bridge: ms(pluginLoad.requireMs), raw: "—", ratio: "—", target: "—" },
		{
			figure: `server memory growth, ${idleMemory.connections} idle connections: RSS / heap`,
			bridge: `${mib(idleMemory.bridge.rss)} / ${mib(idleMemory.bridge.heapUsed)}`,
			raw: `${mib(idleMemory.raw.rss)} / ${mib(idleMemory.raw.heapUsed)}`,
			ratio: "—",
			target: "—",
		},
		{
			figure: "main.js size (production build)",
			bridge: `${figures.mainJsBytes} bytes (${kib(figures.mainJsBytes)})`,
			raw: "—",
			ratio: "—",
			target: `≤ ${kib(TARGETS.mainJsBytes)}`,
			met: figures.mainJsBytes <= TARGETS.mainJsBytes,
		},
	];
}

function step<T>(name: string, run: () => Promise<T>): Promise<T> {
	process.stderr.write(`bench: ${name}…\n`);
	return run();
}

async function runBenchmarks(): Promise<void> {
	const watchdog = setTimeout(() => {
		process.stderr.write(`bench: still running after ${WATCHDOG_MS / 60_000} minutes; stopping\n`);
		process.exit(1);
	}, WATCHDOG_MS);
	watchdog.unref();
	const mainJsBytes = statSync("main.js").size;
	const wire = await step("round trips, notifications and throughput", measureWire);
	const vaults = [await step("1k-note vault", () => measureVaultScale(1000, 20)), await step("10k-note vault", () => measureVaultScale(10_000, 20))];
	const pluginLoad = await step("plugin start-up", () => measurePluginLoad(10));
	const idleMemory = await step("idle memory", () => measureIdleMemory(10));
	const figures: Figures = { wire, vaults, pluginLoad, idleMemory, mainJsBytes };
	const table = rows(figures);
	const info = machine();
	process.stdout.write(`\n${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB, Node ${info.node}, ${info.platform}, ${info.date}\n\n${markdownTable(table)}\n`);
	writeFileSync(join("bench", "results.json"), `${JSON.stringify({ machine: info, targets: TARGETS, figures, table }, null, 1)}\n`);
	process.stdout.write("\nWrote bench/results.json\n");
}

function main(): Promise<void> {
	const [role, argument = ""] = process.argv.slice(2);
	if (role === PLUGIN_LOAD_ROLE) return pluginLoadChild(argument);
	if (role === MEMORY_ROLE) return memoryChild(argument === "raw" ? "raw" : "bridge");
	return runBenchmarks();
}

main().catch((error: unknown) => {
	process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exit(1);
});
