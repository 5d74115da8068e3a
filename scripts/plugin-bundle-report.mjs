// Builds the plugin's bundle in memory (the options of esbuild.config.mjs, minified as `npm run build` does) and
// prints its size and the files it is made of, each with its bytes in the output, as JSON:
// `{ "bytes": 348966, "inputs": ["main.ts", …], "inputBytes": { "main.ts": 120, … } }`.
// Nothing is written.
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { plugin } from "../esbuild.config.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const result = await esbuild.build({
	...plugin,
	minify: true,
	sourcemap: false,
	absWorkingDir: root,
	write: false,
	metafile: true,
	logLevel: "silent",
});
const [output] = Object.values(result.metafile.outputs);
const inputBytes = Object.fromEntries(
	Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
);
process.stdout.write(`${JSON.stringify({ bytes: output.bytes, inputs: Object.keys(output.inputs), inputBytes })}\n`);
