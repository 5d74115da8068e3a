/**
 * Benchmark (not a test): issue 31's table, the stdio server as Claude Code starts it (`claude-code-bridge mcp
 * --vault DIR`, Obsidian closed, so the folder index answers) on the generated vaults of bench/heavy-vault.ts, at
 * 10k and 100k notes. Each row is printed with the issue's figure ("today", measured when it was filed), the goal,
 * and for a row missed the reason its profile gave. No bridge runs; servers get a HOME of their own (nothing saved),
 * except as said below. Per size and build:
 * - a long-day server: spawn → initialize, the rare phrase sent right after initialize (cold), then, once its
 *   background read of the vault is done, the rare phrase warm and 30 common-word searches, every page of the hub's
 *   backlinks and of the tags; its peak RSS (VmHWM) after all that;
 * - fresh servers asked for every page of the hub's backlinks, and of the tags overview: each once as a later
 *   session on the vault (the HOME of the long-day server, which saved its index when its warm-up was done) and once
 *   as the vault's first session (a HOME of its own: nothing saved, every note is read);
 * - three sessions at once on one vault: one serves its folder index to the others, whose memory stays a relay's.
 * Correctness is checked on every answer: the rare phrase's 3 lines, the hub's 200 backlinks (none false), the
 * `#heavy` count, no tag that is only in code.
 *
 * Run: npm run bench:vault-tools-heavy [-- --notes 10000,100000] [--runs N] [--vaults DIR] [--no-record]
 *      [--builds after=dist/cli.cjs,before=OTHER.cjs]
 * Vaults are generated once into `--vaults` (default .cache/heavy-vaults; 100k notes take about 380 MB and a few
 * minutes) and reused. `--runs N` (or `--rounds N`) measures everything N times; the figures are the medians over
 * the runs. With several builds, each run measures them one after the other, the order swapped every run, so that
 * the machine's load falls on both. A run of this build alone (no --builds, no CCB_BENCH_CPU_PROF, no --no-record)
 * writes its figures into bench/results.json (key `vaultToolsHeavy`) and its table into bench/README.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { WARM_UP_DONE } from "../src/vault-tools/stdio/folder-reading";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { pollUntil } from "../tests/helpers/wait-until";
import { COMMON_WORDS, HEAVY_TAG, CODE_ONLY_TAG, HUB, RARE_PHRASE, generateHeavyVault } from "./heavy-vault";
import type { HeavyVaultFacts } from "./heavy-vault";
import { processCpuMs } from "./process-cpu";
import { describeMachine, machine } from "./report";
import { recordResults, replaceReadmeSection } from "./results-file";
import { cursorOf, readEveryFile, startServer, type ServerProcess } from "./stdio-server";

type Size = 10_000 | 100_000;

/** Every page of one call on a fresh server: each page's time, the CPU the server spent, its peak RSS. */
interface FreshPages {
	pagesMs: number[];
	totalMs: number;
	cpuMs: number;
	peakRssMb: number;
}

/** What one build did on one vault in one round. */
interface Figures {
	readyMs: number;
	rareColdMs: number;
	rareColdCpuMs: number;
	rareWarmP50Ms: number;
	commonP50Ms: number;
	/** A later session (the index its last session saved) and the vault's first session (none saved). */
	backlinks: { later: FreshPages; first: FreshPages };
	tags: { later: FreshPages; first: FreshPages };
	peakRssMb: number;
	warmUpMs: number;
	sessions: { peakRssMb: number[]; hosted: number };
	correctness: Correctness;
}

interface Correctness {
	phraseLines: string;
	backlinks: string;
	taggedNotes: string;
	codeOnlyTags: string;
	ok: boolean;
}

/** Issue 31's table: the figures when it was filed, and the goals. */
const TODAY: Record<Size, Record<RowKey, string>> = {
	10_000: {
		peakRss: "206 MB",
		backlinks: "1.0 s",
		backlinksFirst: "1.0 s",
		tags: "0.6 s",
		tagsFirst: "0.6 s",
		rare: "0.6 s / 33 ms",
		common: "45 ms",
		ready: "168 ms",
	},
	100_000: {
		peakRss: "1,600 MB",
		backlinks: "18.5 s",
		backlinksFirst: "18.5 s",
		tags: "18.2 s",
		tagsFirst: "18.2 s",
		rare: "6.7 s / 178 ms",
		common: "318 ms",
		ready: "241 ms",
	},
};

interface Goals {
	peakRssMb?: number;
	backlinksAllPagesMs?: number;
	backlinksPageMs?: number;
	tagsFirstMs?: number;
	rareColdMs?: number;
	rareWarmMs?: number;
	commonP50Ms?: number;
	readyMs?: number;
}

const GOALS: Record<Size, Goals> = {
	10_000: { peakRssMb: 150, backlinksAllPagesMs: 500, tagsFirstMs: 300, commonP50Ms: 40 },
	100_000: {
		peakRssMb: 800,
		backlinksAllPagesMs: 5000,
		backlinksPageMs: 1000,
		tagsFirstMs: 3000,
		rareColdMs: 3000,
		rareWarmMs: 100,
		commonP50Ms: 200,
		readyMs: 300,
	},
};

type RowKey = "peakRss" | "backlinks" | "backlinksFirst" | "tags" | "tagsFirst" | "rare" | "common" | "ready";

/**
 * Why a row is missed, from the profiles (`CCB_BENCH_CPU_PROF=DIR` profiles every server; bench/profile-summary.ts
 * sums one): printed under the table for each row missed.
 */
const MISSED_BECAUSE: Record<RowKey, string> = {
	peakRss: 'see bench/README.md, "Heavy vaults": what the heap and the search texts hold at this size.',
	backlinks:
		"the first page waits for a later session's start-up: the folder's listing and the saved index taken up (its head and last three lines read at once, the notes' lines on demand). From 30,000 notes a worker starts before the listing with the saved index's last lines in shared memory: it decodes the stamps and the link targets for this thread first, then stats the saved rows of each folder once the listing watches it; the page answers from the saved rows it has found as saved so far, in path order (as a first session's page is: at least N backlinks so far), and the reverse index answers once every row is checked. The privacy layer decides the one note asked. Profiled in the server at 100k notes (commit 07cc96d, load 4.7, main thread, a first page of 1.06 s): the saved index's last lines read 0.08 s, the folder's listing 0.42 s (readdir 0.14 s, a map entry a file 0.14 s, the rest the walk and GC), the sort and the files' signature 0.05 s, the saved rows taken up 0.15 s (0.03 s of it the stamps' base64, now the worker's), the saved targets line 0.13 s (0.04 s of it base64, now the worker's), the call itself 0.07 s (20 notes' links read and resolved). What is left is the listing: a map entry a file and readdir, on the thread that must watch each folder.",
	backlinksFirst:
		"with nothing saved, the first page looks at every note once (open, read, close: no fstat and nothing kept, the answer kept per the watcher's count of changes), then reads and resolves only the links that may name the note, in the notes whose text holds its name (src/vault/folder/link-target-filter.ts); from 30,000 notes a worker reads ahead and the main thread reads the notes the worker has not begun instead of waiting. Profiled at 10k, load 9: open, read and close 34 % of the page (202 of 595 ms sampled), GC 9 %, the filter's byte search 6 %. The system calls are the floor: a bare open, read, close loop over 10k notes costs 90-110 ms of CPU here. At 100k (load 9-11) the first page took 3.4 s of CPU.",
	tags: "a later session lists the folder, takes up the saved index and checks every note's stamp against those a worker found from the start-up on (no lstat per note on this thread), then reads the notes' lines in 1 MB blocks and parses each note's tags, while its warm-up goes through the notes too. Profiled in the server at 100k notes, load 8, main thread (3.7 s sampled): listing 0.50 s, saved index 0.60 s (paths and stamps 0.28 s), the notes' lines read 0.34 s and their tags parsed 0.42 s, stamps compared 0.27 s, the list of visible notes 0.17 s, the targets line 0.23 s (for the warm-up), GC 0.78 s.",
	tagsFirst:
		"with nothing saved and the vault watched, the first call glances at every note (open, read, close: no fstat, no stamp, nothing kept but its tags, kept per the watcher's count of changes; the warm-up keeps them with stamps later) and reads its tags from the bytes (a frontmatter's end found without decoding, a frontmatter without a tag key never decoded, only the lines with a # that may start a tag or a fence decoded); the visible notes' own list is not decided again note by note; from 30,000 notes a worker reads ahead and the main thread reads the notes the worker has not begun. Profiled at 10k, load 4.5, the call alone on the main thread (215-230 ms sampled, 3 runs): open 67-70 ms, close 58-61 ms, read 27-33 ms, GC 20-26 ms, the rest (tags from the bytes, the list of visible notes) about 30 ms; a bare open, read, close loop over the 10k notes costs 125-140 ms of CPU in a fresh process here, so what is left is mostly that floor. Before the call, the folder's listing (35-50 ms sampled) and a warm-up slice (8 ms) run after initialize.",
	rare: "cold: the first search looks at every note once (open, read, close: no fstat, nothing kept) into a lent buffer; from 30,000 notes a worker reads ahead and the main thread reads the notes the worker has not begun. Profiled at 10k, load 9: the system calls 47 % of the search (106 of 224 ms sampled), GC 8 %; at 100k (load 9-11) 2.8-2.9 s of CPU. Warm: one scan of every search text.",
	common: "a scan of every note's search text for the rarest piece of the words, then of each line found.",
	ready: "Node's start and loading the bundle; the folder is listed after initialize is answered.",
};

const ROW_NAMES: Record<RowKey, string> = {
	peakRss: "server peak RSS (a long-day server: warm-up, every row's calls)",
	backlinks: "backlinks of a hub with 200 links, all 10 pages (fresh server, a later session)",
	backlinksFirst: "the same, the vault's first session (nothing saved)",
	tags: "`tags` first call (fresh server, a later session; every page)",
	tagsFirst: "the same, the vault's first session (nothing saved)",
	rare: "rare phrase, cold / warm",
	common: "30 common-word searches p50",
	ready: "spawn → initialize",
};

function progress(message: string): void {
	process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function median(values: readonly number[]): number {
	const sorted = [...values].filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
	if (sorted.length === 0) return Number.NaN;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] ?? Number.NaN)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** The vault of `count` notes under `root`: generated the first time (its facts in a dot file the server skips). */
function prepareVault(root: string, count: number): { path: string; facts: HeavyVaultFacts } {
	const path = join(root, `${count}`);
	const marker = join(path, ".ccb-heavy-vault.json");
	if (existsSync(marker)) {
		progress(`reading the ${count}-note vault once (as a vault in use is cached)`);
		readEveryFile(path);
		return { path, facts: JSON.parse(readFileSync(marker, "utf8")) as HeavyVaultFacts };
	}
	rmSync(path, { recursive: true, force: true });
	mkdirSync(path, { recursive: true });
	progress(`generating ${count} notes into ${path}`);
	const facts = generateHeavyVault(path, count);
	writeFileSync(marker, JSON.stringify(facts));
	progress(`${round1(facts.bytes / 1e6)} MB, ${facts.links} links, ${facts.taggedNotes} notes tagged #${HEAVY_TAG}`);
	return { path, facts };
}

async function timed<T>(action: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const started = performance.now();
	const value = await action();
	return { ms: performance.now() - started, value };
}

/** CPU of the server process (user + system, ms) spent on `action`. */
async function timedWithCpu<T>(
	server: ServerProcess,
	action: () => Promise<T>,
): Promise<{ ms: number; cpuMs: number; value: T }> {
	const cpuBefore = processCpuMs(server.pid) ?? Number.NaN;
	const { ms, value } = await timed(action);
	return { ms, cpuMs: (processCpuMs(server.pid) ?? Number.NaN) - cpuBefore, value };
}

async function p50(runs: number, action: () => Promise<unknown>): Promise<number> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) samples.push((await timed(action)).ms);
	return median(samples);
}

/** Every page of one call; each page's time and all the answers. */
async function allPages(
	server: ServerProcess,
	name: string,
	args: Record<string, unknown>,
): Promise<{ pagesMs: number[]; answers: string[] }> {
	const pagesMs: number[] = [];
	const answers: string[] = [];
	let cursor: string | undefined;
	do {
		const page = await timed(() => server.call(name, cursor === undefined ? args : { ...args, cursor }));
		pagesMs.push(page.ms);
		answers.push(page.value);
		cursor = cursorOf(page.value);
	} while (cursor !== undefined);
	return { pagesMs, answers };
}

function phraseCheck(answer: string, facts: HeavyVaultFacts): string {
	const lines = answer.split("\n").filter((line) => /^[^(].*:\d+: /.test(line));
	const holding = lines.filter((line) => line.toLowerCase().includes(RARE_PHRASE));
	const inRightNotes = holding.filter((line) => facts.phraseNotes.some((path) => line.startsWith(`${path}:`)));
	return `${inRightNotes.length}/${facts.phraseNotes.length} phrase lines${answer.includes(`total ${facts.phraseNotes.length} matches`) ? "" : " (total differs)"}`;
}

function backlinksCheck(answers: readonly string[], facts: HeavyVaultFacts): string {
	const sources = new Set<string>();
	for (const answer of answers)
		for (const line of answer.split("\n")) {
			const source = /^in (.+?):\d+: /.exec(line)?.[1];
			if (source !== undefined) sources.add(source);
		}
	const expected = new Set(facts.hubSources);
	const found = [...sources].filter((source) => expected.has(source)).length;
	const wrong = sources.size - found;
	// The total is said by the page that looked at the whole vault (a page from part of it says "at least"): the last.
	const total = `${HUB}: ${expected.size} backlinks from ${expected.size} notes`;
	const said = answers.at(-1)?.split("\n")[0] === total ? "" : " (total differs)";
	return `${found}/${expected.size} backlinks, ${wrong} false${said}`;
}

function tagsCheck(answers: readonly string[], facts: HeavyVaultFacts): { tagged: string; codeOnly: string } {
	const rows = answers.flatMap((answer) => answer.split("\n").filter((line) => line.startsWith("#")));
	const heavy = rows.find((row) => row.startsWith(`#${HEAVY_TAG} `));
	const codeOnly = rows.filter((row) => row.toLowerCase().startsWith(`#${CODE_ONLY_TAG}`));
	return {
		tagged: `${heavy?.split(" ")[1] ?? "0"} tagged notes (expected ${facts.taggedNotes})`,
		codeOnly: `${codeOnly.length} code-only tags`,
	};
}

/** One build on one vault: the three servers in turn, then three sessions at once. */
async function measure(vault: string, facts: HeavyVaultFacts, cli: string, big: boolean): Promise<Figures> {
	const temp = makeTempDir("bench-heavy");
	let homes = 0;
	const home = (): string => {
		const path = join(temp.path, `home-${homes++}`);
		mkdirSync(path);
		return path;
	};
	try {
		progress(`  long-day server (${cli})`);
		const spawned = performance.now();
		const longDayHome = home();
		const longDay = await startServer(vault, longDayHome, cli);
		const readyMs = performance.now() - spawned;
		let figures: Omit<Figures, "backlinks" | "tags" | "sessions">;
		try {
			const cold = await timedWithCpu(longDay, () => longDay.call("search", { query: RARE_PHRASE }));
			const phraseLines = phraseCheck(cold.value, facts);
			await pollUntil(
				() => (longDay.stderr().includes(WARM_UP_DONE) ? true : undefined),
				`"${WARM_UP_DONE}" on the server's stderr`,
				{ timeoutMs: 900_000, intervalMs: 50 },
			);
			const warmUp = new RegExp(`${WARM_UP_DONE}: read \\d+ notes in (\\d+) ms`).exec(longDay.stderr())?.[1];
			const rareWarmP50Ms = await p50(big ? 10 : 20, () => longDay.call("search", { query: RARE_PHRASE }));
			const commonP50Ms = await p50(30, () => longDay.call("search", { query: COMMON_WORDS }));
			await allPages(longDay, "links", { path: HUB, direction: "in" });
			await allPages(longDay, "tags", {});
			figures = {
				readyMs,
				rareColdMs: cold.ms,
				rareColdCpuMs: cold.cpuMs,
				rareWarmP50Ms,
				commonP50Ms,
				peakRssMb: longDay.memory().peakRssMb,
				warmUpMs: Number(warmUp ?? Number.NaN),
				correctness: { phraseLines, backlinks: "", taggedNotes: "", codeOnlyTags: "", ok: false },
			};
		} finally {
			await longDay.close();
		}

		// The long-day server saved its index in its HOME: a later session there takes it up.
		const fresh = async (name: string, args: Record<string, unknown>, later: boolean) => {
			progress(
				`  a fresh server, ${later ? "a later session" : "the vault's first session"}: every page of ${name}`,
			);
			const server = await startServer(vault, later ? longDayHome : home(), cli);
			try {
				const pages = await timedWithCpu(server, () => allPages(server, name, args));
				const figure: FreshPages = {
					pagesMs: pages.value.pagesMs,
					totalMs: pages.value.pagesMs.reduce((sum, ms) => sum + ms, 0),
					cpuMs: pages.cpuMs,
					peakRssMb: server.memory().peakRssMb,
				};
				return { figure, answers: pages.value.answers };
			} finally {
				await server.close();
			}
		};
		const backlinksLater = await fresh("links", { path: HUB, direction: "in" }, true);
		const backlinksFirst = await fresh("links", { path: HUB, direction: "in" }, false);
		const tagsLater = await fresh("tags", {}, true);
		const tagsFirst = await fresh("tags", {}, false);

		progress("  three sessions at once");
		const shared = home();
		const servers: ServerProcess[] = [];
		let sessions: Figures["sessions"];
		try {
			for (let index = 0; index < 3; index++) servers.push(await startServer(vault, shared, cli));
			await Promise.all(servers.map((server) => server.call("search", { query: RARE_PHRASE })));
			await Promise.all(servers.map((server) => server.call("links", { path: HUB, direction: "in" })));
			sessions = {
				peakRssMb: servers.map((server) => server.memory().peakRssMb),
				hosted: servers.filter((server) =>
					server.stderr().includes("Serving this vault's folder index to the other Claude Code sessions"),
				).length,
			};
		} finally {
			await Promise.all(servers.map((server) => server.close()));
		}

		const tagChecks = [tagsCheck(tagsLater.answers, facts), tagsCheck(tagsFirst.answers, facts)];
		const backlinkChecks = [
			backlinksCheck(backlinksLater.answers, facts),
			backlinksCheck(backlinksFirst.answers, facts),
		];
		const correctness: Correctness = {
			...figures.correctness,
			backlinks: [...new Set(backlinkChecks)].join(" / "),
			taggedNotes: [...new Set(tagChecks.map((check) => check.tagged))].join(" / "),
			codeOnlyTags: [...new Set(tagChecks.map((check) => check.codeOnly))].join(" / "),
			ok: false,
		};
		correctness.ok =
			correctness.phraseLines === `${facts.phraseNotes.length}/${facts.phraseNotes.length} phrase lines` &&
			correctness.backlinks === `${facts.hubSources.length}/${facts.hubSources.length} backlinks, 0 false` &&
			correctness.taggedNotes === `${facts.taggedNotes} tagged notes (expected ${facts.taggedNotes})` &&
			correctness.codeOnlyTags === "0 code-only tags";
		return {
			...figures,
			backlinks: { later: backlinksLater.figure, first: backlinksFirst.figure },
			tags: { later: tagsLater.figure, first: tagsFirst.figure },
			sessions,
			correctness,
		};
	} finally {
		temp.remove();
	}
}

/** The medians over rounds of one build's figures. */
interface Summary {
	build: string;
	rounds: Figures[];
	value: (pick: (figures: Figures) => number) => number;
}

function summary(build: string, rounds: Figures[]): Summary {
	return { build, rounds, value: (pick) => median(rounds.map(pick)) };
}

const seconds = (ms: number): string => (ms >= 1000 ? `${round1(ms / 1000)} s` : `${Math.round(ms)} ms`);

interface Row {
	key: RowKey;
	figure: (summary: Summary) => string;
	/** Whether the goal is met; undefined without a goal. */
	met: (summary: Summary, goals: Goals) => boolean | undefined;
	goal: (goals: Goals) => string;
}

function backlinksRow(key: RowKey, of: (figures: Figures) => FreshPages): Row {
	const slowest = (figures: Figures): number => Math.max(...of(figures).pagesMs);
	return {
		key,
		figure: (s) =>
			`${seconds(s.value((f) => of(f).totalMs))}, slowest page ${seconds(s.value(slowest))} (CPU ${seconds(s.value((f) => of(f).cpuMs))}; peak RSS ${round1(s.value((f) => of(f).peakRssMb))} MB)`,
		met: (s, g) =>
			g.backlinksAllPagesMs === undefined
				? undefined
				: s.value((f) => of(f).totalMs) <= g.backlinksAllPagesMs &&
					(g.backlinksPageMs === undefined || s.value(slowest) <= g.backlinksPageMs),
		goal: (g) =>
			g.backlinksAllPagesMs === undefined
				? "—"
				: `≤ ${seconds(g.backlinksAllPagesMs)}${g.backlinksPageMs === undefined ? "" : `, no page over ${seconds(g.backlinksPageMs)}`}`,
	};
}

function tagsRow(key: RowKey, of: (figures: Figures) => FreshPages): Row {
	return {
		key,
		figure: (s) =>
			`${seconds(s.value((f) => of(f).totalMs))} (CPU ${seconds(s.value((f) => of(f).cpuMs))}; peak RSS ${round1(s.value((f) => of(f).peakRssMb))} MB)`,
		met: (s, g) => (g.tagsFirstMs === undefined ? undefined : s.value((f) => of(f).totalMs) <= g.tagsFirstMs),
		goal: (g) => (g.tagsFirstMs === undefined ? "—" : `≤ ${seconds(g.tagsFirstMs)}`),
	};
}

const ROWS: Row[] = [
	{
		key: "peakRss",
		figure: (s) => `${round1(s.value((f) => f.peakRssMb))} MB`,
		met: (s, g) => (g.peakRssMb === undefined ? undefined : s.value((f) => f.peakRssMb) <= g.peakRssMb),
		goal: (g) => (g.peakRssMb === undefined ? "—" : `≤ ${g.peakRssMb} MB`),
	},
	backlinksRow("backlinks", (f) => f.backlinks.later),
	backlinksRow("backlinksFirst", (f) => f.backlinks.first),
	tagsRow("tags", (f) => f.tags.later),
	tagsRow("tagsFirst", (f) => f.tags.first),
	{
		key: "rare",
		figure: (s) =>
			`${seconds(s.value((f) => f.rareColdMs))} / ${Math.round(s.value((f) => f.rareWarmP50Ms))} ms (cold CPU ${seconds(s.value((f) => f.rareColdCpuMs))})`,
		met: (s, g) =>
			g.rareColdMs === undefined || g.rareWarmMs === undefined
				? undefined
				: s.value((f) => f.rareColdMs) <= g.rareColdMs && s.value((f) => f.rareWarmP50Ms) <= g.rareWarmMs,
		goal: (g) =>
			g.rareColdMs === undefined || g.rareWarmMs === undefined
				? "—"
				: `≤ ${seconds(g.rareColdMs)} / ≤ ${g.rareWarmMs} ms`,
	},
	{
		key: "common",
		figure: (s) => `${Math.round(s.value((f) => f.commonP50Ms))} ms`,
		met: (s, g) => (g.commonP50Ms === undefined ? undefined : s.value((f) => f.commonP50Ms) <= g.commonP50Ms),
		goal: (g) => (g.commonP50Ms === undefined ? "—" : `≤ ${g.commonP50Ms} ms`),
	},
	{
		key: "ready",
		figure: (s) => `${Math.round(s.value((f) => f.readyMs))} ms`,
		met: (s, g) => (g.readyMs === undefined ? undefined : s.value((f) => f.readyMs) <= g.readyMs),
		goal: (g) => (g.readyMs === undefined ? "—" : `≤ ${g.readyMs} ms`),
	},
];

function table(size: Size, facts: HeavyVaultFacts, summaries: Summary[], load: number[][]): string {
	const goals = GOALS[size];
	const header = [`measure`, "today (issue 31)", ...summaries.map((s) => s.build), "goal", "met"];
	const lines = [
		`${size.toLocaleString("en")} notes (${round1(facts.bytes / 1e6)} MB, ${facts.links.toLocaleString("en")} links), median of ${summaries[0]?.rounds.length ?? 0} round(s); load average ${load.map((l) => l.join(" ")).join(" → ")}:`,
		"",
		`| ${header.join(" | ")} |`,
		`|${header.map((_, index) => (index === 0 ? "---" : "---:")).join("|")}|`,
	];
	const missed: string[] = [];
	const judged = summaries[0];
	for (const row of ROWS) {
		const met = judged ? row.met(judged, goals) : undefined;
		lines.push(
			`| ${ROW_NAMES[row.key]} | ${TODAY[size][row.key]} | ${summaries.map((s) => row.figure(s)).join(" | ")} | ${row.goal(goals)} | ${met === undefined ? "—" : met ? "yes" : "**no**"} |`,
		);
		if (met === false) missed.push(`- ${ROW_NAMES[row.key]}: ${MISSED_BECAUSE[row.key]}`);
	}
	for (const s of summaries) {
		const last = s.rounds[s.rounds.length - 1];
		if (!last) continue;
		const others = median(
			s.rounds.map((f) => Math.max(...[...f.sessions.peakRssMb].sort((a, b) => b - a).slice(1))),
		);
		lines.push(
			`| ${s.build}: 3 sessions at once, peak RSS of each (the last round) | | ${last.sessions.peakRssMb.join(" + ")} MB; ${last.sessions.hosted} serves the others; the largest of the others ${others} MB | one index (≤ 70 MB for the others) | ${last.sessions.hosted === 1 && others <= 70 ? "yes" : "**no**"} |`,
		);
		const checks = s.rounds.map((f) => f.correctness);
		const first = checks[0];
		if (first)
			lines.push(
				`| ${s.build}: correctness (every round) | 3/3 phrase lines, 200/200 backlinks with 0 false, 735 tagged notes, 0 code-only tags | ${first.phraseLines}; ${first.backlinks}; ${first.taggedNotes}; ${first.codeOnlyTags} | the same | ${checks.every((c) => c.ok) ? "yes" : "**no**"} |`,
			);
		lines.push(
			`| ${s.build}: the long-day server's background read of the vault | | ${seconds(s.value((f) => f.warmUpMs))} | — | — |`,
		);
	}
	if (missed.length > 0) lines.push("", `Missed (judged on ${judged?.build ?? "?"}):`, ...missed);
	return lines.join("\n");
}

function argumentAfter(name: string): string | undefined {
	const at = process.argv.indexOf(name);
	return at > 0 ? process.argv[at + 1] : undefined;
}

const loadAverage = (): number[] => loadavg().map((value) => Math.round(value * 100) / 100);

async function main(): Promise<void> {
	const sizes = (argumentAfter("--notes") ?? "10000,100000").split(",").map(Number) as Size[];
	const rounds = Number(argumentAfter("--runs") ?? argumentAfter("--rounds") ?? 1);
	const info = machine();
	const root = resolve(argumentAfter("--vaults") ?? ".cache/heavy-vaults");
	const record =
		argumentAfter("--builds") === undefined &&
		!process.argv.includes("--no-record") &&
		process.env.CCB_BENCH_CPU_PROF === undefined;
	const builds = (argumentAfter("--builds") ?? "this build=dist/cli.cjs").split(",").map((entry) => {
		const [name, path] = entry.includes("=") ? entry.split("=") : [entry, entry];
		return { name: name ?? "", cli: resolve(path ?? "") };
	});
	const output: string[] = [];
	const json: Record<string, unknown> = {};
	for (const size of sizes) {
		if (!(size in GOALS)) throw new Error(`--notes takes 10000 and/or 100000, not ${size}`);
		const { path, facts } = prepareVault(root, size);
		const load = [loadAverage()];
		const results = new Map(builds.map((build) => [build.name, [] as Figures[]]));
		for (let roundIndex = 0; roundIndex < rounds; roundIndex++) {
			const order = roundIndex % 2 === 0 ? builds : [...builds].reverse();
			for (const build of order) {
				progress(`${size} notes, round ${roundIndex + 1} of ${rounds}: ${build.name}`);
				results.get(build.name)?.push(await measure(path, facts, build.cli, size >= 50_000));
			}
		}
		load.push(loadAverage());
		const summaries = builds.map((build) => summary(build.name, results.get(build.name) ?? []));
		output.push(table(size, facts, summaries, load));
		json[size] = {
			facts: { ...facts, hubSources: undefined, phraseNotes: undefined },
			load,
			results: Object.fromEntries(results),
		};
	}
	const heading = `${describeMachine(info)}; the median of ${rounds} run(s) of everything.`;
	process.stdout.write(`${heading}\n\n${output.join("\n\n")}\n\n${JSON.stringify({ vaultToolsHeavy: json })}\n`);
	if (!record) {
		process.stdout.write("\nNot written to bench/results.json (--builds, --no-record or a CPU profile)\n");
		return;
	}
	recordResults("vaultToolsHeavy", { machine: info, runs: rounds, sizes: json, tables: output });
	replaceReadmeSection("vault-tools-heavy", `${heading}\n\n${output.join("\n\n")}`);
	process.stdout.write("\nWrote bench/results.json (vaultToolsHeavy) and the table in bench/README.md\n");
}

if (require.main === module) void main();
