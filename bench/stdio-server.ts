/**
 * The stdio server as the benchmarks start it: `claude-code-bridge mcp --vault DIR` (a build of src/cli/main.ts,
 * dist/cli.cjs unless given) driven by the MCP SDK Client, with its memory read from /proc. Shared by
 * bench/vault-tools-stdio.ts and bench/vault-tools-heavy.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";

export interface ProcessMemory {
	/** VmHWM: the highest resident set the process had, in MB. */
	peakRssMb: number;
	/** VmRSS when read, in MB. */
	rssMb: number;
}

export interface ServerProcess {
	client: Client;
	pid: number;
	readyMs: number;
	stderr: () => string;
	call: (name: string, args: Record<string, unknown>) => Promise<string>;
	memory: () => ProcessMemory;
	close: () => Promise<void>;
}

/** VmHWM and VmRSS of a process, in MB (NaN where /proc is missing). */
export function processMemory(pid: number): ProcessMemory {
	let status = "";
	try {
		status = readFileSync(`/proc/${pid}/status`, "utf8");
	} catch {
		return { peakRssMb: Number.NaN, rssMb: Number.NaN };
	}
	const kilobytes = (field: string): number =>
		Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
	return {
		peakRssMb: Math.round(kilobytes("VmHWM") / 102.4) / 10,
		rssMb: Math.round(kilobytes("VmRSS") / 102.4) / 10,
	};
}

/** A 100k-note vault on a loaded machine can take minutes for a cold call: the SDK's 60 s default would end the run. */
const CALL_TIMEOUT_MS = 900_000;

/**
 * Starts the server on `vault` with `home` as its HOME, built as `cli` (default CCB_BENCH_CLI or dist/cli.cjs);
 * CCB_BENCH_CPU_PROF=DIR profiles it (`node --cpu-prof`).
 */
export async function startServer(vault: string, home: string, cli?: string): Promise<ServerProcess> {
	const client = new Client({ name: "bench", version: "1" });
	const profileDir = process.env.CCB_BENCH_CPU_PROF;
	const nodeFlags = profileDir ? ["--cpu-prof", "--cpu-prof-dir", resolve(profileDir)] : [];
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [...nodeFlags, resolve(cli ?? process.env.CCB_BENCH_CLI ?? "dist/cli.cjs"), "mcp", "--vault", vault],
		env: { PATH: process.env.PATH ?? "", HOME: home },
		stderr: "pipe",
	});
	let stderr = "";
	(transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
	const spawned = performance.now();
	await client.connect(transport);
	const readyMs = Math.round((performance.now() - spawned) * 100) / 100;
	const pid = transport.pid;
	if (pid === null) throw new Error("the server has no pid");
	return {
		client,
		pid,
		readyMs,
		stderr: () => stderr,
		call: async (name, args) => {
			const result = (await client.callTool({ name, arguments: args }, undefined, {
				timeout: CALL_TIMEOUT_MS,
			})) as { content: { text: string }[]; isError?: boolean };
			const text = result.content.map((block) => block.text).join("\n");
			if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text}`);
			return text;
		},
		memory: () => processMemory(pid),
		close: () => client.close(),
	};
}

/** The cursor a paged answer gives for its next page. */
export function cursorOf(answer: string): string | undefined {
	return /More: cursor "([^"]+)"/.exec(answer)?.[1];
}

/**
 * Reads every file once, so that the operating system has the vault cached, as it has a vault in use (a generated
 * vault is, having just been written). The first calls then time the server, not a cold disk.
 */
export function readEveryFile(folder: string): void {
	for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) readFileSync(join(entry.parentPath, entry.name));
	}
}
