import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { buildPluginWithLazyChunks } from "./build/plugin-lazy-chunks.mjs";

const production = process.argv[2] === "production";

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const shared = {
	bundle: true,
	// platform "node": otherwise `ws` resolves to its browser stub, which throws at runtime.
	platform: "node",
	format: "cjs",
	target: "es2022",
	logLevel: "info",
	sourcemap: production ? false : "inline",
	treeShaking: true,
	minify: production,
};

/** The plugin's bundle (main.js); scripts/plugin-bundle-report.mjs builds it in memory to check its size. */
export const plugin = {
	...shared,
	entryPoints: ["main.ts"],
	outfile: "main.js",
	external: ["obsidian", "electron", "@codemirror/*", "@lezer/*", ...nodeBuiltins],
	// ws tries optional native add-ons; they are not needed and must not be bundled.
	define: { "process.env.WS_NO_BUFFER_UTIL": '"1"', "process.env.WS_NO_UTF_8_VALIDATE": '"1"' },
	// One "use strict" for the whole file, which makes every function in it strict: tsconfig's `strict` (so
	// `alwaysStrict`) would have esbuild repeat the directive in each of the ~120 modules it wraps for the lazy import.
	tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
	banner: { js: '"use strict";' },
};

const headless = {
	...shared,
	entryPoints: ["src/headless/main.ts"],
	outfile: "dist/headless.cjs",
	external: [...nodeBuiltins],
	define: plugin.define,
};

/** The package's command (`bin`): `claude-code-bridge serve` (the headless host) and `claude-code-bridge mcp --vault DIR`. */
const cli = {
	...shared,
	entryPoints: ["src/cli/main.ts"],
	outfile: "dist/cli.cjs",
	external: [...nodeBuiltins],
	// `claude-code-bridge --version`
	define: {
		...plugin.define,
		PACKAGE_VERSION: JSON.stringify(
			JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version,
		),
	},
	banner: { js: "#!/usr/bin/env node" },
};

/** Writes a file by rename, so a process loading it meanwhile never reads half of it. */
function writeAtomically(path, contents) {
	mkdirSync(dirname(path), { recursive: true });
	const temp = `${path}.${process.pid}.tmp`;
	// Executable, so the `bin` runs without `node` in front of it.
	writeFileSync(temp, contents, { mode: path.endsWith(".cjs") ? 0o755 : 0o644 });
	renameSync(temp, path);
}

/** Builds once and replaces each output by rename. */
async function buildAtomically(options) {
	const result = await esbuild.build({ ...options, write: false });
	for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
}

/** main.js with the code only `import()` reaches kept as strings until first used (build/plugin-lazy-chunks.mjs). */
async function buildPlugin() {
	writeAtomically(plugin.outfile, await buildPluginWithLazyChunks(plugin));
}

// Run, it builds; imported (by the size check) it only declares the options.
const run = process.argv[1] === fileURLToPath(import.meta.url);
if (run && (production || process.argv.includes("--once"))) {
	await Promise.all([buildPlugin(), buildAtomically(headless), buildAtomically(cli)]);
} else if (run) {
	const contexts = await Promise.all([esbuild.context(plugin), esbuild.context(headless), esbuild.context(cli)]);
	await Promise.all(contexts.map((context) => context.watch()));
}
