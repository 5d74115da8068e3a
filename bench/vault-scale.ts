import { timedRequest } from "./round-trips";
import { RpcClient } from "./rpc-client";
import { startHeadless } from "./server-processes";
import { elapsedMs, round, summarize, type Summary } from "./stats";
import { generateLinkedVault } from "./vault-generator";
import { INITIALIZE_PARAMS } from "./wire";
import { makeTempDir } from "../tests/helpers/temp-dir";

export interface ColdAndWarm {
	/** The first call after the bridge printed its port (it may still be parsing the vault in the background). */
	coldMs: number;
	warm: Summary;
}

export interface VaultScale {
	notes: number;
	generateMs: number;
	resourcesListFirstPage: ColdAndWarm & { resources: number };
	getDiagnosticsVault: ColdAndWarm & { notesWithProblems: number; answerBytes: number };
}

async function coldAndWarm(client: RpcClient, method: string, params: object, warmRuns: number): Promise<ColdAndWarm> {
	const coldMs = round(await timedRequest(client, method, params), 2);
	const warm: number[] = [];
	for (let run = 0; run < warmRuns; run++) warm.push(await timedRequest(client, method, params));
	return { coldMs, warm: summarize(warm) };
}

/** `resources/list` (first page) and `getDiagnostics {}` over the wire, the headless host in its own process, on a generated vault of `notes` notes. */
export async function measureVaultScale(notes: number, warmRuns: number): Promise<VaultScale> {
	const temp = makeTempDir("vault-scale");
	const start = performance.now();
	generateLinkedVault(temp.path, notes);
	const generateMs = round(elapsedMs(start), 1);
	const target = await startHeadless({ vaultPath: temp.path });
	const client = await RpcClient.connect(target.port, target.token);
	try {
		await client.call("initialize", INITIALIZE_PARAMS);
		client.notify("notifications/initialized");
		const diagnosticsCall = { name: "getDiagnostics", arguments: {} };
		const diagnostics = await coldAndWarm(client, "tools/call", diagnosticsCall, warmRuns);
		const answer = (await client.call("tools/call", diagnosticsCall)) as { content: { text: string }[] };
		const text = answer.content[0]?.text ?? "[]";
		const list = await coldAndWarm(client, "resources/list", {}, warmRuns);
		const page = (await client.call("resources/list", {})) as { resources: unknown[] };
		return {
			notes,
			generateMs,
			resourcesListFirstPage: { ...list, resources: page.resources.length },
			getDiagnosticsVault: {
				...diagnostics,
				notesWithProblems: (JSON.parse(text) as unknown[]).length,
				answerBytes: Buffer.byteLength(text),
			},
		};
	} finally {
		await client.close();
		await target.stop();
		temp.remove();
	}
}
