// Builds main.js so that the code the plugin runs only later (what `import()` reaches: the bridge runtime with `ws`,
// the panel's engine, the doctor, …) is not parsed when Obsidian loads the plugin. Obsidian loads one file, and V8
// pre-parses every function in it at load however little of it runs, so the time of `require(main.js)` followed its
// size (issue 31). Here esbuild first splits the bundle at every `import()` (ESM chunks in memory); the chunks the
// entry imports statically are bundled back into one CommonJS main.js as usual, and each chunk reached only through
// `import()` goes in as a string, compiled the first time it is required. V8 scans a string literal at load about
// eight times faster than it pre-parses the same code (main.js's compile 23 → 10 ms here). A lazy chunk shares the
// modules it needs with the rest of main.js (one instance of each, through a table the entry fills), and its own
// `import()`s and `require`s are answered the same way; everything else goes to the `require` main.js was given.
import { basename } from "node:path";
import esbuild from "esbuild";

const LAZY = "ccb-lazy-chunk";
/** The namespaces of the chunks bundled as code that lazy chunks import, filled by the entry. */
const TABLE = "ccb-chunk-table";
const ENTRY = "ccb-entry";
/**
 * Compiles a lazy chunk where main.js itself runs: a direct `eval` in main.js's outermost scope, outside the bundle's
 * own scope (the bundle runs in a function below it), so a chunk sees what main.js sees (the host's `require`, any
 * name its loader provides) and none of the bundle's minified names. `new Function` would see only the globals.
 */
const COMPILE = "__ccbCompileChunk";
const OPEN = `var ${COMPILE} = function (__ccbChunkSource) { return eval(__ccbChunkSource); };\n(() => {`;
const CLOSE = "})();";
const SPLIT = "ccb-split-chunk";

/** `./name.js` → `name.js`, or undefined when the request is not one of the split build's chunks. */
function chunkName(request, chunks) {
	if (!request.startsWith("./")) return undefined;
	const name = request.slice(2);
	return chunks.has(name) ? name : undefined;
}

/** The chunks the entry reaches by static imports alone: these are bundled as code. */
function eagerChunks(entry, outputs) {
	const eager = new Set([entry]);
	const pending = [entry];
	while (pending.length > 0) {
		const name = pending.pop();
		for (const imported of outputs.get(name).imports) {
			if (imported.external || imported.kind !== "import-statement") continue;
			const target = basename(imported.path);
			if (!eager.has(target)) {
				eager.add(target);
				pending.push(target);
			}
		}
	}
	return eager;
}

/** A lazy chunk's code as a CommonJS module function, its `import()`s turned into `require`s. */
async function lazyChunkSource(name, text, { target, minify }) {
	const result = await esbuild.transform(text, {
		format: "cjs",
		target,
		minify,
		supported: { "dynamic-import": false },
		logLevel: "silent",
	});
	return `(function(module, exports, require) {"use strict";${result.code}\n})\n//# sourceURL=claude-code-bridge/${name}\n`;
}

/**
 * The module a lazy chunk becomes in main.js (CommonJS, so esbuild runs it on first `require`): its source as a
 * string, compiled then, and where its requests for other chunks are answered (a chunk bundled as code through the
 * table, so that chunk stays unwrapped; another lazy chunk by requiring its module).
 */
function lazyChunkModule(source, requests, chunks, eager) {
	const entries = requests.map((request) => {
		const name = chunkName(request, chunks);
		const load =
			name !== undefined && eager.has(name)
				? `() => require(${JSON.stringify(TABLE)}).table[${JSON.stringify(name)}]`
				: `() => require(${JSON.stringify(request)})`;
		return `${JSON.stringify(request)}: ${load}`;
	});
	return [
		`var requests = { ${entries.join(", ")} };`,
		`${COMPILE}(${JSON.stringify(source)})(module, exports, (request) =>`,
		`  Object.hasOwn(requests, request) ? requests[request]() : require(request));`,
	].join("\n");
}

/**
 * The bundle's entry: the split build's entry, after filling the table lazy chunks take the chunks bundled as code
 * from (ESM imports, so those chunks stay unwrapped; only the table, which imports nothing, is wrapped for `require`).
 */
function entryModule(entry, shared) {
	const imports = shared.map((target, index) => `import * as c${index} from ${JSON.stringify(`./${target}`)};`);
	const fills = shared.map((target, index) => `table[${JSON.stringify(target)}] = c${index};`);
	return [
		`import { table } from ${JSON.stringify(TABLE)};`,
		...imports,
		...fills,
		`export * from ${JSON.stringify(`./${entry}`)};`,
		`export { default } from ${JSON.stringify(`./${entry}`)};`,
	].join("\n");
}

/**
 * The requests in a lazy chunk's CommonJS code (its static imports, its former `import()`s, and its externals such
 * as `obsidian`), each answered by a static `require` in main.js, so a build that bundles main.js again (a bench with
 * `obsidian` aliased to the stand-in) sees them too.
 */
function chunkRequests(code) {
	return [...new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]))];
}

/**
 * Builds the plugin's bundle with `options` (esbuild.config.mjs's `plugin`) and returns main.js's contents.
 */
export async function buildPluginWithLazyChunks(options) {
	const { outfile, banner, ...shared } = options;
	const outdir = `${outfile}.chunks`;
	const split = await esbuild.build({
		...shared,
		format: "esm",
		splitting: true,
		outdir,
		write: false,
		metafile: true,
		logLevel: "warning",
	});
	const texts = new Map(split.outputFiles.map((file) => [basename(file.path), file.text]));
	const outputs = new Map(Object.entries(split.metafile.outputs).map(([path, output]) => [basename(path), output]));
	const entry = [...outputs].find(([, output]) => output.entryPoint !== undefined)?.[0];
	if (entry === undefined) throw new Error("The split build has no entry chunk");
	const chunks = new Set(texts.keys());
	const eager = eagerChunks(entry, outputs);
	const lazy = new Map();
	for (const name of chunks) {
		if (eager.has(name)) continue;
		const source = await lazyChunkSource(name, texts.get(name), shared);
		lazy.set(name, { source, requests: chunkRequests(source) });
	}

	const sharedWithLazy = [
		...new Set(
			[...lazy.values()].flatMap(({ requests }) =>
				requests.map((request) => chunkName(request, chunks)).filter((name) => eager.has(name)),
			),
		),
	];
	const chunkLoader = {
		name: "ccb-lazy-chunks",
		setup(build) {
			build.onResolve({ filter: /.*/ }, (args) => {
				if (args.kind === "entry-point") return { path: ENTRY, namespace: ENTRY };
				if (args.path === TABLE) return { path: TABLE, namespace: TABLE };
				const name = chunkName(args.path, chunks);
				if (name === undefined) return { path: args.path, external: true };
				if (args.namespace === LAZY && eager.has(name)) throw new Error(`A lazy chunk asks for ${args.path}`);
				return { path: name, namespace: eager.has(name) ? SPLIT : LAZY };
			});
			build.onLoad({ filter: /.*/, namespace: ENTRY }, () => ({
				contents: entryModule(entry, sharedWithLazy),
				loader: "js",
			}));
			build.onLoad({ filter: /.*/, namespace: TABLE }, () => ({
				contents: "export const table = {};\n",
				loader: "js",
			}));
			build.onLoad({ filter: /.*/, namespace: SPLIT }, (args) => ({
				contents: texts.get(args.path),
				loader: "js",
			}));
			build.onLoad({ filter: /.*/, namespace: LAZY }, (args) => {
				const { source, requests } = lazy.get(args.path);
				return { contents: lazyChunkModule(source, requests, chunks, eager), loader: "js" };
			});
		},
	};
	const result = await esbuild.build({
		entryPoints: [ENTRY],
		bundle: true,
		platform: shared.platform,
		format: "cjs",
		target: shared.target,
		minify: shared.minify,
		treeShaking: true,
		banner: { js: `${banner?.js ?? ""}\n${OPEN}` },
		footer: { js: CLOSE },
		outfile,
		write: false,
		logLevel: "warning",
		plugins: [chunkLoader],
	});
	return result.outputFiles[0].contents;
}
