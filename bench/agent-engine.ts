/**
 * `node scripts/run-bench.mjs bench/agent-engine.ts [require runs] [turn runs]`: the agent panel's engine routes
 * compared by measurement (issue 18 §7), each driving the pinned Claude Code CLI against the mock model API:
 *
 * - sdk: the Claude Agent SDK's `query()` with `pathToClaudeCodeExecutable` = the pinned CLI;
 * - raw: the CLI's stream-json mode with a minimal line reader (bench/agent-engine-raw.ts);
 * - acp: `@agentclientprotocol/claude-agent-acp` with CLAUDE_CODE_EXECUTABLE = the pinned CLI.
 *
 * The SDK and the adapter are installed at bench time into .cache/agent-engine-bench (never into package.json),
 * with `--omit=optional` (their per-platform native CLI binaries are not needed: both run the pinned CLI).
 * Bundles are built the way the plugin would ship them (esbuild, CommonJS, minified). Prints a Markdown table.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { makeClaudeHome, FAKE_API_KEY } from "../tests/e2e/harness/claude-home";
import { MockAnthropic } from "../tests/e2e/harness/mock-anthropic";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { TURNS_ROLE, turnsChild, type Candidate, type TurnsJob, type TurnsReport } from "./agent-engine-turns";
import { summarize } from "./stats";

/** The SDK release whose bundled CLI (`claudeCodeVersion`) is the pinned CLI, 2.1.330. */
const SDK_VERSION = "0.3.330";
const ACP_ADAPTER_VERSION = "0.101.0";
const ROOT = process.cwd();
const CACHE = path.join(ROOT, ".cache", "agent-engine-bench");
const OUT = path.join(CACHE, "out");
const CANDIDATES: readonly Candidate[] = ["sdk", "raw", "acp"];

function npmInstall(folder: string, spec: string): void {
	const marker = path.join(
		folder,
		"node_modules",
		...spec.slice(0, spec.lastIndexOf("@")).split("/"),
		"package.json",
	);
	if (
		existsSync(marker) &&
		(JSON.parse(readFileSync(marker, "utf8")) as { version?: string }).version ===
			spec.slice(spec.lastIndexOf("@") + 1)
	)
		return;
	mkdirSync(folder, { recursive: true });
	writeFileSync(path.join(folder, "package.json"), '{ "private": true }\n');
	process.stderr.write(`installing ${spec} into ${folder} (bench only)…\n`);
	execFileSync("npm", ["install", "--no-audit", "--no-fund", "--omit=optional", "--ignore-scripts", spec], {
		cwd: folder,
		stdio: ["ignore", process.stderr, process.stderr],
		timeout: 600_000,
	});
}

function esbuild(entry: string, outfile: string, extra: string[] = []): number {
	const cli = path.join(ROOT, "node_modules", "esbuild", "bin", "esbuild");
	// esbuild's installer replaces bin/esbuild with the native binary where it can: run it directly.
	execFileSync(
		cli,
		[
			entry,
			"--bundle",
			"--platform=node",
			"--format=cjs",
			"--target=node20",
			"--minify",
			"--log-level=error",
			`--outfile=${outfile}`,
			...extra,
		],
		{
			stdio: ["ignore", "inherit", "inherit"],
		},
	);
	return statSync(outfile).size;
}

function filesUnder(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		return entry.isDirectory() ? filesUnder(full) : [full];
	});
}

function folderBytes(folder: string): number {
	return filesUnder(folder).reduce((sum, file) => sum + statSync(file).size, 0);
}

function licence(packageFolder: string): string {
	const manifest = JSON.parse(readFileSync(path.join(packageFolder, "package.json"), "utf8")) as { license?: string };
	const licenceFile = ["LICENSE.md", "LICENSE"].map((name) => path.join(packageFolder, name)).find(existsSync);
	const firstLine = licenceFile
		? (
				readFileSync(licenceFile, "utf8")
					.split("\n")
					.find((line) => line.trim() !== "") ?? ""
			)
				.trim()
				.slice(0, 90)
		: "";
	return manifest.license === "SEE LICENSE IN README.md" || manifest.license === undefined
		? `proprietary ("${firstLine}")`
		: manifest.license;
}

interface Built {
	bundle: string;
	bytes: number;
	nativeModules: number;
	licence: string;
	note: string;
}

/** The bundle the plugin would carry for each route, and what else it needs. */
function buildBundles(): Record<Candidate, Built> {
	mkdirSync(OUT, { recursive: true });
	const sdkFolder = path.join(CACHE, "sdk");
	const acpFolder = path.join(CACHE, "acp");
	npmInstall(sdkFolder, `@anthropic-ai/claude-agent-sdk@${SDK_VERSION}`);
	npmInstall(acpFolder, `@agentclientprotocol/claude-agent-acp@${ACP_ADAPTER_VERSION}`);

	const sdkEntry = path.join(sdkFolder, "entry.mjs");
	writeFileSync(sdkEntry, 'export { query } from "@anthropic-ai/claude-agent-sdk";\n');
	// The SDK is an ES module that reads import.meta.url; bundled as CommonJS it gets this file's URL instead.
	const sdkBundle = path.join(OUT, "sdk-engine.cjs");
	const sdkBytes = esbuild(sdkEntry, sdkBundle, [
		"--define:import.meta.url=__bundleUrl",
		"--banner:js=var __bundleUrl=require('url').pathToFileURL(__filename).href;",
	]);

	const rawBundle = path.join(OUT, "raw-engine.cjs");
	const rawBytes = esbuild(path.join(ROOT, "bench", "agent-engine-raw.ts"), rawBundle);

	const acpEntry = path.join(acpFolder, "client-entry.mjs");
	writeFileSync(acpEntry, 'export { client, ndJsonStream } from "@agentclientprotocol/sdk";\n');
	const acpBundle = path.join(OUT, "acp-client.cjs");
	const acpBytes = esbuild(acpEntry, acpBundle);
	const adapterFolder = path.join(acpFolder, "node_modules", "@agentclientprotocol", "claude-agent-acp");
	const natives = (folder: string): number =>
		filesUnder(path.join(folder, "node_modules")).filter((file) => file.endsWith(".node")).length;
	return {
		sdk: {
			bundle: sdkBundle,
			bytes: sdkBytes,
			nativeModules: natives(sdkFolder),
			licence: licence(path.join(sdkFolder, "node_modules", "@anthropic-ai", "claude-agent-sdk")),
			note: `@anthropic-ai/claude-agent-sdk ${SDK_VERSION} (claudeCodeVersion 2.1.330), query() only`,
		},
		raw: {
			bundle: rawBundle,
			bytes: rawBytes,
			nativeModules: 0,
			licence: "MIT (this project's own code)",
			note: "bench/agent-engine-raw.ts",
		},
		acp: {
			bundle: acpBundle,
			bytes: acpBytes,
			nativeModules: natives(acpFolder),
			licence: `${licence(adapterFolder)} (adapter), ${licence(path.join(acpFolder, "node_modules", "@agentclientprotocol", "sdk"))} (client library); the adapter pulls in the Agent SDK (proprietary)`,
			note: `client library @agentclientprotocol/sdk; plus the adapter ${ACP_ADAPTER_VERSION} installed by the user with npm (Node ≥ 22): ${(folderBytes(path.join(acpFolder, "node_modules")) / 1024 / 1024).toFixed(1)} MiB on disk without native binaries`,
		},
	};
}

/** `require` of a bundle in a fresh Node process: wall and CPU milliseconds. */
function requireOnce(bundle: string): { wallMs: number; cpuMs: number } {
	const script = `const c0=process.cpuUsage();const t0=process.hrtime.bigint();require(${JSON.stringify(bundle)});const t1=process.hrtime.bigint();const c=process.cpuUsage(c0);process.stdout.write(JSON.stringify({wallMs:Number(t1-t0)/1e6,cpuMs:(c.user+c.system)/1000}))`;
	return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as {
		wallMs: number;
		cpuMs: number;
	};
}

function runTurns(job: TurnsJob): Promise<TurnsReport> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ["--expose-gc", process.argv[1] ?? "", TURNS_ROLE, JSON.stringify(job)], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
		const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
		child.on("exit", (code) => {
			clearTimeout(timer);
			const last = stdout.trim().split("\n").at(-1) ?? "";
			if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as TurnsReport);
			else
				reject(
					new Error(
						`${job.candidate} turns failed (exit ${String(code)}): ${stderr.trim() || stdout.trim()}`,
					),
				);
		});
	});
}

const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : "—");

async function main(): Promise<void> {
	const [role, argument = ""] = process.argv.slice(2);
	if (role === TURNS_ROLE) return turnsChild(argument);
	const requireRuns = Number(role ?? "15");
	const turnRuns = Number(argument || "3");
	const promptsPerRun = 3;
	const load = loadavg()[0]?.toFixed(2) ?? "?";
	const cli = execFileSync(process.execPath, [path.join(ROOT, "scripts", "install-claude-cli.mjs")], {
		encoding: "utf8",
	}).trim();
	const built = buildBundles();

	const requireTimes: Record<Candidate, { wallMs: number; cpuMs: number }[]> = { sdk: [], raw: [], acp: [] };
	for (let run = 0; run < requireRuns; run += 1) {
		for (const candidate of run % 2 === 0 ? CANDIDATES : [...CANDIDATES].reverse())
			requireTimes[candidate].push(requireOnce(built[candidate].bundle));
	}

	const mock = await MockAnthropic.start();
	const vault = makeTempDir("agent-engine-vault");
	const home = makeClaudeHome([vault.path]);
	const env: Record<string, string> = {
		PATH: process.env["PATH"] ?? "/usr/bin:/bin",
		HOME: home.path,
		ANTHROPIC_BASE_URL: mock.baseUrl,
		ANTHROPIC_API_KEY: FAKE_API_KEY,
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: "1",
	};
	const reports: Record<Candidate, TurnsReport[]> = { sdk: [], raw: [], acp: [] };
	const failures: Partial<Record<Candidate, string>> = {};
	const adapterEntry = path.join(
		CACHE,
		"acp",
		"node_modules",
		"@agentclientprotocol",
		"claude-agent-acp",
		"dist",
		"index.js",
	);
	try {
		for (let run = 0; run < turnRuns; run += 1) {
			for (const candidate of run % 2 === 0 ? CANDIDATES : [...CANDIDATES].reverse()) {
				if (failures[candidate]) continue;
				const module = candidate === "acp" ? adapterEntry : built[candidate].bundle;
				try {
					reports[candidate].push(
						await runTurns({ candidate, module, cli, cwd: vault.path, env, prompts: promptsPerRun }),
					);
				} catch (error) {
					failures[candidate] = error instanceof Error ? error.message : String(error);
				}
			}
		}
	} finally {
		await mock.close();
		home.remove();
		vault.remove();
	}

	const rows = CANDIDATES.map((candidate) => {
		const requireWall = summarize(requireTimes[candidate].map((time) => time.wallMs));
		const requireCpu = summarize(requireTimes[candidate].map((time) => time.cpuMs));
		const runs = reports[candidate];
		const first = summarize(runs.map((report) => report.turns[0]?.firstDeltaMs ?? Number.NaN));
		const firstTotal = summarize(runs.map((report) => report.turns[0]?.totalMs ?? Number.NaN));
		const later = runs.flatMap((report) => report.turns.slice(1));
		const warmDelta = summarize(later.map((turn) => turn.firstDeltaMs));
		const warmTotal = summarize(later.map((turn) => turn.totalMs));
		const growth = summarize(runs.map((report) => report.rssAfterTurnsMiB - report.rssBeforeLoadMiB));
		const loadGrowth = summarize(runs.map((report) => report.rssAfterLoadMiB - report.rssBeforeLoadMiB));
		const sidecar = summarize(
			runs.flatMap((report) => (report.sidecarRssMiB === undefined ? [] : [report.sidecarRssMiB])),
		);
		const rssCell = `${fixed(growth.median)} (load ${fixed(loadGrowth.median)})${sidecar.samples > 0 ? `; adapter process ${fixed(sidecar.median)}` : ""}`;
		const turnCells =
			runs.length === 0
				? ["failed", "failed", "failed", "failed", "failed"]
				: [
						fixed(first.median, 0),
						fixed(firstTotal.median, 0),
						fixed(warmDelta.median, 0),
						fixed(warmTotal.median, 0),
						rssCell,
					];
		return `| ${candidate} | ${(built[candidate].bytes / 1024).toFixed(1)} KiB | ${built[candidate].nativeModules} | ${fixed(requireWall.median, 2)} / ${fixed(requireCpu.median, 2)} | ${turnCells.join(" | ")} | ${built[candidate].licence} |`;
	});
	const lines = [
		`Node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} cores, load average ${load} at the start, ${new Date().toISOString()}; pinned CLI ${cli}`,
		`require: ${requireRuns} fresh processes each, alternating; turns: ${turnRuns} fresh host processes × ${promptsPerRun} prompts each, alternating; mock model API on loopback`,
		"",
		"| route | bundled into main.js (minified) | native modules | require median wall / CPU (ms) | first turn: start → first text delta (ms) | first turn total (ms) | later turns: prompt → first text delta (ms) | later turns total (ms) | host RSS growth (MiB) | licence |",
		"| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
		...rows,
		"",
		...CANDIDATES.map((candidate) => `- ${candidate}: ${built[candidate].note}`),
		...Object.entries(failures).map(([candidate, message]) => `- ${candidate} failed: ${message}`),
	];
	process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`agent-engine failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
