import { threadCpuMs } from "./process-cpu";

/** At most this many warm-up rounds: a host that never settles is measured as it is, and the run says so. */
const MAX_ROUNDS = 6;
/**
 * A round is steady when the other threads' CPU time stopped falling (at least this share of the round before's:
 * what is left is the garbage collector's helpers, which every round keeps busy)...
 */
const PLATEAU_SHARE = 0.8;
/** ...or when they were nearly idle: at most this much (a few clock ticks)... */
const IDLE_OTHERS_MS = 30;
/** ...or at most this share of the main thread's time. */
const IDLE_SHARE = 0.03;

export interface WarmUp {
	/** Rounds run (each one burst). */
	rounds: number;
	/** Whether the other threads' CPU time stopped falling (or was nearly nil) by the last round; false without /proc (one round is run). */
	steady: boolean;
}

/**
 * Runs `burst` (the calls the rows will time, not timed) until V8 has compiled the host's hot code: until the CPU
 * time of the host's other threads, where V8's optimizing compiler runs, stops falling from one round to the next.
 * Timing before that times the compiler: it shares the core the host is pinned to.
 */
export async function warmUntilSteady(pid: number, burst: () => Promise<void>): Promise<WarmUp> {
	let previous: number | undefined;
	for (let round = 1; round <= MAX_ROUNDS; round++) {
		const before = threadCpuMs(pid);
		await burst();
		const after = threadCpuMs(pid);
		if (!before || !after) return { rounds: round, steady: false };
		const main = after.main - before.main;
		const others = after.others - before.others;
		if (process.env.CCB_BENCH_WARM_TRACE)
			process.stderr.write(`warm-up round ${round}: main ${main} ms, others ${others} ms\n`);
		const idle = others <= Math.max(IDLE_OTHERS_MS, main * IDLE_SHARE);
		if (idle || (previous !== undefined && others >= previous * PLATEAU_SHARE))
			return { rounds: round, steady: true };
		previous = others;
	}
	return { rounds: MAX_ROUNDS, steady: false };
}
