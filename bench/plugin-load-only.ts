/**
 * `node scripts/run-bench.mjs bench/plugin-load-only.ts [runs]`: only the plugin start-up step of `npm run bench`
 * (require of the built main.js and onload, against the obsidian stub, each in a fresh process); writes nothing.
 * Build main.js first (`npm run build`).
 */
import { loadavg } from "node:os";
import { PLUGIN_LOAD_ROLE, measurePluginLoad, pluginLoadChild } from "./plugin-load";

async function main(): Promise<void> {
	const [role, argument = ""] = process.argv.slice(2);
	if (role === PLUGIN_LOAD_ROLE) return pluginLoadChild(argument);
	const runs = Number(role ?? "20");
	const load = loadavg()[0]?.toFixed(2) ?? "?";
	const result = await measurePluginLoad(runs);
	const show = (name: string, summary: { median: number; max: number }): string =>
		`${name}: median ${summary.median.toFixed(2)} ms, max ${summary.max.toFixed(2)} ms`;
	process.stdout.write(
		[
			`load average at start ${load}, ${runs} fresh processes`,
			show("require(main.js) wall", result.requireMs),
			show("require(main.js) CPU", result.requireCpuMs),
			show("onload wall", result.onloadMs),
			show("onload CPU", result.onloadCpuMs),
			show("layout ready → listening", result.layoutReadyToListeningMs),
		].join("\n") + "\n",
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`plugin-load-only failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
