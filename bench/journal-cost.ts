import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { interleave, type InterleavedComparison, type InterleavePlan } from "./interleaved";
import { processRunUs, untilIdle } from "./process-cpu";
import { timedRequest } from "./round-trips";
import { RpcClient } from "./rpc-client";
import { startHeadless, type ServerProcess } from "./server-processes";
import { INITIALIZE_PARAMS, pipelined, populateWireVault } from "./wire";
import { makeTempDir } from "../tests/helpers/temp-dir";

/** Issue 17: journaling adds at most 5 % to a call. */
export const JOURNAL_MAX_RATIO = 1.05;

/** The same call to headless hosts without a journal (`raw`) and with one (`bridge`), interleaved. */
export interface JournalCostFigures {
	/** A vault tool over the relay (`vaultTools/call` read_note), as the stdio server forwards it. */
	vaultToolCall: InterleavedComparison;
	/** An IDE tool (`tools/call getDiagnostics {uri}`). */
	ideToolCall: InterleavedComparison;
	/**
	 * Each arm's CPU time (all threads, from /proc's schedstat) per call over both comparisons, in µs, without and
	 * with a journal; undefined without /proc. Unlike a round trip, it does not grow when other processes compete.
	 */
	cpuPerCall?: { raw: number; bridge: number };
	/** Whether the "with" arm kept no journal either (`nullCheck`): then every ratio should read 1.00. */
	nullCheck: boolean;
}

export interface JournalCostOptions {
	/** Samples scale (1 = the full run). */
	scale?: number;
	/** Extra node flags for every host, e.g. --cpu-prof. */
	nodeFlags?: readonly string[];
	/** Whether every host first answers JIT_WARM_UP_CALLS calls of each tool (default true). */
	jitWarmUp?: boolean;
	/** Both arms without a journal: what the measurement reads when there is nothing to find. */
	nullCheck?: boolean;
}

const NOTE = join("Area 0", "Topic 1.md");
/** Calls of each tool each host answers before the rows (see `measureJournalCost`). */
const JIT_WARM_UP_CALLS = 3000;
/** Hosts in each arm: a host unlike its twin (its compiled code, its heap) moves one pair's ratio, not the run's. */
const HOSTS_PER_ARM = 2;

/**
 * Hosts on the same vault, each in its own process, all pinned to the same core (server-processes.ts), half of
 * them keeping a journal (each in its own temp data folder) and half given a data folder inside the vault, which
 * the host refuses (journal-folder.ts), so they keep none. They start in the order without, with, with, without;
 * each answers the same warm-up calls; then the arms are timed in many short interleaved batches (`interleave`),
 * so that neither arm is favoured by when it ran, which process started first, or which host it is. Only the host
 * being timed runs (the others are stopped, SIGSTOP): a journal's timed write then lands in its own arm's batches.
 */
export async function measureJournalCost(options: JournalCostOptions = {}): Promise<JournalCostFigures> {
	const scale = options.scale ?? 1;
	const nodeFlags = options.nodeFlags ?? [];
	const nullCheck = options.nullCheck === true;
	const temp = makeTempDir("journal-cost");
	const vault = join(temp.path, "vault");
	populateWireVault(vault);
	const servers: ServerProcess[] = [];
	const clients: RpcClient[] = [];
	try {
		const start = async (
			journal: boolean,
			index: number,
		): Promise<{ server: ServerProcess; client: RpcClient }> => {
			const dataHome = journal ? join(temp.path, `data-${index}`) : join(vault, ".no-journal");
			const server = await startHeadless({ vaultPath: vault, env: { XDG_DATA_HOME: dataHome }, nodeFlags });
			servers.push(server);
			const client = await RpcClient.connect(server.port, server.token);
			clients.push(client);
			await client.call("initialize", INITIALIZE_PARAMS);
			client.notify("notifications/initialized");
			return { server, client };
		};
		// Started without, with, with, without (and so on): neither arm always starts first.
		const raw: { server: ServerProcess; client: RpcClient }[] = [];
		const bridge: { server: ServerProcess; client: RpcClient }[] = [];
		for (let index = 0; index < HOSTS_PER_ARM; index++) {
			const pair = index % 2 === 0 ? ([false, true] as const) : ([true, false] as const);
			for (const journal of pair) {
				if (journal) bridge.push(await start(!nullCheck, index));
				else raw.push(await start(false, index));
			}
		}
		for (const server of servers) await untilIdle(server.pid);
		const vaultTool = { name: "read_note", arguments: { path: NOTE } };
		const ideTool = { name: "getDiagnostics", arguments: { uri: pathToFileURL(join(vault, NOTE)).href } };
		const plan: InterleavePlan = {
			batches: Math.max(8, Math.round(400 * scale)),
			callsPerBatch: 4,
			warmUpBatches: Math.max(2, Math.round(20 * scale)),
		};
		if (options.jitWarmUp !== false) {
			// As in the wire rows: every host answers the same calls first (16 in flight, not timed), so the rows time
			// compiled code. Few enough that a journal stays under its 10,000-call bound (no compaction in the rows).
			const calls = Math.max(100, Math.round(JIT_WARM_UP_CALLS * scale));
			for (const client of clients) {
				await pipelined(client, "vaultTools/call", vaultTool, calls);
				await pipelined(client, "tools/call", ideTool, calls);
			}
			for (const server of servers) await untilIdle(server.pid);
		}
		const cpuOf = (arm: readonly { server: ServerProcess }[]): number | undefined => {
			let sum = 0;
			for (const { server } of arm) {
				const us = processRunUs(server.pid);
				if (us === undefined) return undefined;
				sum += us;
			}
			return sum;
		};
		const cpuBefore = [cpuOf(raw), cpuOf(bridge)];
		const timed = (arm: readonly { server: ServerProcess; client: RpcClient }[], method: string, params: object) =>
			arm.map(({ server, client }) => ({
				call: () => timedRequest(client, method, params),
				...(process.platform === "win32"
					? {}
					: {
							pause: () => process.kill(server.pid, "SIGSTOP"),
							resume: () => process.kill(server.pid, "SIGCONT"),
						}),
			}));
		const vaultToolCall = await interleave(
			plan,
			timed(raw, "vaultTools/call", vaultTool),
			timed(bridge, "vaultTools/call", vaultTool),
		);
		const ideToolCall = await interleave(
			plan,
			timed(raw, "tools/call", ideTool),
			timed(bridge, "tools/call", ideTool),
		);
		const cpuAfter = [cpuOf(raw), cpuOf(bridge)];
		const calls = 2 * HOSTS_PER_ARM * (plan.warmUpBatches + plan.batches) * plan.callsPerBatch;
		const perCall = (index: number): number | undefined => {
			const before = cpuBefore[index];
			const after = cpuAfter[index];
			return before === undefined || after === undefined ? undefined : Math.round((after - before) / calls);
		};
		const rawCpu = perCall(0);
		const bridgeCpu = perCall(1);
		// The comparison means something only if one arm journaled and the other did not.
		const journaled = bridge.map((_host, index) =>
			existsSync(join(temp.path, `data-${index}`, "claude-code-bridge", "journal")),
		);
		if (!nullCheck && journaled.some((wrote) => !wrote)) throw new Error("A host with a journal wrote none");
		if (existsSync(join(vault, ".no-journal")))
			throw new Error("A host without a journal made a data folder in the vault");
		return {
			vaultToolCall,
			ideToolCall,
			...(rawCpu !== undefined && bridgeCpu !== undefined
				? { cpuPerCall: { raw: rawCpu, bridge: bridgeCpu } }
				: {}),
			nullCheck,
		};
	} finally {
		await Promise.all(clients.map((client) => client.close()));
		await Promise.all(servers.map((server) => server.stop()));
		temp.remove();
	}
}
