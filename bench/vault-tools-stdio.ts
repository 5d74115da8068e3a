/**
 * Benchmark (not a test): the vault tools as Claude Code reaches them with Obsidian closed: `claude-code-bridge mcp
 * --vault DIR` (dist/cli.cjs, built first) on stdio with no bridge running, so every call is answered from the folder,
 * timed from the MCP SDK Client's side. Same generated 10k-note vault as bench/vault-tools.ts. The first search is
 * sent the moment `initialize` is answered, so it reads the vault itself (the worst case: Claude Code starts the
 * server with the session, usually long before the model's first search). Run:
 * npm run bench:vault-tools-stdio [-- --notes N]. To profile the server: CCB_BENCH_CPU_PROF=DIR (its .cpuprofile lands
 * there; bench/profile-summary.ts sums it), with CCB_BENCH_CLI=<an unminified build of src/cli/main.ts> for names.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { WARM_UP_DONE } from "../src/assembly/stdio-vault-server";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { pollUntil } from "../tests/helpers/wait-until";
import { generateLinkedVault } from "./vault-generator";
import type { Timing } from "./vault-tools";
import { POPULAR, VAULT_TOOLS_TARGETS, addPopularNote, addProse } from "./vault-tools-corpus";

export interface StdioVaultToolsBenchmark {
	notes: number;
	/** From spawning the server to the answer to `initialize` (Node's start and loading the bundle). */
	readyFromSpawnMs: number;
	/** The first search, sent right after `initialize`: the server reads the vault for it (its warm-up has just begun). */
	firstSearchMs: number;
	/** The server's own background read of every note (texts and facts), as it logs it. */
	warmUpMs: number;
	searchRarePhrase: Timing;
	searchCommonWord: Timing;
	searchTag: Timing;
	links200Backlinks: Timing;
}

const TARGETS = VAULT_TOOLS_TARGETS;

function timing(samples: number[]): Timing {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
	return { p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), runs: samples.length };
}

function round(ms: number): number {
	return Math.round(ms * 100) / 100;
}

export async function benchmarkStdioVaultTools(count = 10_000): Promise<StdioVaultToolsBenchmark> {
	const temp = makeTempDir("bench-vault-tools-stdio");
	const vault = join(temp.path, "vault");
	const home = join(temp.path, "home");
	mkdirSync(vault);
	mkdirSync(home);
	generateLinkedVault(vault, count);
	addProse(vault, count);
	addPopularNote(vault, count);
	const client = new Client({ name: "bench", version: "1" });
	try {
		const call = async (args: Record<string, unknown>, name = "search"): Promise<string> => {
			const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
			const text = result.content.map((block) => block.text).join("\n");
			if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text}`);
			return text;
		};
		const repeat = async (runs: number, action: () => Promise<unknown>): Promise<Timing> => {
			const samples: number[] = [];
			for (let run = 0; run < runs; run++) {
				const start = performance.now();
				await action();
				samples.push(performance.now() - start);
			}
			return timing(samples);
		};
		const spawned = performance.now();
		// HOME without lock files: no bridge, so the folder answers.
		// CCB_BENCH_CPU_PROF=DIR: the server runs under `node --cpu-prof` and writes its profile into DIR on exit;
		// CCB_BENCH_CLI: another build of the command, e.g. an unminified one whose profile shows function names.
		const profileDir = process.env.CCB_BENCH_CPU_PROF;
		const nodeFlags = profileDir ? ["--cpu-prof", "--cpu-prof-dir", resolve(profileDir)] : [];
		const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeFlags, resolve(process.env.CCB_BENCH_CLI ?? "dist/cli.cjs"), "mcp", "--vault", vault], env: { PATH: process.env.PATH ?? "", HOME: home }, stderr: "pipe" });
		let stderr = "";
		(transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		await client.connect(transport);
		const ready = performance.now();
		const first = await call({ query: "quokka marmalade" });
		const firstSearchMs = round(performance.now() - ready);
		if (!first.includes("total 3 matches")) throw new Error(`rare phrase: ${first}`);
		// Warm figures are taken once the server's background read of the vault is over.
		await pollUntil(() => (stderr.includes(WARM_UP_DONE) ? true : undefined), `"${WARM_UP_DONE}" on the server's stderr`, { timeoutMs: 120_000, intervalMs: 50 });
		const warmUp = /Folder warm-up done: read \d+ notes in (\d+) ms/.exec(stderr)?.[1];
		return {
			notes: count,
			readyFromSpawnMs: round(ready - spawned),
			firstSearchMs,
			warmUpMs: Number(warmUp ?? Number.NaN),
			searchRarePhrase: await repeat(50, () => call({ query: "quokka jumped" })),
			searchCommonWord: await repeat(30, () => call({ query: "sentences about" })),
			searchTag: await repeat(50, () => call({ query: "#hub", mode: "tag" })),
			links200Backlinks: await repeat(100, () => call({ path: POPULAR, direction: "in" }, "links")),
		};
	} finally {
		await client.close();
		temp.remove();
	}
}

export function stdioMarkdownTable(result: StdioVaultToolsBenchmark): string {
	const row = (measure: string, figure: string, target: string, met: boolean): string => `| ${measure} | ${figure} | ${target} | ${met ? "yes" : "**no**"} |`;
	const pair = (timing: Timing): string => `${timing.p50Ms} / ${timing.p95Ms}`;
	return [
		`Vault tools over stdio, no bridge (folder fallback), ${result.notes} notes (p50 / p95 in ms, from the MCP SDK Client):`,
		"",
		"| measure | figure | target | met |",
		"|---|---:|---:|:---:|",
		row("server ready (spawn to the initialize answer)", `${result.readyFromSpawnMs} ms`, "—", true),
		row("first search, sent right after initialize (reads the vault)", `${result.firstSearchMs} ms`, `≤ ${TARGETS.firstMs} ms`, result.firstSearchMs <= TARGETS.firstMs),
		row("server's background read of the vault (texts and facts)", `${result.warmUpMs} ms`, "—", true),
		row("search text, rare phrase, warm", pair(result.searchRarePhrase), `≤ ${TARGETS.searchP50} / ${TARGETS.searchP95}`, result.searchRarePhrase.p50Ms <= TARGETS.searchP50 && result.searchRarePhrase.p95Ms <= TARGETS.searchP95),
		row("search text, phrase in every note, warm", pair(result.searchCommonWord), `≤ ${TARGETS.searchP50} / ${TARGETS.searchP95}`, result.searchCommonWord.p50Ms <= TARGETS.searchP50 && result.searchCommonWord.p95Ms <= TARGETS.searchP95),
		row("search tag", pair(result.searchTag), `p50 ≤ ${TARGETS.modeP50}`, result.searchTag.p50Ms <= TARGETS.modeP50),
		row("links in, 200 backlinks, warm", pair(result.links200Backlinks), `p50 ≤ ${TARGETS.linksP50}`, result.links200Backlinks.p50Ms <= TARGETS.linksP50),
	].join("\n");
}

async function main(): Promise<void> {
	const notesArgument = process.argv.indexOf("--notes");
	const count = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 10_000;
	const result = await benchmarkStdioVaultTools(count);
	process.stdout.write(`${stdioMarkdownTable(result)}\n\n${JSON.stringify({ vaultToolsStdio: result })}\n`);
}

if (require.main === module) void main();
