import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Comparison } from "./alternation";
import { startBenchBridge, type BenchBridge } from "./bench-bridge";
import { measureAtMentioned, measureSelectionChanged } from "./notifications";
import { RawServer } from "./raw-server";
import { measureAgainstCannedAnswer, measureAgainstEcho, measurePing, measureToolWork, type Sides } from "./round-trips";
import { RpcClient } from "./rpc-client";
import type { Summary } from "./stats";
import { measureThroughput, type Throughput } from "./throughput";
import { benchNotePath, generateLinkedVault, writeLargeNote } from "./vault-generator";

export const LARGE_NOTE_BYTES = 1024 * 1024;
const THROUGHPUT_CLIENTS = 10;

export interface WireFigures {
	ping: Comparison;
	getDiagnosticsNote: Comparison;
	/** getDiagnostics {uri} called in process, without the wire. */
	getDiagnosticsNoteToolWork: Summary;
	/** Against the raw server answering the same bytes, canned. */
	filesRead1MiB: Comparison;
	/** Against the raw server echoing the note's text back. */
	filesRead1MiBEcho: Comparison;
	selectionChanged: Comparison;
	atMentioned: Comparison;
	throughput: Throughput;
}

async function connectMany(port: number, token: string, count: number): Promise<RpcClient[]> {
	const clients = await Promise.all(Array.from({ length: count }, () => RpcClient.connect(port, token)));
	await Promise.all(clients.map((client) => client.initialize()));
	return clients;
}

/** Waits until the bridge has seen every client go, so the next ones fit under its connection limit. */
async function untilNoClients(target: BenchBridge): Promise<void> {
	while (target.bridge.host.status().clients.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Round trips, notifications and throughput: the bridge on a small vault and the raw floor, side by side. */
export async function measureWire(): Promise<WireFigures> {
	const target = await startBenchBridge((vaultPath) => {
		generateLinkedVault(vaultPath, 100);
		writeLargeNote(join(vaultPath, "Large.md"), LARGE_NOTE_BYTES);
	});
	const rawServer = await RawServer.start();
	try {
		const [bridge] = await connectMany(target.port, target.token, 1);
		const [raw] = await connectMany(rawServer.port, "unused", 1);
		if (!bridge || !raw) throw new Error("No client");
		const sides: Sides = { raw, bridge, rawServer };
		const note = join(target.vaultPath, benchNotePath(1));
		const ping = await measurePing(sides, { rounds: 6, samplesPerRound: 300, warmUp: 300 });
		const toolCall = { name: "getDiagnostics", arguments: { uri: pathToFileURL(note).href } };
		const getDiagnosticsNote = await measureAgainstCannedAnswer(sides, "tools/call", toolCall, { rounds: 6, samplesPerRound: 100, warmUp: 100 });
		const tool = target.bridge.tools.find("getDiagnostics");
		if (!tool) throw new Error("getDiagnostics is not registered");
		const context = { sessionId: 0, signal: new AbortController().signal };
		const getDiagnosticsNoteToolWork = await measureToolWork(() => tool.call(toolCall.arguments, context), 600);
		const read = { path: "Large.md" };
		const readPlan = { rounds: 6, samplesPerRound: 10, warmUp: 5 };
		const filesRead1MiB = await measureAgainstCannedAnswer(sides, "files/read", read, readPlan);
		const largeText = { text: readFileSync(join(target.vaultPath, "Large.md"), "utf8") };
		const filesRead1MiBEcho = await measureAgainstEcho(sides, "files/read", read, largeText, readPlan);
		const notifications = { rounds: 6, samplesPerRound: 100, warmUp: 50 };
		const selectionChanged = await measureSelectionChanged(sides, target.bridge.notifier, note, notifications);
		const atMentioned = await measureAtMentioned(sides, target.bridge.notifier, note, notifications);
		await Promise.all([bridge.close(), raw.close()]);
		await untilNoClients(target);

		const bridgeClients = await connectMany(target.port, target.token, THROUGHPUT_CLIENTS);
		const rawClients = await connectMany(rawServer.port, "unused", THROUGHPUT_CLIENTS);
		const throughput = await measureThroughput(rawClients, bridgeClients, { rounds: 4, roundMs: 1000, window: 16 });
		await Promise.all([...bridgeClients, ...rawClients].map((client) => client.close()));
		return { ping, getDiagnosticsNote, getDiagnosticsNoteToolWork, filesRead1MiB, filesRead1MiBEcho, selectionChanged, atMentioned, throughput };
	} finally {
		await rawServer.stop();
		await target.stop();
	}
}

