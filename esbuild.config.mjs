import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join } from "node:path";
import process from "node:process";
import esbuild from "esbuild";

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

const plugin = {
	...shared,
	entryPoints: ["main.ts"],
	outfile: "main.js",
	external: [
		"obsidian",
		"electron",
		"@codemirror/*",
		"@lezer/*",
		...nodeBuiltins,
	],
	// ws tries optional native add-ons; they are not needed and must not be bundled.
	define: { "process.env.WS_NO_BUFFER_UTIL": "\"1\"", "process.env.WS_NO_UTF_8_VALIDATE": "\"1\"" },
	// yaml's ES-module build (its entry for browsers, which Obsidian's renderer is): the same code, so esbuild can
	// leave out what the plugin never calls. The `node` entry that platform "node" picks is CommonJS and comes whole.
	alias: { yaml: join(dirname(createRequire(import.meta.url).resolve("yaml/package.json")), "browser/index.js") },
	// One "use strict" for the whole file, which makes every function in it strict: tsconfig's `strict` (so
	// `alwaysStrict`) would have esbuild repeat the directive in each of the ~120 modules it wraps for the lazy import.
	tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
	banner: { js: "\"use strict\";" },
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
	define: plugin.define,
	banner: { js: "#!/usr/bin/env node" },
};

/** Builds once and replaces each output by rename, so a process loading main.js meanwhile never reads half a file. */
async function buildAtomically(options) {
	const result = await esbuild.build({ ...options, write: false });
	for (const file of result.outputFiles) {
		mkdirSync(dirname(file.path), { recursive: true });
		const temp = `${file.path}.${process.pid}.tmp`;
		// Executable, so the `bin` runs without `node` in front of it.
		writeFileSync(temp, file.contents, { mode: file.path.endsWith(".cjs") ? 0o755 : 0o644 });
		renameSync(temp, file.path);
	}
}

if (production || process.argv.includes("--once")) {
	await Promise.all([buildAtomically(plugin), buildAtomically(headless), buildAtomically(cli)]);
} else {
	const contexts = await Promise.all([esbuild.context(plugin), esbuild.context(headless), esbuild.context(cli)]);
	await Promise.all(contexts.map((context) => context.watch()));
}
