/** One cold load of a built main.js in a fresh light process (bench/plugin-load-host.ts). */
export interface PluginLoadSample {
	/** Evaluating main.js (Obsidian's require of the plugin). */
	requireMs: number;
	/** The same, in CPU time (user + system) of the process: unaffected by other work on the machine. */
	requireCpuMs: number;
	/** plugin.load() until the async onload() settled. */
	onloadMs: number;
	onloadCpuMs: number;
	/** Layout ready until the status bar says listening (server, lock file); NaN when not asked for. */
	layoutReadyToListeningMs: number;
	/** onload start to listening, with layout ready right after onload; NaN when not asked for. */
	onloadToListeningMs: number;
}
