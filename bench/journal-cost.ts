import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alternate, type Comparison } from "./alternation";
import { processCpuMs, untilIdle } from "./process-cpu";
import { timedRequest } from "./round-trips";
import { RpcClient } from "./rpc-client";
import { startHeadless, type ServerProcess } from "./server-processes";
import { INITIALIZE_PARAMS, pipelined, populateWireVault } from "./wire";
import { makeTempDir } from "../tests/helpers/temp-dir";

/** Issue 17: journaling adds at most 5 % to a call. */
export const JOURNAL_MAX_RATIO = 1.05;

/** The same call to a headless host without a journal (`raw`) and with one (`bridge`), alternating. */
export interface JournalCostFigures {
	/** A vault tool over the relay (`vaultTools/call` read_note), as the stdio server forwards it. */
	vaultToolCall: Comparison;
	/** An IDE tool (`tools/call getDiagnostics {uri}`). */
	ideToolCall: Comparison;
	/**
	 * Each host's CPU time (user + system, from /proc) per call over both comparisons, in µs, without and with a
	 * journal; undefined without /proc. Unlike a round trip, it does not grow when other processes compete.
	 */
	cpuPerCall?: { raw: number; bridge: number };
}

const NOTE = join("Area 0", "Topic 1.md");
/** Calls of each tool each host answers before the rows (see `measureJournalCost`). */
const JIT_WARM_UP_CALLS = 3000;

/**
 * Two headless hosts on the same vault, each in its own process: one keeps its journal in a temp data folder, the
 * other is given a data folder inside the vault, which the host refuses (journal-folder.ts), so it keeps none.
 */
export async function measureJournalCost(
	scale = 1,
	nodeFlags: readonly string[] = [],
	jitWarmUp = true,
): Promise<JournalCostFigures> {
	const temp = makeTempDir("journal-cost");
	const vault = join(temp.path, "vault");
	const dataHome = join(temp.path, "data");
	populateWireVault(vault);
	const servers: ServerProcess[] = [];
	const clients: RpcClient[] = [];
	try {
		const start = async (env: Record<string, string>): Promise<RpcClient> => {
			const server = await startHeadless({ vaultPath: vault, env, nodeFlags });
			servers.push(server);
			const client = await RpcClient.connect(server.port, server.token);
			clients.push(client);
			await client.call("initialize", INITIALIZE_PARAMS);
			client.notify("notifications/initialized");
			return client;
		};
		const off = await start({ XDG_DATA_HOME: join(vault, ".no-journal") });
		const on = await start({ XDG_DATA_HOME: dataHome });
		for (const server of servers) await untilIdle(server.pid);
		const vaultTool = { name: "read_note", arguments: { path: NOTE } };
		const ideTool = { name: "getDiagnostics", arguments: { uri: pathToFileURL(join(vault, NOTE)).href } };
		const samples = Math.max(1, Math.round(40 * scale));
		const plan = { rounds: 30, samplesPerRound: samples, warmUp: Math.max(1, Math.round(200 * scale)) };
		if (jitWarmUp) {
			// As in the wire rows: both hosts answer the same calls first (16 in flight, not timed), so the rows time
			// compiled code. Few enough that the journal stays under its 10,000-call bound (no compaction in the rows).
			const calls = Math.max(100, Math.round(JIT_WARM_UP_CALLS * scale));
			for (const client of [off, on]) {
				await pipelined(client, "vaultTools/call", vaultTool, calls);
				await pipelined(client, "tools/call", ideTool, calls);
			}
			for (const server of servers) await untilIdle(server.pid);
		}
		const cpuBefore = servers.map((server) => processCpuMs(server.pid));
		const vaultToolCall = await alternate(
			plan,
			() => timedRequest(off, "vaultTools/call", vaultTool),
			() => timedRequest(on, "vaultTools/call", vaultTool),
		);
		const ideToolCall = await alternate(
			plan,
			() => timedRequest(off, "tools/call", ideTool),
			() => timedRequest(on, "tools/call", ideTool),
		);
		const cpuAfter = servers.map((server) => processCpuMs(server.pid));
		const calls = 2 * (plan.warmUp + plan.rounds * plan.samplesPerRound);
		const perCall = (index: number): number | undefined => {
			const before = cpuBefore[index];
			const after = cpuAfter[index];
			return before === undefined || after === undefined
				? undefined
				: Math.round(((after - before) * 1000) / calls);
		};
		const raw = perCall(0);
		const bridge = perCall(1);
		// The comparison means something only if one host journaled and the other did not.
		if (!existsSync(join(dataHome, "claude-code-bridge", "journal")))
			throw new Error("The host with a journal wrote none");
		if (existsSync(join(vault, ".no-journal")))
			throw new Error("The host without a journal made a data folder in the vault");
		return {
			vaultToolCall,
			ideToolCall,
			...(raw !== undefined && bridge !== undefined ? { cpuPerCall: { raw, bridge } } : {}),
		};
	} finally {
		await Promise.all(clients.map((client) => client.close()));
		await Promise.all(servers.map((server) => server.stop()));
		temp.remove();
	}
}
