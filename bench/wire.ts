import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alternate, type AlternationPlan, type Comparison } from "./alternation";
import { startBenchBridge } from "./bench-bridge";
import { timedRequest, measureToolWork } from "./round-trips";
import { warmUntilSteady, type WarmUp } from "./jit-warm-up";
import { processCpuMs, untilIdle } from "./process-cpu";
import { RpcClient } from "./rpc-client";
import { startHeadless, startRawServer, type ServerProcess } from "./server-processes";
import { elapsedMs, round, type Summary } from "./stats";
import { measureThroughput, type Throughput } from "./throughput";
import { generateLinkedVault, writeLargeNote } from "./vault-generator";
import { makeTempDir } from "../tests/helpers/temp-dir";

export const LARGE_NOTE_BYTES = 1024 * 1024;
const THROUGHPUT_CLIENTS = 10;
/** A short note the `select` command selects in (written at setup, so the editor stand-in keeps its text). */
const SELECTION_NOTE = "Selection.md";
const SELECTION_TEXT = "# Selection\n\nThe first line of text to select.\nA second line, selected in turn.\n";
/** Two ranges in turn: the notifier drops a selection equal to the last one it sent. */
const SELECTION_RANGES = ["2:4 2:15", "3:2 3:21"] as const;

export const INITIALIZE_PARAMS = {
	protocolVersion: "2025-11-25",
	capabilities: {},
	clientInfo: { name: "bench", version: "1.0.0" },
};

export interface ToolCallFigures {
	comparison: Comparison;
	/** The tool itself, called in process in a tight loop (no wire): warm caches, so a lower bound. */
	work: Summary;
}

/** Server CPU time (user + system, from /proc) per call with 16 in flight, in µs; undefined without /proc. */
export interface HostCpu {
	bridge: number | undefined;
	raw: number | undefined;
}

export interface HostCpuFigures {
	ping: HostCpu;
	getWorkspaceFolders: HostCpu;
	getDiagnosticsNote: HostCpu;
	/** Per files/read of the 1 MiB note, 16 in flight. */
	filesRead1MiB: HostCpu;
	/** Per stdin line: the headless `select` command (the whole editor stand-in and the push) vs the floor's push. */
	selectionPush: HostCpu;
}

export interface WireFigures {
	ping: Comparison;
	/** A trivial tool: what a tools/call costs beyond ping. */
	getWorkspaceFolders: ToolCallFigures;
	getDiagnosticsNote: ToolCallFigures;
	filesRead1MiB: Comparison;
	selectionChanged: Comparison;
	hostCpu: HostCpuFigures;
	atMentioned: Comparison;
	throughput: Throughput;
	/** The warm-up before the timed rows; absent when it was turned off. */
	warmUp?: WarmUp;
}

export interface WireOptions {
	/** Node flags for the headless host and the floor, e.g. --cpu-prof. */
	bridgeNodeFlags?: readonly string[];
	rawNodeFlags?: readonly string[];
	/** Samples scale (1 = the full run). */
	scale?: number;
	/**
	 * Whether both sides first answer warm-up rounds (bench/jit-warm-up.ts); default true. `--no-jit-warm-up` turns it
	 * off, to compare with runs made before it existed.
	 */
	jitWarmUp?: boolean;
}

/** The vault the wire benchmarks run against: 100 linked notes, a 1 MiB note and a short note to select in. */
export function populateWireVault(vaultPath: string): void {
	generateLinkedVault(vaultPath, 100);
	writeLargeNote(join(vaultPath, "Large.md"), LARGE_NOTE_BYTES);
	writeFileSync(join(vaultPath, SELECTION_NOTE), SELECTION_TEXT);
}

/**
 * Asks the bridge once and hands its answer's exact text to the floor, which from then on sends those bytes (with
 * the request's id) for the same method and params.
 */
export async function canAnswer(
	bridge: RpcClient,
	floor: ServerProcess,
	method: string,
	params?: object,
): Promise<void> {
	const answer = await bridge.requestText(method, params);
	const parsed = JSON.parse(answer) as { error?: { message: string } };
	if (parsed.error) throw new Error(`${method} failed on the bridge: ${parsed.error.message}`);
	const canned = floor.nextLine((line) => line === "canned");
	floor.send(JSON.stringify({ can: { method, params, answer } }));
	await canned;
}

/** Gives the floor the notification text it pushes on each "push" line. */
async function keepNotification(floor: ServerProcess, text: string): Promise<void> {
	const kept = floor.nextLine((line) => line === "kept");
	floor.send(JSON.stringify({ notification: text }));
	await kept;
}

/** A client of each side, initialized; the floor's initialize answer is the bridge's, canned. */
export async function connectPair(
	bridgeServer: ServerProcess,
	floor: ServerProcess,
	count: number,
): Promise<{ bridge: RpcClient[]; raw: RpcClient[] }> {
	const bridge = await Promise.all(
		Array.from({ length: count }, () => RpcClient.connect(bridgeServer.port, bridgeServer.token)),
	);
	const raw = await Promise.all(Array.from({ length: count }, () => RpcClient.connect(floor.port, floor.token)));
	for (const client of [...bridge, ...raw]) {
		await client.call("initialize", INITIALIZE_PARAMS);
		client.notify("notifications/initialized");
	}
	return { bridge, raw };
}

/** Milliseconds from writing `line` to the server's stdin to the client receiving the next `method` notification. */
async function timedPush(client: RpcClient, server: ServerProcess, method: string, line: string): Promise<number> {
	const received = client.nextNotification(method);
	const start = performance.now();
	server.send(line);
	await received;
	return elapsedMs(start);
}

/** Waits until the bridge reports no clients (its `status` command), so the next ones fit under its limit. */
export async function untilNoClients(bridgeServer: ServerProcess): Promise<void> {
	for (;;) {
		const statusLine = bridgeServer.nextLine((line) => line.startsWith("{") && line.includes('"clients"'));
		bridgeServer.send("status");
		const status = JSON.parse(await statusLine) as { clients: unknown[] };
		if (status.clients.length === 0) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

function plan(scale: number, rounds: number, samplesPerRound: number, warmUp: number): AlternationPlan {
	return {
		rounds,
		samplesPerRound: Math.max(1, Math.round(samplesPerRound * scale)),
		warmUp: Math.max(1, Math.round(warmUp * scale)),
	};
}

/** The tools' own work, in this process in a tight loop, on a vault generated the same way. */
async function inProcessWork(runs: number): Promise<{ folders: Summary; diagnostics: Summary }> {
	const target = await startBenchBridge(populateWireVault);
	try {
		const context = { sessionId: 0, signal: new AbortController().signal };
		const tool = (name: string) => {
			const found = target.bridge.tools.find(name);
			if (!found) throw new Error(`${name} is not registered`);
			return found;
		};
		const folders = tool("getWorkspaceFolders");
		const diagnostics = tool("getDiagnostics");
		const noteInBenchVault = pathToFileURL(join(target.vaultPath, "Area 0", "Topic 1.md")).href;
		return {
			folders: await measureToolWork(() => folders.call({}, context), runs),
			diagnostics: await measureToolWork(() => diagnostics.call({ uri: noteInBenchVault }, context), runs),
		};
	} finally {
		await target.stop();
	}
}

interface Sides {
	bridgeServer: ServerProcess;
	floor: ServerProcess;
	bridge: RpcClient;
	raw: RpcClient;
}

/** CPU a server process used (µs) per call while `run` made `count` calls; undefined without /proc. */
async function cpuPerCall(pid: number, count: number, run: () => Promise<void>): Promise<number | undefined> {
	const before = processCpuMs(pid);
	await run();
	const after = processCpuMs(pid);
	return before === undefined || after === undefined ? undefined : round(((after - before) * 1000) / count, 1);
}

/** `count` requests, 16 in flight. */
export async function pipelined(
	client: RpcClient,
	method: string,
	params: object | undefined,
	count: number,
): Promise<void> {
	const window = 16;
	await Promise.all(
		Array.from({ length: window }, async (_unused, lane) => {
			for (let i = lane; i < count; i += window) await timedRequest(client, method, params);
		}),
	);
}

/** Writes `lines` to the server's stdin at once and waits for one `method` notification per line. */
async function burst(
	client: RpcClient,
	server: ServerProcess,
	method: string,
	lines: readonly string[],
): Promise<void> {
	let received = 0;
	const all = new Promise<void>((resolve) => {
		const stop = client.onNotification(method, () => {
			if (++received === lines.length) {
				stop();
				resolve();
			}
		});
	});
	server.send(lines.join("\n"));
	await all;
}

/**
 * Server CPU per call, from /proc, with 16 requests in flight (or a burst of stdin lines for the push): what each
 * side's own code costs, which other work on the machine does not stretch the way it stretches a round trip.
 */
async function measureHostCpu(
	sides: Sides,
	requests: Record<"ping" | "folders" | "diagnostics" | "read", { method: string; params?: object }>,
	scale: number,
	nextSelect: () => string,
): Promise<HostCpuFigures> {
	const calls = Math.max(500, Math.round(20_000 * scale));
	const both = async (request: { method: string; params?: object }, count = calls): Promise<HostCpu> => ({
		raw: await cpuPerCall(sides.floor.pid, count, () =>
			pipelined(sides.raw, request.method, request.params, count),
		),
		bridge: await cpuPerCall(sides.bridgeServer.pid, count, () =>
			pipelined(sides.bridge, request.method, request.params, count),
		),
	});
	const pushes = Math.max(200, Math.round(3000 * scale));
	const selectLines = Array.from({ length: pushes }, nextSelect);
	return {
		ping: await both(requests.ping),
		getWorkspaceFolders: await both(requests.folders),
		getDiagnosticsNote: await both(requests.diagnostics),
		filesRead1MiB: await both(requests.read, Math.max(32, Math.round(400 * scale))),
		selectionPush: {
			raw: await cpuPerCall(sides.floor.pid, pushes, () =>
				burst(
					sides.raw,
					sides.floor,
					"selection_changed",
					Array.from({ length: pushes }, () => "push"),
				),
			),
			bridge: await cpuPerCall(sides.bridgeServer.pid, pushes, () =>
				burst(sides.bridge, sides.bridgeServer, "selection_changed", selectLines),
			),
		},
	};
}

/** Round trips, pushes and throughput: the headless host and the raw floor, each in its own process. */
export async function measureWire(options: WireOptions = {}): Promise<WireFigures> {
	const scale = options.scale ?? 1;
	const temp = makeTempDir("wire");
	populateWireVault(temp.path);
	const bridgeServer = await startHeadless({ vaultPath: temp.path, nodeFlags: options.bridgeNodeFlags });
	const floor = await startRawServer(options.rawNodeFlags);
	try {
		const initializer = await RpcClient.connect(bridgeServer.port, bridgeServer.token);
		await canAnswer(initializer, floor, "initialize", INITIALIZE_PARAMS);
		await initializer.close();
		await untilNoClients(bridgeServer);
		const pair = await connectPair(bridgeServer, floor, 1);
		const [bridge, raw] = [pair.bridge[0], pair.raw[0]];
		if (!bridge || !raw) throw new Error("No client");
		const noteUri = pathToFileURL(join(temp.path, "Area 0", "Topic 1.md")).href;
		const requests = {
			ping: { method: "ping", params: undefined },
			folders: { method: "tools/call", params: { name: "getWorkspaceFolders", arguments: {} } },
			diagnostics: { method: "tools/call", params: { name: "getDiagnostics", arguments: { uri: noteUri } } },
			read: { method: "files/read", params: { path: "Large.md" } },
		};
		for (const request of Object.values(requests)) await canAnswer(bridge, floor, request.method, request.params);
		// The host parses the vault for diagnostics in the background at start: let that finish first.
		await untilIdle(bridgeServer.pid);
		// The note becomes the active one first (that sends its cursor), so each `select` sends one selection.
		const opened = bridge.nextNotification("selection_changed");
		bridgeServer.send(`open ${SELECTION_NOTE}`);
		await opened;
		const selectionText = bridge.nextNotificationText("selection_changed");
		bridgeServer.send(`select ${SELECTION_NOTE} ${SELECTION_RANGES[0]}`);
		const selectionNotification = await selectionText;
		await keepNotification(floor, selectionNotification);
		let selectCount = 1;
		let warmUp: WarmUp | undefined;
		const nextSelect = (): string => `select ${SELECTION_NOTE} ${SELECTION_RANGES[selectCount++ % 2]}`;
		if (options.jitWarmUp ?? true) {
			process.stderr.write("bench:   warm-up (both sides, not timed)\n");
			const count = Math.max(500, Math.round(5000 * scale));
			const reads = Math.max(20, Math.round(100 * scale));
			warmUp = await warmUntilSteady(bridgeServer.pid, async () => {
				for (const client of [bridge, raw]) {
					for (const request of [requests.ping, requests.folders, requests.diagnostics])
						await pipelined(client, request.method, request.params, count);
					await pipelined(client, requests.read.method, requests.read.params, reads);
				}
				await burst(bridge, bridgeServer, "selection_changed", Array.from({ length: count }, nextSelect));
				await burst(
					raw,
					floor,
					"selection_changed",
					Array.from({ length: count }, () => "push"),
				);
				await burst(
					bridge,
					bridgeServer,
					"at_mentioned",
					Array.from({ length: count }, () => `tag ${SELECTION_NOTE} 2 3`),
				);
			});
			process.stderr.write(
				`bench:   warm-up: ${warmUp.rounds} rounds, ${warmUp.steady ? "steady" : "not steady"}\n`,
			);
		}
		const roundTrip = (request: { method: string; params?: object }, alternation: AlternationPlan) =>
			alternate(
				alternation,
				() => timedRequest(raw, request.method, request.params),
				() => timedRequest(bridge, request.method, request.params),
			);
		process.stderr.write("bench:   ping\n");
		const ping = await roundTrip(requests.ping, plan(scale, 40, 50, 300));
		process.stderr.write("bench:   tools/call\n");
		const foldersComparison = await roundTrip(requests.folders, plan(scale, 30, 40, 200));
		const diagnosticsComparison = await roundTrip(requests.diagnostics, plan(scale, 30, 40, 200));
		process.stderr.write("bench:   files/read 1 MiB\n");
		const filesRead1MiB = await roundTrip(requests.read, plan(scale, 12, 4, 6));

		process.stderr.write("bench:   selection_changed, at_mentioned\n");
		const selectionChanged = await alternate(
			plan(scale, 40, 25, 50),
			() => timedPush(raw, floor, "selection_changed", "push"),
			() => timedPush(bridge, bridgeServer, "selection_changed", nextSelect()),
		);
		const mentionText = bridge.nextNotificationText("at_mentioned");
		bridgeServer.send(`tag ${SELECTION_NOTE} 2 3`);
		await keepNotification(floor, await mentionText);
		const atMentioned = await alternate(
			plan(scale, 20, 10, 20),
			() => timedPush(raw, floor, "at_mentioned", "push"),
			() => timedPush(bridge, bridgeServer, "at_mentioned", `tag ${SELECTION_NOTE} 2 3`),
		);
		process.stderr.write("bench:   server CPU per call\n");
		await keepNotification(floor, selectionNotification);
		const hostCpu = await measureHostCpu({ bridgeServer, floor, bridge, raw }, requests, scale, nextSelect);
		await Promise.all([bridge.close(), raw.close()]);
		await untilNoClients(bridgeServer);

		process.stderr.write("bench:   throughput\n");
		const clients = await connectPair(bridgeServer, floor, THROUGHPUT_CLIENTS);
		const throughputPlan = { rounds: 6, roundMs: Math.max(200, Math.round(1000 * scale)), window: 16 };
		const throughput = await measureThroughput(clients.raw, clients.bridge, throughputPlan, {
			raw: floor.pid,
			bridge: bridgeServer.pid,
		});
		await Promise.all([...clients.bridge, ...clients.raw].map((client) => client.close()));

		const work = await inProcessWork(Math.max(50, Math.round(1000 * scale)));
		return {
			ping,
			getWorkspaceFolders: { comparison: foldersComparison, work: work.folders },
			getDiagnosticsNote: { comparison: diagnosticsComparison, work: work.diagnostics },
			filesRead1MiB,
			selectionChanged,
			hostCpu,
			atMentioned,
			throughput,
			...(warmUp ? { warmUp } : {}),
		};
	} finally {
		await floor.stop();
		await bridgeServer.stop();
		temp.remove();
	}
}
