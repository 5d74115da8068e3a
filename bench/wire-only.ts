/**
 * `node scripts/run-bench.mjs bench/wire-only.ts [scale]`: only the wire step of `npm run bench` (round trips, pushes,
 * server CPU per call, throughput), printed as a short summary; for checking one change quickly. Writes nothing.
 */
import { loadavg } from "node:os";
import { measureWire } from "./wire";
import type { Comparison } from "./alternation";

function line(name: string, comparison: Comparison): string {
	return `${name}: bridge ${comparison.bridge.median.toFixed(4)} ms, floor ${comparison.raw.median.toFixed(4)} ms, ${comparison.medianRatio.toFixed(2)}×`;
}

/** The bench's "getDiagnostics {uri} minus the tool's own work" ratio (bench.ts). */
function minusWork(wire: Awaited<ReturnType<typeof measureWire>>): string {
	const { bridge: tool } = wire.hostCpu.getDiagnosticsNote;
	const { bridge: ping } = wire.hostCpu.ping;
	if (tool === undefined || ping === undefined) return "?";
	const work = Math.max(0, tool - ping) / 1000;
	const comparison = wire.getDiagnosticsNote.comparison;
	return `${((comparison.bridge.median - work) / comparison.raw.median).toFixed(2)}×`;
}

async function main(): Promise<void> {
	const scale = Number(process.argv[2] ?? "0.3");
	const load = loadavg()[0]?.toFixed(2) ?? "?";
	const wire = await measureWire({ scale, jitWarmUp: !process.argv.includes("--no-jit-warm-up") });
	const cpu = wire.hostCpu;
	const pair = (name: string, value: { bridge: number | undefined; raw: number | undefined }): string =>
		`${name}: bridge ${value.bridge ?? "?"} µs, floor ${value.raw ?? "?"} µs`;
	process.stdout.write(
		[
			`load average at start ${load}, at end ${loadavg()[0]?.toFixed(2) ?? "?"}, scale ${scale}, warm-up ${wire.warmUp ? `${wire.warmUp.rounds} rounds, ${wire.warmUp.steady ? "steady" : "not steady"}` : "off"}`,
			`diagnostics minus work: ${minusWork(wire)}`,
			line("ping", wire.ping),
			line("tools/call getWorkspaceFolders", wire.getWorkspaceFolders.comparison),
			line("tools/call getDiagnostics {uri}", wire.getDiagnosticsNote.comparison),
			line("files/read 1 MiB", wire.filesRead1MiB),
			line("selection_changed", wire.selectionChanged),
			line("at_mentioned", wire.atMentioned),
			`throughput ratio ${wire.throughput.ratio.toFixed(2)}`,
			pair("cpu/ping", cpu.ping),
			pair("cpu/getWorkspaceFolders", cpu.getWorkspaceFolders),
			pair("cpu/getDiagnostics", cpu.getDiagnosticsNote),
			pair("cpu/files/read 1 MiB", cpu.filesRead1MiB),
			pair("cpu/selection push", cpu.selectionPush),
		].join("\n") + "\n",
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`wire-only failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
