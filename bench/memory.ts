import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canAnswer, connectPair, INITIALIZE_PARAMS, populateWireVault, untilNoClients } from "./wire";
import { untilIdle } from "./process-cpu";
import { RpcClient } from "./rpc-client";
import { startHeadless, startRawServer, type ServerProcess } from "./server-processes";
import { measureThroughput } from "./throughput";
import { makeTempDir } from "../tests/helpers/temp-dir";

const CLIENTS = 10;
/** After the load stops: how long the servers stay idle before the "after a pause" reading. */
const PAUSE_MS = 3000;

/** One server process's memory, from /proc/<pid>/status (bytes). */
export interface ProcessMemory {
	/** Resident set before any client connected. */
	startRss: number;
	/** VmHWM: the highest resident set the process ever had, read right after the throughput run. */
	peakRss: number;
	/** Resident set right after the run, and after the clients closed and a pause. */
	rssAfterRun: number;
	rssAfterPause: number;
	/** After the pause, a forced full GC (twice) in the server process: its RSS and its JS heap in use. */
	rssAfterGc: number;
	heapUsedAfterGc: number;
}

export interface MemoryRepetition {
	bridge: ProcessMemory;
	raw: ProcessMemory;
}

export interface LoadMemory {
	clients: number;
	repetitions: MemoryRepetition[];
	pauseMs: number;
}

/**
 * Preloaded (`node --expose-gc -r`) into both servers for this benchmark only: on SIGUSR2 it runs a full GC and
 * prints one line with the process's memory. Inert until signalled; the servers' own code is unchanged.
 */
const GC_ON_SIGNAL = `process.on("SIGUSR2", () => { gc(); gc(); const m = process.memoryUsage();
process.stdout.write("gc-memory " + JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed }) + "\\n"); });
`;

async function forcedGc(server: ServerProcess): Promise<{ rss: number; heapUsed: number }> {
	const line = server.nextLine((text) => text.startsWith("gc-memory "));
	process.kill(server.pid, "SIGUSR2");
	return JSON.parse((await line).slice("gc-memory ".length)) as { rss: number; heapUsed: number };
}

/** Reads VmRSS and VmHWM of a process (Linux); undefined elsewhere. */
function procStatus(pid: number): { rss: number; peak: number } | undefined {
	try {
		const status = readFileSync(`/proc/${pid}/status`, "utf8");
		const kib = (field: string): number =>
			Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
		return { rss: kib("VmRSS"), peak: kib("VmHWM") };
	} catch {
		return undefined;
	}
}

function readMemory(server: ServerProcess): { rss: number; peak: number } {
	const reading = procStatus(server.pid);
	if (!reading) throw new Error("Reading another process's memory needs /proc (Linux)");
	return reading;
}

/**
 * One repetition: a fresh headless host and a fresh floor (each its own process), 10 clients on each, the throughput
 * run (10 × 16 pipelined pings, alternating), then each process's peak RSS; then the clients close and, after a
 * pause, the RSS again (does the memory come back down?).
 */
async function repetition(roundMs: number, bridgeFirst: boolean): Promise<MemoryRepetition> {
	const temp = makeTempDir("memory");
	const vaultPath = join(temp.path, "vault");
	populateWireVault(vaultPath);
	const preload = join(temp.path, "gc-on-signal.cjs");
	writeFileSync(preload, GC_ON_SIGNAL);
	const nodeFlags = ["--expose-gc", "-r", preload];
	const start = async (): Promise<[ServerProcess, ServerProcess]> => {
		if (bridgeFirst) {
			const bridge = await startHeadless({ vaultPath, nodeFlags });
			return [bridge, await startRawServer(nodeFlags)];
		}
		const raw = await startRawServer(nodeFlags);
		return [await startHeadless({ vaultPath, nodeFlags }), raw];
	};
	const [bridgeServer, floor] = await start();
	try {
		const initializer = await RpcClient.connect(bridgeServer.port, bridgeServer.token);
		await canAnswer(initializer, floor, "initialize", INITIALIZE_PARAMS);
		await canAnswer(initializer, floor, "ping");
		await initializer.close();
		await untilNoClients(bridgeServer);
		await untilIdle(bridgeServer.pid);
		const startBridge = readMemory(bridgeServer);
		const startRaw = readMemory(floor);
		const clients = await connectPair(bridgeServer, floor, CLIENTS);
		await measureThroughput(clients.raw, clients.bridge, { rounds: 2, roundMs, window: 16 });
		const afterBridge = readMemory(bridgeServer);
		const afterRaw = readMemory(floor);
		await Promise.all([...clients.bridge, ...clients.raw].map((client) => client.close()));
		await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
		const pausedBridge = readMemory(bridgeServer);
		const pausedRaw = readMemory(floor);
		const gcBridge = await forcedGc(bridgeServer);
		const gcRaw = await forcedGc(floor);
		return {
			bridge: {
				startRss: startBridge.rss,
				peakRss: afterBridge.peak,
				rssAfterRun: afterBridge.rss,
				rssAfterPause: pausedBridge.rss,
				rssAfterGc: gcBridge.rss,
				heapUsedAfterGc: gcBridge.heapUsed,
			},
			raw: {
				startRss: startRaw.rss,
				peakRss: afterRaw.peak,
				rssAfterRun: afterRaw.rss,
				rssAfterPause: pausedRaw.rss,
				rssAfterGc: gcRaw.rss,
				heapUsedAfterGc: gcRaw.heapUsed,
			},
		};
	} finally {
		await floor.stop();
		await bridgeServer.stop();
		temp.remove();
	}
}

/** Peak RSS after the throughput run, bridge and floor, in `repetitions` fresh pairs of processes. */
export async function measureLoadMemory(repetitions: number, roundMs: number): Promise<LoadMemory> {
	const results: MemoryRepetition[] = [];
	for (let index = 0; index < repetitions; index++) results.push(await repetition(roundMs, index % 2 === 0));
	return { clients: CLIENTS, repetitions: results, pauseMs: PAUSE_MS };
}
