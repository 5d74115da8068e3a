/** One cold load of a built main.js in a fresh light process (bench/plugin-load-host.ts). */
export interface PluginLoadSample {
	/** Evaluating main.js (Obsidian's require of the plugin). */
	requireMs: number;
	/**
	 * The same, in CPU time of the thread main.js loads on (Linux: /proc/thread-self/schedstat; elsewhere the whole
	 * process's user + system): little moved by other work on the machine, and not by V8's helper threads.
	 */
	requireCpuMs: number;
	/** plugin.load() until the async onload() settled. */
	onloadMs: number;
	onloadCpuMs: number;
	/** Which clock the two CPU figures read: "main thread" or, where that is missing, "process". */
	cpuClock: "main thread" | "process";
	/** Layout ready until the status bar says listening (server, lock file); NaN when not asked for. */
	layoutReadyToListeningMs: number;
	/** onload start to listening, with layout ready right after onload; NaN when not asked for. */
	onloadToListeningMs: number;
}
