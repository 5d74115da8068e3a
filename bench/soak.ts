/**
 * `npm run soak -- --seconds N` (default 60; not in CI): 10 clients send mixed requests and notifications to the
 * bridge while the editor side sends selections and tags; one client reconnects at every sample. Samples RSS,
 * heap (after GC) and active handles every few seconds and reports their growth. Clients run in this process,
 * so the figures include them; a leak in the bridge still shows as growth. Everything stays on 127.0.0.1.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { selectionSnapshot } from "../src/ide/workspace/selection";
import { startBenchBridge, type BenchBridge } from "./bench-bridge";
import { CONNECTION_CLOSED, RpcClient } from "./rpc-client";
import { benchNotePath, generateLinkedVault } from "./vault-generator";
import { errorStack } from "../src/shared/describe-error";

const CLIENTS = 10;

interface SoakOptions {
	seconds: number;
	sampleSeconds: number;
	/** At most this many requests per second per client. */
	rate: number;
}

interface Sample {
	second: number;
	rssMiB: number;
	heapMiB: number;
	handles: number;
	requests: number;
	errors: number;
}

function readOptions(args: readonly string[]): SoakOptions {
	const value = (name: string, fallback: number): number => {
		const index = args.indexOf(`--${name}`);
		const parsed = index >= 0 ? Number(args[index + 1]) : fallback;
		if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} needs a positive number`);
		return parsed;
	};
	return { seconds: value("seconds", 60), sampleSeconds: value("sample-seconds", 5), rate: value("rate", 100) };
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function mib(bytes: number): number {
	return Math.round((bytes / 2 ** 20) * 10) / 10;
}

class Traffic {
	requests = 0;
	errors = 0;
	private turn = 0;

	constructor(
		private readonly noteUri: string,
		private readonly notePath: string,
	) {}

	/** The next request or notification of the mix. */
	async next(client: RpcClient): Promise<void> {
		const turn = this.turn++ % 8;
		if (turn === 7) {
			client.notify("notifications/cancelled", { requestId: this.turn, reason: "soak" });
			return;
		}
		const [method, params] = this.request(turn);
		const answer = await client.request(method, params);
		this.requests++;
		if (answer.error && answer.error.code !== CONNECTION_CLOSED) this.errors++;
	}

	private request(turn: number): [string, object | undefined] {
		switch (turn) {
			case 0:
				return ["ping", undefined];
			case 1:
				return ["tools/list", {}];
			case 2:
				return ["tools/call", { name: "getDiagnostics", arguments: { uri: this.noteUri } }];
			case 3:
				return ["files/read", { path: this.notePath }];
			case 4:
				return ["resources/list", {}];
			case 5:
				return ["workspace/selection", {}];
			default:
				return ["tools/call", { name: "getDiagnostics", arguments: {} }];
		}
	}
}

async function openClient(target: BenchBridge): Promise<RpcClient> {
	const client = await RpcClient.connect(target.port, target.token);
	await client.initialize();
	client.notify("ide_connected", { pid: process.pid });
	return client;
}

function sample(second: number, traffic: Traffic): Sample {
	gc?.();
	gc?.();
	const usage = process.memoryUsage();
	return {
		second,
		rssMiB: mib(usage.rss),
		heapMiB: mib(usage.heapUsed),
		handles: process.getActiveResourcesInfo().length,
		requests: traffic.requests,
		errors: traffic.errors,
	};
}

function report(samples: readonly Sample[], handlesBefore: number, handlesAfter: number, seconds: number): string {
	const first = samples[1] ?? samples[0];
	const last = samples.at(-1);
	if (!first || !last) return "No samples.";
	const minutes = (last.second - first.second) / 60 || 1;
	const lines = [
		"| s | RSS (MiB) | heap (MiB) | active handles | requests | error answers |",
		"|---:|---:|---:|---:|---:|---:|",
		...samples.map(
			(s) => `| ${s.second} | ${s.rssMiB} | ${s.heapMiB} | ${s.handles} | ${s.requests} | ${s.errors} |`,
		),
		"",
		`Growth from the first sample after warm-up (${first.second} s) to the last (${last.second} s): RSS ${(last.rssMiB - first.rssMiB).toFixed(1)} MiB, heap ${(last.heapMiB - first.heapMiB).toFixed(1)} MiB (${((last.heapMiB - first.heapMiB) / minutes).toFixed(2)} MiB/min), handles ${last.handles - first.handles}.`,
		`Active handles before the bridge started: ${handlesBefore}; after everything stopped: ${handlesAfter}. ${last.requests} requests in ${seconds} s.`,
	];
	return lines.join("\n");
}

async function main(): Promise<void> {
	const options = readOptions(process.argv.slice(2));
	const handlesBefore = process.getActiveResourcesInfo().length;
	const target = await startBenchBridge((vaultPath) => generateLinkedVault(vaultPath, 200));
	const notePath = benchNotePath(1);
	const absoluteNote = join(target.vaultPath, notePath);
	const traffic = new Traffic(pathToFileURL(absoluteNote).href, notePath);
	const clients: (RpcClient | undefined)[] = await Promise.all(
		Array.from({ length: CLIENTS }, () => openClient(target)),
	);
	const start = Date.now();
	const deadline = start + options.seconds * 1000;
	const running = () => Date.now() < deadline;
	process.stderr.write(
		`soak: ${CLIENTS} clients for ${options.seconds} s, at most ${options.rate} requests/s each\n`,
	);

	const lane = async (index: number): Promise<void> => {
		while (running()) {
			const client = clients[index];
			if (client) await traffic.next(client);
			await sleep(1000 / options.rate);
		}
	};
	let editorEvents = 0;
	const editor = setInterval(() => {
		const line = editorEvents++;
		if (line % 5 === 4) target.bridge.notifier.mention({ filePath: absoluteNote, lineStart: 0, lineEnd: 2 });
		else {
			target.bridge.notifier.selectionChanged(
				selectionSnapshot(
					absoluteNote,
					`line ${line}`,
					{ line: line % 10, character: 0 },
					{ line: line % 10, character: 4 },
				),
			);
			target.bridge.notifier.flush();
		}
	}, 50);
	const samples: Sample[] = [sample(0, traffic)];
	const sampler = (async () => {
		for (let index = 0; running(); index++) {
			await sleep(Math.min(options.sampleSeconds * 1000, Math.max(0, deadline - Date.now())));
			// Churn: one client leaves and a new one takes its place; the old session must be freed.
			const churned = index % CLIENTS;
			const leaving = clients[churned];
			clients[churned] = undefined;
			await leaving?.close();
			while (target.bridge.host.status().clients.length >= CLIENTS) await sleep(5);
			clients[churned] = await openClient(target);
			samples.push(sample(Math.round((Date.now() - start) / 1000), traffic));
			process.stderr.write(`soak: ${JSON.stringify(samples.at(-1))}\n`);
		}
	})();
	await Promise.all([...clients.map((_client, index) => lane(index)), sampler]);
	clearInterval(editor);
	await Promise.all(clients.flatMap((client) => (client ? [client.close()] : [])));
	await target.stop();
	await sleep(100);
	const handlesAfter = process.getActiveResourcesInfo();
	process.stdout.write(
		`\n${report(samples, handlesBefore, handlesAfter.length, options.seconds)} Left: ${handlesAfter.join(", ") || "none"}.\n`,
	);
}

main().catch((error: unknown) => {
	process.stderr.write(`soak failed: ${errorStack(error)}\n`);
	process.exit(1);
});
