import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from /proc/<pid>/stat (Linux); undefined
 * elsewhere. Unlike a round trip, it does not grow when other processes compete for the cores.
 */
export function processCpuMs(pid: number): number | undefined {
	try {
		return statCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return undefined;
	}
}

/** CPU time (user + system, ms) of a process's main thread and of all its other threads; undefined without /proc. */
export function threadCpuMs(pid: number): { main: number; others: number } | undefined {
	try {
		let main = 0;
		let others = 0;
		for (const tid of readdirSync(`/proc/${pid}/task`)) {
			const ms = statCpuMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")) ?? 0;
			if (tid === String(pid)) main += ms;
			else others += ms;
		}
		return { main, others };
	} catch {
		return undefined;
	}
}

/** User + system time of a /proc `stat` line, in ms. */
function statCpuMs(stat: string): number | undefined {
	// Fields after the command name (which may hold spaces), counted from field 3: utime is 14, stime 15.
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	const ticks = Number(fields[11]) + Number(fields[12]);
	return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/**
 * Waits until a process has used no CPU for `quietMs` (e.g. the headless host's background parse of the vault at
 * start is over), so that work does not land in the first samples. Gives up after `maxMs`; without /proc, returns.
 */
export async function untilIdle(pid: number, quietMs = 300, maxMs = 30_000): Promise<void> {
	const deadline = performance.now() + maxMs;
	let last = processCpuMs(pid);
	while (last !== undefined && performance.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, quietMs));
		const now = processCpuMs(pid);
		if (now === undefined || now === last) return;
		last = now;
	}
}

/**
 * CPU time all of a process's threads have run, in µs, from /proc/<pid>/task/<tid>/schedstat (nanoseconds, not the
 * 10 ms ticks of `stat`); undefined without /proc. Threads that ended are not counted (a Node process keeps its
 * threads).
 */
export function processRunUs(pid: number): number | undefined {
	try {
		let ns = 0;
		for (const tid of readdirSync(`/proc/${pid}/task`))
			ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
		return Number.isFinite(ns) ? ns / 1000 : undefined;
	} catch {
		return undefined;
	}
}
