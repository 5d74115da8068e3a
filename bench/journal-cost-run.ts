import { measureJournalCost } from "./journal-cost";
import { measureJournalWork } from "./journal-work";
import { median, round } from "./stats";

/**
 * The journal's cost alone (`npm run bench:journal [runs]`): the two "journal cost" rows of `npm run bench`, run
 * `runs` times (default 3) on fresh hosts, each run's ratios and their medians, and each host's CPU time per call.
 * On a loaded machine one run moves; the median of several says more. After each run, the journal's own CPU per
 * call in this process (`journal-work.ts`): the round-trip rows stay under the journal's bound, so they never see a
 * compaction, and they see the batched write only when a call waits for it; this figure counts both. Writes
 * nothing (`npm run bench` writes bench/results.json). `--profile DIR`: both hosts run under `node --cpu-prof` into
 * DIR (the host without a journal starts first).
 */
async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const profileAt = args.indexOf("--profile");
	const profileDir = profileAt >= 0 ? args[profileAt + 1] : undefined;
	const nodeFlags = profileDir !== undefined ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
	const runs = Math.max(1, Number(args.find((arg) => /^\d+$/.test(arg)) ?? "3"));
	const vault: number[] = [];
	const ide: number[] = [];
	const cpu: number[] = [];
	const work: number[] = [];
	for (let run = 1; run <= runs; run++) {
		const figures = await measureJournalCost(1, nodeFlags);
		const own = await measureJournalWork();
		work.push(own.withCompactions);
		vault.push(figures.vaultToolCall.medianRatio);
		ide.push(figures.ideToolCall.medianRatio);
		const perCall = figures.cpuPerCall;
		if (perCall) cpu.push(round(perCall.bridge / perCall.raw, 3));
		const line = (name: string, c: typeof figures.vaultToolCall): string =>
			`${name}: without ${round(c.raw.median, 3)} ms, with ${round(c.bridge.median, 3)} ms, ratio ${c.medianRatio}× (p99 ${c.p99Ratio}×)`;
		const cpuLine = perCall ? `; server CPU per call ${perCall.raw} µs without, ${perCall.bridge} µs with` : "";
		const share = perCall
			? ` (${round((100 * own.withCompactions) / perCall.raw, 1)} % of the host's CPU per call without a journal)`
			: "";
		process.stdout.write(
			`run ${run}: ${line("vaultTools/call read_note", figures.vaultToolCall)}; ${line("tools/call getDiagnostics {uri}", figures.ideToolCall)}${cpuLine}; the journal's own work in one process ${own.withCompactions} µs per call with its compactions${share}, ${own.perCall} µs without\n`,
		);
	}
	const cpuMedian = cpu.length > 0 ? `, server CPU per call ${median(cpu)}×` : "";
	process.stdout.write(
		`median of ${runs} runs: vaultTools/call read_note ${median(vault)}×, tools/call getDiagnostics {uri} ${median(ide)}×${cpuMedian}, the journal's own work ${median(work)} µs per call\n`,
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`journal cost failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
