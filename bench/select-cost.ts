/**
 * `node scripts/run-bench.mjs bench/select-cost.ts [count]`: the headless `select` path in process (the editor
 * stand-in, the notifier and the socket write to one connected client), `count` selections; prints CPU per call.
 * With count 0 it only sets up, so that an instruction count (valgrind) of both runs gives the path's own cost.
 */
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startBenchBridge } from "./bench-bridge";
import { RpcClient } from "./rpc-client";
import { INITIALIZE_PARAMS } from "./wire";

const NOTE = "Selection.md";

async function main(): Promise<void> {
	const count = Number(process.argv[2] ?? "2000");
	const target = await startBenchBridge((vault) => {
		writeFileSync(
			join(vault, NOTE),
			"# Selection\n\nThe first line of text to select.\nA second line, selected in turn.\n",
		);
		// As in npm run bench, where the note was written well before the selections: not a note being edited.
		const anHourAgo = new Date(Date.now() - 3600_000);
		utimesSync(join(vault, NOTE), anHourAgo, anHourAgo);
	});
	const client = await RpcClient.connect(target.port, target.token);
	await client.call("initialize", INITIALIZE_PARAMS);
	client.notify("notifications/initialized");
	const ranges = [
		[
			{ line: 2, character: 4 },
			{ line: 2, character: 15 },
		],
		[
			{ line: 3, character: 2 },
			{ line: 3, character: 21 },
		],
	] as const;
	target.editor.open(NOTE);
	const start = process.cpuUsage();
	for (let i = 0; i < count; i++) {
		const [from, to] = ranges[i % 2] ?? ranges[0];
		target.editor.select(NOTE, from, to);
		if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
	}
	const used = process.cpuUsage(start);
	if (count > 0)
		process.stdout.write(
			`select: ${((used.user + used.system) / count).toFixed(1)} µs CPU per call (in process, ${count} calls)\n`,
		);
	await client.close();
	await target.stop();
}

main().catch((error: unknown) => {
	process.stderr.write(
		`select-cost failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
