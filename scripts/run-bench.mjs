/**
 * Runs a TypeScript benchmark: bundles the entry (and everything it imports, including the built main.js and the
 * hand-written `obsidian` stub it is loaded with) into a temporary .cjs with esbuild, then runs it with
 * `node --expose-gc` from the repository root. The raw `ws` floor (bench/raw-server.ts) is bundled apart into its own
 * small script, whose path the benchmark gets in CCB_BENCH_RAW_SERVER, and so is the light host a plugin-load sample
 * runs in (bench/plugin-load-host.ts, CCB_BENCH_PLUGIN_HOST). Usage: node scripts/run-bench.mjs bench/bench.ts [arguments for the benchmark]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
	process.stderr.write("Usage: node scripts/run-bench.mjs <entry.ts> [arguments]\n");
	process.exit(2);
}

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const outDir = mkdtempSync(join(tmpdir(), "ccb-bench-run-"));
const outfile = join(outDir, "bench.cjs");
/** The raw floor runs as its own small process: bundled apart, with nothing but `ws`. */
const rawServerFile = join(outDir, "raw-server.cjs");
/** The light host a plugin-load sample runs in (bench/plugin-load-host.ts): the obsidian stand-in and nothing else. */
const pluginHostFile = join(outDir, "plugin-load-host.cjs");
const cleanUp = () => rmSync(outDir, { recursive: true, force: true });

// As in esbuild.config.mjs: ws must not look for its optional native add-ons.
const wsDefines = { "process.env.WS_NO_BUFFER_UTIL": '"1"', "process.env.WS_NO_UTF_8_VALIDATE": '"1"' };

try {
	await esbuild.build({
		entryPoints: [join(root, "bench/raw-server.ts")],
		outfile: rawServerFile,
		bundle: true,
		platform: "node",
		format: "cjs",
		target: "es2022",
		minify: true,
		logLevel: "warning",
		define: wsDefines,
	});
	await esbuild.build({
		entryPoints: [join(root, "bench/plugin-load-host.ts")],
		outfile: pluginHostFile,
		bundle: true,
		platform: "node",
		format: "cjs",
		target: "es2022",
		logLevel: "warning",
		external: ["@codemirror/*", "@lezer/*", "jsdom"],
	});
	await esbuild.build({
		entryPoints: [resolve(entry)],
		outfile,
		bundle: true,
		platform: "node",
		format: "cjs",
		target: "es2022",
		logLevel: "warning",
		alias: { obsidian: join(root, "tests/__mocks__/obsidian.ts") },
		// Obsidian provides CodeMirror already loaded; the benchmark loads it from node_modules (NODE_PATH below).
		external: ["@codemirror/*", "@lezer/*", "jsdom"],
		define: wsDefines,
	});
} catch {
	cleanUp();
	process.exit(1);
}

const child = spawn(process.execPath, ["--expose-gc", outfile, ...args], {
	cwd: root,
	stdio: "inherit",
	env: {
		...process.env,
		NODE_PATH: join(root, "node_modules"),
		CCB_BENCH_RAW_SERVER: rawServerFile,
		CCB_BENCH_PLUGIN_HOST: pluginHostFile,
	},
});
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
child.on("exit", (code, signal) => {
	cleanUp();
	process.exit(code ?? (signal ? 1 : 0));
});
