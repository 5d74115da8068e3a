import { readFileSync } from "node:fs";
import type { InterleavedComparison } from "./interleaved";
import { JOURNAL_MAX_RATIO, measureJournalCost } from "./journal-cost";
import { measureJournalWork } from "./journal-work";
import { median, round } from "./stats";

/**
 * The journal's cost alone (`npm run bench:journal [runs]`): the two "journal cost" rows of `npm run bench`, run
 * `runs` times (default 3) on fresh hosts, each run's ratios with their spread, the load, and the arms' CPU time
 * per call. Then the journal's own CPU per call in this process (`journal-work.ts`): the round-trip rows stay under
 * the journal's bound, so they never see a compaction; this figure counts it. Writes nothing (`npm run bench`
 * writes bench/results.json). `--profile DIR`: every host runs under `node --cpu-prof` into DIR. `--null`: both
 * arms without a journal, to see what the measurement reads when there is nothing to find (it should be 1.00 ± the
 * spread). `--no-work`: skip the in-process figure.
 */
async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const profileAt = args.indexOf("--profile");
	const profileDir = profileAt >= 0 ? args[profileAt + 1] : undefined;
	const nodeFlags = profileDir !== undefined ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
	const nullCheck = args.includes("--null");
	const runs = Math.max(1, Number(args.find((arg) => /^\d+$/.test(arg)) ?? "3"));
	const vault: number[] = [];
	const ide: number[] = [];
	const cpu: number[] = [];
	for (let run = 1; run <= runs; run++) {
		const loadBefore = loadAverage();
		const figures = await measureJournalCost({ nodeFlags, nullCheck });
		vault.push(figures.vaultToolCall.medianRatio);
		ide.push(figures.ideToolCall.medianRatio);
		const perCall = figures.cpuPerCall;
		if (perCall) cpu.push(round(perCall.bridge / perCall.raw, 3));
		const cpuLine = perCall ? `; CPU per call ${perCall.raw} µs without, ${perCall.bridge} µs with` : "";
		process.stdout.write(
			`run ${run} (load ${loadBefore} → ${loadAverage()}${nullCheck ? ", null check: no journal in either arm" : ""}): ` +
				`${line("vaultTools/call read_note", figures.vaultToolCall)}; ${line("tools/call getDiagnostics {uri}", figures.ideToolCall)}${cpuLine}\n`,
		);
	}
	const cpuMedian = cpu.length > 0 ? `, CPU per call ${round(median(cpu), 3)}×` : "";
	const met = (ratios: readonly number[]): string =>
		ratios.every((ratio) => ratio <= JOURNAL_MAX_RATIO) ? "met" : "missed";
	process.stdout.write(
		`${runs} runs: vaultTools/call read_note ${vault.join(", ")} (median ${round(median(vault), 3)}×, every run ≤ ${JOURNAL_MAX_RATIO}×: ${met(vault)}), ` +
			`tools/call getDiagnostics {uri} ${ide.join(", ")} (median ${round(median(ide), 3)}×, ${met(ide)})${cpuMedian}\n`,
	);
	if (args.includes("--no-work")) return;
	const own = await measureJournalWork();
	process.stdout.write(
		`the journal's own work in one process: ${own.withCompactions} µs per call with its compactions, ${own.perCall} µs without (load ${loadAverage()})\n`,
	);
}

/** One row: the ratio of the medians of per-batch means, its spread, and the per-call medians. */
function line(name: string, comparison: InterleavedComparison): string {
	const { batchMeans, quarters, pairs } = comparison;
	return (
		`${name} ${comparison.medianRatio}× (batch means ${batchMeans.raw} → ${batchMeans.bridge} ms; ` +
		`quarters ${Math.min(...quarters)}–${Math.max(...quarters)}×, pairs ${pairs.join(" / ")}×; ` +
		`ratio of means ${comparison.meanRatio}×; per-call medians ${round(comparison.raw.median, 3)} → ${round(comparison.bridge.median, 3)} ms, p99 ${comparison.p99Ratio}×)`
	);
}

function loadAverage(): string {
	try {
		return readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
	} catch {
		return "?";
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`journal cost failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
