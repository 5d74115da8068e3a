import { fork, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startBenchBridge } from "./bench-bridge";
import { RawServer } from "./raw-server";
import { RpcClient } from "./rpc-client";

export const MEMORY_ROLE = "--role=memory";

export interface MemoryReading {
	rss: number;
	heapUsed: number;
	external: number;
}

export interface IdleMemory {
	connections: number;
	/** Growth of the server process from no client to `connections` idle, initialized clients, in bytes. */
	bridge: MemoryReading;
	raw: MemoryReading;
}

type ServerKind = "bridge" | "raw";
type ChildReport = { kind: "ready"; port: number; token: string } | { kind: "memory"; reading: MemoryReading };

function reading(): MemoryReading {
	gc?.();
	gc?.();
	const usage = process.memoryUsage();
	return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external };
}

/** In the child: runs one server alone in its process and reports its memory when asked. */
export async function memoryChild(kind: ServerKind): Promise<void> {
	const server =
		kind === "bridge"
			? await startBenchBridge((vaultPath) => writeFileSync(join(vaultPath, "Welcome.md"), "# Welcome\n"))
			: await RawServer.start();
	const token = "token" in server ? server.token : "unused";
	process.on("message", (message) => {
		if (message === "measure") process.send?.({ kind: "memory", reading: reading() } satisfies ChildReport);
		else void server.stop().then(() => process.exit(0));
	});
	process.send?.({ kind: "ready", port: server.port, token } satisfies ChildReport);
}

function nextReport(child: ChildProcess): Promise<ChildReport> {
	return new Promise((resolve) => child.once("message", (message) => resolve(message as ChildReport)));
}

async function measureFromOutside(kind: ServerKind, connections: number): Promise<MemoryReading> {
	const child = fork(process.argv[1] ?? "", [MEMORY_ROLE, kind], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	try {
		const ready = await nextReport(child);
		if (ready.kind !== "ready") throw new Error("The memory child did not start");
		const measure = async (): Promise<MemoryReading> => {
			const report = nextReport(child);
			child.send("measure");
			const answer = await report;
			if (answer.kind !== "memory") throw new Error("The memory child did not report");
			return answer.reading;
		};
		const before = await measure();
		const clients = await Promise.all(Array.from({ length: connections }, () => RpcClient.connect(ready.port, ready.token)));
		await Promise.all(clients.map((client) => client.initialize()));
		for (const client of clients) client.notify("ide_connected", { pid: process.pid });
		// Past the bridge's welcome delay, so each client's welcome has been sent.
		await new Promise((resolve) => setTimeout(resolve, 600));
		const after = await measure();
		await Promise.all(clients.map((client) => client.close()));
		return { rss: after.rss - before.rss, heapUsed: after.heapUsed - before.heapUsed, external: after.external - before.external };
	} finally {
		child.send("quit");
		await exited;
	}
}

/** Server memory growth with idle connections, each server alone in a child process, bridge and raw floor. */
export async function measureIdleMemory(connections: number): Promise<IdleMemory> {
	return { connections, bridge: await measureFromOutside("bridge", connections), raw: await measureFromOutside("raw", connections) };
}
