/**
 * Benchmark (not a test): the Obsidian diagnostics source (`ObsidianDiagnosticsNotes` + the diagnostics engine, through the
 * getDiagnostics tool) on 10k generated notes, and the longest main-thread slice while it builds every note's metadata
 * at layout ready. Obsidian is not here: the metadata cache is the test suite's fake (tests/__mocks__/obsidian.ts,
 * filled by tests/obsidian/harness/metadata-parser.ts), so the figures measure the bridge's own work over a stand-in,
 * not Obsidian's. Run: npm run bench:obsidian. `npm run bench` calls `runObsidianDiagnosticsBench()`.
 */
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join, relative, sep } from "node:path";
import { DiagnosticsEngine } from "../src/ide/diagnostics/diagnostics-engine";
import { createGetDiagnosticsTool } from "../src/ide/tools/get-diagnostics";
import { VaultPaths } from "../src/vault/vault-paths";
import { obsidianYamlCodec } from "../src/obsidian/notes/obsidian-yaml-codec";
import { ObsidianDiagnosticsNotes, type SourceScheduler } from "../src/obsidian/notes/obsidian-diagnostics-notes";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { createMetadataHarness } from "../tests/obsidian/harness/metadata-vault";
import { round, summarize } from "./stats";
import { benchNotePath, generateLinkedVault } from "./vault-generator";

export interface ObsidianDiagnosticsRow {
	name: string;
	value: number;
	unit: string;
	note: string;
}

const NOTES = 10_000;
const WARM_RUNS = 30;
const SLICE_TARGET_MS = 50;
/** The source's default slice budget (ObsidianDiagnosticsNotesOptions.sliceMs). */
const SLICE_BUDGET_MS = 10;
/** Wall-clock slices include time the OS gave to other processes: the load average says how busy the machine was. */
const STAND_IN = `against the fake metadata cache (a stand-in for Obsidian's), 10k notes, load average ${loadavg()[0]?.toFixed(1) ?? "?"}`;

/** The window's timers, recording how long the main thread ran between two yields. */
class MeasuringScheduler implements SourceScheduler {
	readonly slices: number[] = [];
	private sliceStart = performance.now();
	setTimeout(callback: () => void, ms: number): number {
		return Number(setTimeout(callback, ms));
	}
	clearTimeout(id: number): void {
		clearTimeout(id);
	}
	now(): number {
		return performance.now();
	}
	begin(): void {
		this.sliceStart = performance.now();
	}
	end(): void {
		this.slices.push(performance.now() - this.sliceStart);
	}
	yieldToMain(): Promise<void> {
		this.end();
		return new Promise((resolve) =>
			setTimeout(() => {
				this.begin();
				resolve();
			}, 0),
		);
	}
}

function readVault(root: string): Record<string, string> {
	const files: Record<string, string> = {};
	const walk = (folder: string): void => {
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			const absolute = join(folder, entry.name);
			if (entry.isDirectory()) walk(absolute);
			else files[relative(root, absolute).split(sep).join("/")] = readFileSync(absolute, "utf8");
		}
	};
	walk(root);
	return files;
}

async function timed<T>(action: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = performance.now();
	const value = await action();
	return { ms: performance.now() - start, value };
}

export async function runObsidianDiagnosticsBench(): Promise<ObsidianDiagnosticsRow[]> {
	const folder = makeTempDir("bench-obsidian-diagnostics");
	try {
		generateLinkedVault(folder.path, NOTES);
		const { vault, metadataCache } = createMetadataHarness(readVault(folder.path));
		await metadataCache.parsePending();
		const scheduler = new MeasuringScheduler();
		const source = new ObsidianDiagnosticsNotes({
			vault,
			metadataCache,
			yaml: obsidianYamlCodec,
			scheduler,
			sliceMs: SLICE_BUDGET_MS,
		});
		source.load();
		const engine = new DiagnosticsEngine(source);
		const tool = createGetDiagnosticsTool({ diagnostics: engine, paths: new VaultPaths("/vault") });
		const context = { sessionId: 1, signal: new AbortController().signal };
		const call = (uri?: string): Promise<unknown> => tool.call(uri === undefined ? {} : { uri }, context);

		// The stand-in's own setup garbage is not the source's work: collect it before measuring (run-bench exposes gc).
		(globalThis as { gc?: () => void }).gc?.();
		// Layout ready: the plugin starts the source's refresh, which builds every note's metadata in slices.
		scheduler.begin();
		const refresh = await timed(() => source.refresh());
		scheduler.end();
		const longestSlice = Math.max(...scheduler.slices);
		const sliceMedian = summarize(scheduler.slices).median;
		const slicesOverTarget = scheduler.slices.filter((slice) => slice >= SLICE_TARGET_MS).length;

		const refreshSlices = scheduler.slices.length;
		scheduler.begin();
		const first = await timed(() => call());
		scheduler.end();
		const firstCallSlices = scheduler.slices.slice(refreshSlices);
		const warm: number[] = [];
		for (let run = 0; run < WARM_RUNS; run++) warm.push((await timed(() => call())).ms);
		const notes: number[] = [];
		for (let run = 0; run < WARM_RUNS * 10; run++)
			notes.push((await timed(() => call(`file:///vault/${benchNotePath((run * 7919) % NOTES)}`))).ms);
		source.unload();

		return [
			{
				name: "Obsidian source: longest main-thread slice while building metadata at layout ready",
				value: round(longestSlice, 2),
				unit: "ms",
				note: `${STAND_IN}; target < ${SLICE_TARGET_MS} ms (${longestSlice < SLICE_TARGET_MS ? "met" : "missed"}); ${scheduler.slices.length} slices (budget ${SLICE_BUDGET_MS} ms each), median ${round(sliceMedian, 1)} ms, ${slicesOverTarget} at or over the target (garbage collection pauses land inside slices); ${round(refresh.ms, 1)} ms in all`,
			},
			{
				name: "Obsidian source: getDiagnostics {} first call after layout ready",
				value: round(first.ms, 2),
				unit: "ms",
				note: `${STAND_IN}; the engine runs the rules over every note in ${firstCallSlices.length} slices, the longest ${round(Math.max(...firstCallSlices), 1)} ms`,
			},
			{
				name: "Obsidian source: getDiagnostics {} warm, median",
				value: summarize(warm).median,
				unit: "ms",
				note: `${STAND_IN}; median of ${WARM_RUNS}, max ${round(summarize(warm).max, 2)} ms`,
			},
			{
				name: "Obsidian source: getDiagnostics {uri} warm, median",
				value: summarize(notes).median,
				unit: "ms",
				note: `${STAND_IN}; median of ${notes.length}, includes the disk stat that checks the cache is current`,
			},
		];
	} finally {
		folder.remove();
	}
}

// Run on its own (npm run bench:obsidian passes the flag): print the rows as a table, then as one line of JSON.
if (process.argv.includes("--obsidian-diagnostics")) {
	void runObsidianDiagnosticsBench().then((rows) => {
		for (const row of rows) process.stdout.write(`| ${row.name} | ${row.value} ${row.unit} | ${row.note} |\n`);
		process.stdout.write(`${JSON.stringify(rows)}\n`);
	});
}
