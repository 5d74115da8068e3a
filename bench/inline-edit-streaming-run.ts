import { loadavg } from "node:os";
import { inlineStreamingLines, measureInlineEditStreaming } from "./inline-edit-streaming";

/**
 * The inline edit's streaming figure alone (`node scripts/run-bench.mjs bench/inline-edit-streaming-run.ts [runs]`,
 * default 5 runs per passage): the rows `npm run bench` prints, in a few seconds. Writes nothing.
 */
async function main(): Promise<void> {
	const runs = Math.max(1, Number(process.argv[2] ?? "5"));
	const load = loadavg()
		.map((value) => value.toFixed(2))
		.join(" ");
	const figures = await measureInlineEditStreaming(runs);
	process.stdout.write(
		`Load average at the end: ${load}\n\n| figure | value | goal | result |\n| --- | ---: | --- | --- |\n${inlineStreamingLines(figures).join("\n")}\n`,
	);
}

main().catch((error: unknown) => {
	process.stderr.write(`inline edit streaming bench failed: ${String(error)}\n`);
	process.exit(1);
});
