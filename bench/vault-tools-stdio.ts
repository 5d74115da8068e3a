/**
 * Benchmark (not a test): the vault tools as Claude Code reaches them, `claude-code-bridge mcp --vault DIR`
 * (dist/cli.cjs, built first) on stdio, timed from the MCP SDK Client's side, with each server process's memory
 * read from /proc/<pid>/status (VmHWM: the peak resident set; Linux only, elsewhere NaN). Same generated vault as
 * bench/vault-tools.ts (about 3.8 KB a note). Four parts:
 * - the folder fallback (no bridge running): the first search is sent the moment `initialize` is answered, so it
 *   reads the vault itself (the worst case); then warm calls, every page of the read tools' longest answers, and
 *   the server's peak RSS;
 * - first calls: a fresh server per tool, each asked one thing right after `initialize`;
 * - a relaying server: a headless bridge runs (in this process) and the stdio server forwards every call to it;
 * - several sessions: `--sessions K` servers on the same vault at once, no bridge, and their peak RSS together.
 * Run: npm run bench:vault-tools-stdio [-- --notes N] [--vault DIR] [--sessions K] [--skip relay,sessions,first].
 * `--vault DIR` generates the vault into DIR once (a 100k-note vault takes minutes and 400 MB) and reuses it on the
 * next runs; without it the vault is generated into a temp folder and removed. To profile the server:
 * CCB_BENCH_CPU_PROF=DIR (its .cpuprofile lands there; bench/profile-summary.ts sums it), with
 * CCB_BENCH_CLI=<another build of src/cli/main.ts> (an unminified one for names, or an older one to compare).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { WARM_UP_DONE } from "../src/vault-tools/stdio/folder-reading";
import { assembleHeadlessBridge } from "../src/headless/headless-bridge";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { pollUntil } from "../tests/helpers/wait-until";
import { generateLinkedVault } from "./vault-generator";
import { cursorOf, readEveryFile, startServer, type ProcessMemory, type ServerProcess } from "./stdio-server";
import type { Timing } from "./vault-tools";
import { POPULAR, VAULT_TOOLS_TARGETS, addPopularNote, addProse } from "./vault-tools-corpus";

/** Issue 14's memory and latency targets for the stdio server, by vault size. */
const MEMORY_TARGETS = {
	10_000: { peakRssMb: 150, relayPeakRssMb: 70, firstCallMs: 2000, pageMs: undefined, searchP50: undefined },
	100_000: { peakRssMb: 800, relayPeakRssMb: undefined, firstCallMs: 10_000, pageMs: 1000, searchP50: 300 },
} as const;

export interface PagedTiming {
	/** What was paged through. */
	call: string;
	pages: number;
	/** p50 of each page, first page first (ms). */
	pageP50Ms: number[];
	/** The slowest page's p50. */
	worstPageMs: number;
}

export interface StdioVaultToolsBenchmark {
	notes: number;
	vaultMegabytes: number;
	loadAverage: { before: number[]; after: number[] };
	fallback: {
		/** From spawning the server to the answer to `initialize` (Node's start and loading the bundle). */
		readyFromSpawnMs: number;
		/** The first search, sent right after `initialize`: the server reads the vault for it. */
		firstSearchMs: number;
		/** The server's own background read of every note, as it logs it (NaN when it logs none). */
		warmUpMs: number;
		searchRarePhrase: Timing;
		searchCommonWord: Timing;
		searchTag: Timing;
		searchProperty: Timing;
		links200Backlinks: Timing;
		pages: PagedTiming[];
		memory: ProcessMemory;
	};
	/** A fresh server per call, each sent right after `initialize` (ms), and that server's peak RSS. */
	firstCalls?: { call: string; ms: number; peakRssMb: number }[];
	relaying?: { searchCommonWord: Timing; links200Backlinks: Timing; memory: ProcessMemory };
	sessions?: { servers: number; peakRssMb: number[]; totalPeakRssMb: number };
}

function timing(samples: number[]): Timing {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (fraction: number): number =>
		sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
	return { p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), runs: samples.length };
}

function round(ms: number): number {
	return Math.round(ms * 100) / 100;
}

/** Progress on stderr (the table and JSON go to stdout). */
function progress(message: string): void {
	process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function repeat(runs: number, action: () => Promise<unknown>): Promise<Timing> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) {
		const start = performance.now();
		await action();
		samples.push(performance.now() - start);
	}
	return timing(samples);
}

/** Every page of one call (following the cursors), each timed `runs` times once the cursors are known. */
async function everyPage(
	server: ServerProcess,
	name: string,
	args: Record<string, unknown>,
	runs: number,
): Promise<PagedTiming> {
	progress(`every page of ${name} ${JSON.stringify(args)}`);
	const cursors: (string | undefined)[] = [undefined];
	for (
		let answer = await server.call(name, args), cursor = cursorOf(answer);
		cursor !== undefined;
		answer = await server.call(name, { ...args, cursor }), cursor = cursorOf(answer)
	) {
		cursors.push(cursor);
	}
	const pageP50Ms: number[] = [];
	for (const cursor of cursors)
		pageP50Ms.push(
			(await repeat(runs, () => server.call(name, cursor === undefined ? args : { ...args, cursor }))).p50Ms,
		);
	return {
		call: `${name} ${JSON.stringify(args)}`,
		pages: cursors.length,
		pageP50Ms,
		worstPageMs: Math.max(...pageP50Ms),
	};
}

/** The vault in `folder`: generated there the first time (a marker file names its size), reused afterwards. */
function prepareVault(folder: string, count: number): number {
	const marker = join(folder, ".ccb-bench-vault.json");
	if (existsSync(marker)) {
		const made = JSON.parse(readFileSync(marker, "utf8")) as { notes: number; megabytes: number };
		if (made.notes !== count)
			throw new Error(`${folder} holds a ${made.notes}-note bench vault, not ${count}: pass another --vault`);
		readEveryFile(folder);
		return made.megabytes;
	}
	mkdirSync(folder, { recursive: true });
	generateLinkedVault(folder, count);
	const proseBytes = addProse(folder, count);
	addPopularNote(folder, count);
	const megabytes = Math.round((proseBytes + count * 400) / 1e5) / 10;
	// A dot file: the server skips it like any hidden file.
	writeFileSync(marker, JSON.stringify({ notes: count, megabytes }));
	return megabytes;
}

const loadAverage = (): number[] => loadavg().map((value) => Math.round(value * 100) / 100);

export async function benchmarkStdioVaultTools(
	count = 10_000,
	options: { vault?: string; sessions?: number; skip?: string[] } = {},
): Promise<StdioVaultToolsBenchmark> {
	const temp = makeTempDir("bench-vault-tools-stdio");
	const vault = options.vault ? resolve(options.vault) : join(temp.path, "vault");
	const home = join(temp.path, "home");
	mkdirSync(home);
	const skip = new Set(options.skip ?? []);
	const big = count >= 50_000;
	const runs = (small: number): number => (big ? Math.max(3, Math.round(small / 5)) : small);
	try {
		const vaultMegabytes = prepareVault(vault, count);
		const before = loadAverage();
		progress(`vault ready (${vaultMegabytes} MB); the fallback server`);
		// HOME without lock files: no bridge, so the folder answers.
		const server = await startServer(vault, home);
		let fallback: StdioVaultToolsBenchmark["fallback"];
		try {
			const started = performance.now();
			const first = await server.call("search", { query: "quokka marmalade" });
			const firstSearchMs = round(performance.now() - started);
			if (!first.includes("total 3 matches")) throw new Error(`rare phrase: ${first}`);
			progress(`first search ${firstSearchMs} ms`);
			// Warm figures are taken once the server's background read of the vault is over.
			await pollUntil(
				() => (server.stderr().includes(WARM_UP_DONE) ? true : undefined),
				`"${WARM_UP_DONE}" on the server's stderr`,
				{ timeoutMs: 600_000, intervalMs: 50 },
			);
			const warmUp = new RegExp(`${WARM_UP_DONE}: read \\d+ notes in (\\d+) ms`).exec(server.stderr())?.[1];
			progress("warm");
			const links = await server.call("links", { path: POPULAR, direction: "in" });
			if (!links.includes("200 backlinks from 200 notes"))
				throw new Error(`backlinks: ${links.split("\n")[0] ?? ""}`);
			fallback = {
				readyFromSpawnMs: server.readyMs,
				firstSearchMs,
				warmUpMs: Number(warmUp ?? Number.NaN),
				searchRarePhrase: await repeat(runs(50), () => server.call("search", { query: "quokka jumped" })),
				searchCommonWord: await repeat(runs(30), () => server.call("search", { query: "sentences about" })),
				searchTag: await repeat(runs(50), () => server.call("search", { query: "#hub", mode: "tag" })),
				searchProperty: await repeat(runs(50), () =>
					server.call("search", { query: "title: Topic 4711", mode: "property" }),
				),
				links200Backlinks: await repeat(runs(100), () =>
					server.call("links", { path: POPULAR, direction: "in" }),
				),
				pages: [
					await everyPage(server, "links", { path: POPULAR, direction: "in" }, runs(10)),
					await everyPage(server, "search", { query: "quokka" }, runs(10)),
					await everyPage(server, "search", { query: "#hub", mode: "tag" }, runs(10)),
					await everyPage(server, "tags", {}, runs(10)),
					await everyPage(server, "properties", {}, runs(10)),
					await everyPage(server, "read_note", { path: POPULAR }, runs(10)),
					await everyPage(server, "outline", { path: POPULAR }, runs(10)),
					await everyPage(server, "links", { path: "Area 1/Topic 150.md" }, runs(10)),
				],
				memory: { peakRssMb: 0, rssMb: 0 },
			};
			// The common-word search and the last page of a listing answer many matches: timed for a first and a late page.
			const common = await server.call("search", { query: "sentences about", limit: 100 });
			const commonCursor = cursorOf(common);
			fallback.pages.push({
				call: 'search {"query":"sentences about","limit":100}, first and second page',
				pages: 2,
				pageP50Ms: [
					(await repeat(runs(10), () => server.call("search", { query: "sentences about", limit: 100 })))
						.p50Ms,
					(
						await repeat(runs(10), () =>
							server.call("search", { query: "sentences about", limit: 100, cursor: commonCursor }),
						)
					).p50Ms,
				],
				worstPageMs: 0,
			});
			const listing = await server.call("list_notes", { limit: 100 });
			const listingCursor = cursorOf(listing);
			fallback.pages.push({
				call: 'list_notes {"limit":100}, first and second page',
				pages: 2,
				pageP50Ms: [
					(await repeat(runs(10), () => server.call("list_notes", { limit: 100 }))).p50Ms,
					(await repeat(runs(10), () => server.call("list_notes", { limit: 100, cursor: listingCursor })))
						.p50Ms,
				],
				worstPageMs: 0,
			});
			for (const paged of fallback.pages) paged.worstPageMs = Math.max(...paged.pageP50Ms);
			fallback.memory = server.memory();
		} finally {
			await server.close();
		}

		const result: StdioVaultToolsBenchmark = {
			notes: count,
			vaultMegabytes,
			loadAverage: { before, after: [] },
			fallback,
		};
		if (!skip.has("first")) {
			progress("first calls");
			result.firstCalls = [];
			const probes: [string, Record<string, unknown>][] = [
				["links", { path: POPULAR, direction: "in" }],
				["tags", {}],
				["properties", {}],
				["search", { query: "#hub", mode: "tag" }],
				["list_notes", {}],
				["read_note", { path: POPULAR }],
			];
			for (const [name, args] of probes) {
				const fresh = await startServer(vault, home);
				try {
					const started = performance.now();
					await fresh.call(name, args);
					result.firstCalls.push({
						call: `${name} ${JSON.stringify(args)}`,
						ms: round(performance.now() - started),
						peakRssMb: fresh.memory().peakRssMb,
					});
				} finally {
					await fresh.close();
				}
			}
		}
		progress("relaying server");
		if (!skip.has("relay")) result.relaying = await relayingServer(vault, join(temp.path, "relay-home"), runs);
		progress("several sessions");
		if (!skip.has("sessions")) result.sessions = await severalSessions(vault, home, options.sessions ?? 3);
		result.loadAverage.after = loadAverage();
		return result;
	} finally {
		temp.remove();
		if (options.vault === undefined) rmSync(vault, { recursive: true, force: true });
	}
}

/** A stdio server while the vault's bridge runs (the headless host, in this process): it holds no index of its own. */
async function relayingServer(
	vault: string,
	home: string,
	runs: (small: number) => number,
): Promise<NonNullable<StdioVaultToolsBenchmark["relaying"]>> {
	mkdirSync(home);
	const headless = assembleHeadlessBridge({
		vaultPath: vault,
		ideName: "bench",
		homeDir: home,
		port: 0,
		privacyRules: () => ({ folders: [], tags: [] }),
		log: () => undefined,
		reviewVaultToolWrites: () => false,
	});
	const status = await headless.bridge.host.start();
	if (status.state !== "listening") throw new Error(`the bridge did not start: ${status.error ?? status.state}`);
	const server = await startServer(vault, home);
	try {
		const links = await server.call("links", { path: POPULAR, direction: "in" });
		if (!links.includes("200 backlinks from 200 notes"))
			throw new Error(`relayed backlinks: ${links.split("\n")[0] ?? ""}`);
		return {
			searchCommonWord: await repeat(runs(30), () => server.call("search", { query: "sentences about" })),
			links200Backlinks: await repeat(runs(100), () => server.call("links", { path: POPULAR, direction: "in" })),
			memory: server.memory(),
		};
	} finally {
		await server.close();
		headless.dispose();
		await headless.bridge.host.stop();
	}
}

/** `count` servers on one vault at once (Claude Code sessions with Obsidian closed), each searching and listing backlinks. */
async function severalSessions(
	vault: string,
	home: string,
	count: number,
): Promise<NonNullable<StdioVaultToolsBenchmark["sessions"]>> {
	const servers: ServerProcess[] = [];
	try {
		for (let index = 0; index < count; index++) servers.push(await startServer(vault, home));
		await Promise.all(servers.map((server) => server.call("search", { query: "quokka marmalade" })));
		await Promise.all(servers.map((server) => server.call("links", { path: POPULAR, direction: "in" })));
		await Promise.all(servers.map((server) => server.call("search", { query: "sentences about" })));
		const peakRssMb = servers.map((server) => server.memory().peakRssMb);
		return {
			servers: count,
			peakRssMb,
			totalPeakRssMb: Math.round(peakRssMb.reduce((sum, value) => sum + value, 0) * 10) / 10,
		};
	} finally {
		await Promise.all(servers.map((server) => server.close()));
	}
}

export function stdioMarkdownTable(result: StdioVaultToolsBenchmark): string {
	const size = result.notes >= 100_000 ? 100_000 : 10_000;
	const memory = MEMORY_TARGETS[size];
	const targets = VAULT_TOOLS_TARGETS;
	const row = (measure: string, figure: string, target: string, met: boolean | undefined): string =>
		`| ${measure} | ${figure} | ${target} | ${met === undefined ? "—" : met ? "yes" : "**no**"} |`;
	const pair = (timing: Timing): string => `${timing.p50Ms} / ${timing.p95Ms}`;
	const firstCallMs = memory.firstCallMs;
	const searchP50 = memory.searchP50 ?? targets.searchP50;
	// At 100k the targets are a search p50 for every mode and a second for every page of every read tool.
	const modeP50 = memory.searchP50 ?? targets.modeP50;
	const linksP50 = memory.pageMs ?? targets.linksP50;
	const fallback = result.fallback;
	const rows = [
		`Vault tools over stdio, ${result.notes} notes (${result.vaultMegabytes} MB of Markdown); p50 / p95 in ms from the MCP SDK Client; load average ${result.loadAverage.before.join(" ")} before, ${result.loadAverage.after.join(" ")} after:`,
		"",
		"| measure | figure | target | met |",
		"|---|---:|---:|:---:|",
		row("server ready (spawn to the initialize answer)", `${fallback.readyFromSpawnMs} ms`, "—", undefined),
		row(
			"first search, sent right after initialize (reads the vault)",
			`${fallback.firstSearchMs} ms`,
			`≤ ${firstCallMs} ms`,
			fallback.firstSearchMs <= firstCallMs,
		),
		row("server's background read of the vault", `${fallback.warmUpMs} ms`, "—", undefined),
		row(
			"search text, rare phrase, warm",
			pair(fallback.searchRarePhrase),
			`p50 ≤ ${searchP50}`,
			fallback.searchRarePhrase.p50Ms <= searchP50,
		),
		row(
			"search text, phrase in every note, warm",
			pair(fallback.searchCommonWord),
			`p50 ≤ ${searchP50}`,
			fallback.searchCommonWord.p50Ms <= searchP50,
		),
		row("search tag", pair(fallback.searchTag), `p50 ≤ ${modeP50}`, fallback.searchTag.p50Ms <= modeP50),
		row(
			"search property",
			pair(fallback.searchProperty),
			`p50 ≤ ${modeP50}`,
			fallback.searchProperty.p50Ms <= modeP50,
		),
		row(
			"links in, 200 backlinks, warm",
			pair(fallback.links200Backlinks),
			`p50 ≤ ${linksP50}`,
			fallback.links200Backlinks.p50Ms <= linksP50,
		),
		...fallback.pages.map((paged) =>
			row(
				`every page: ${paged.call} (${paged.pages} pages; p50 per page)`,
				paged.pageP50Ms.join(", "),
				memory.pageMs === undefined ? "—" : `each ≤ ${memory.pageMs}`,
				memory.pageMs === undefined ? undefined : paged.worstPageMs <= memory.pageMs,
			),
		),
		row(
			"peak RSS (VmHWM) of the fallback server, after all of the above",
			`${fallback.memory.peakRssMb} MB`,
			`≤ ${memory.peakRssMb} MB`,
			fallback.memory.peakRssMb <= memory.peakRssMb,
		),
	];
	for (const first of result.firstCalls ?? [])
		rows.push(
			row(
				`first call on a fresh server: ${first.call} (peak RSS ${first.peakRssMb} MB)`,
				`${first.ms} ms`,
				`≤ ${firstCallMs} ms`,
				first.ms <= firstCallMs,
			),
		);
	if (result.relaying) {
		const relaying = result.relaying;
		rows.push(
			row(
				"relaying server (bridge running): search, phrase in every note",
				pair(relaying.searchCommonWord),
				"—",
				undefined,
			),
		);
		rows.push(row("relaying server: links in, 200 backlinks", pair(relaying.links200Backlinks), "—", undefined));
		rows.push(
			row(
				"relaying server: peak RSS",
				`${relaying.memory.peakRssMb} MB`,
				memory.relayPeakRssMb === undefined ? "—" : `≤ ${memory.relayPeakRssMb} MB`,
				memory.relayPeakRssMb === undefined ? undefined : relaying.memory.peakRssMb <= memory.relayPeakRssMb,
			),
		);
	}
	if (result.sessions) {
		const sessions = result.sessions;
		// One server holds the index; the others relay to it and hold none, at any vault size.
		const others = [...sessions.peakRssMb].sort((a, b) => b - a).slice(1);
		const relayBudget = MEMORY_TARGETS[10_000].relayPeakRssMb;
		rows.push(
			row(
				`${sessions.servers} sessions at once, no bridge: peak RSS of each (sum)`,
				`${sessions.peakRssMb.join(" + ")} MB (${sessions.totalPeakRssMb} MB)`,
				`one index; the other ${sessions.servers - 1} ≤ ${relayBudget} MB each`,
				others.every((peak) => peak <= relayBudget),
			),
		);
	}
	return rows.join("\n");
}

function argumentAfter(name: string): string | undefined {
	const at = process.argv.indexOf(name);
	return at > 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
	const count = Number(argumentAfter("--notes") ?? 10_000);
	const sessions = argumentAfter("--sessions");
	const vault = argumentAfter("--vault");
	const result = await benchmarkStdioVaultTools(count, {
		...(vault ? { vault } : {}),
		...(sessions ? { sessions: Number(sessions) } : {}),
		skip: argumentAfter("--skip")?.split(",") ?? [],
	});
	process.stdout.write(`${stdioMarkdownTable(result)}\n\n${JSON.stringify({ vaultToolsStdio: result })}\n`);
}

if (require.main === module) void main();
