import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { CallRecorder } from "../src/journal/call-recorder";
import { FolderJournalStore } from "../src/journal/folder-journal-store";
import { Journal } from "../src/journal/journal";
import { JournalSeal } from "../src/journal/journal-seal";
import { classifyOutcome } from "../src/assembly/journal-wiring";
import { referencesPerTurn } from "../src/journal/references-per-turn";
import type { ObservedOutcome, ObservedRequest } from "../src/protocol/request-observer";
import { makeTempDir } from "../tests/helpers/temp-dir";

/**
 * The journal's own work per call, in one process (`node scripts/run-bench.mjs bench/journal-work.ts [calls]`): a
 * relayed `read_note` observed as the headless host observes it (a recorder's start and finish), its record sealed
 * and appended in batches to a folder store, as many calls as a full journal holds and on through compactions.
 * Prints the CPU time (user + system, this process, all threads) per call, with and without a journal's work: the
 * part of the host's CPU per call in `npm run bench:journal` that is the journal's, without the wire's noise.
 */
async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const calls = Number(args.find((arg) => /^\d+$/.test(arg)) ?? "30000");
	// Without compactions: only the work every call does (as in `npm run bench:journal`, whose rows stay under the bound).
	const compactions = !args.includes("--no-compaction");
	const temp = makeTempDir("journal-work");
	try {
		const journal = new Journal({
			store: new FolderJournalStore(join(temp.path, "journal")),
			seal: new JournalSeal(randomBytes(32), temp.path, Date.now()),
			...(compactions
				? {}
				: { bounds: { maxEntries: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER } }),
		});
		const references = referencesPerTurn({ classify: (value) => ({ path: value }) });
		const text = "word ".repeat(1000);
		const result = { content: [{ type: "text", text }] };
		const outcome: ObservedOutcome = { kind: "result", result, bytes: text.length + 60 };
		let connection = 0;
		const recorders = new Map<number, CallRecorder>();
		const request = (): ObservedRequest => ({
			method: "tools/call",
			params: { name: "read_note", arguments: { path: "Area 0/Topic 1.md" } },
			session: { id: ++connection },
		});
		const oneCall = async (withJournal: boolean): Promise<void> => {
			const observed = request();
			// The relay makes a session per request; its recorder is kept per connection (here: one).
			let recorder = recorders.get(1);
			if (!recorder) {
				recorder = new CallRecorder({
					journal,
					surface: "vault-tools-relay",
					references,
					classify: classifyOutcome,
					client: "claude-code-bridge relay",
					connection: 1,
				});
				recorders.set(1, recorder);
			}
			const observation = withJournal ? recorder.started(observed) : undefined;
			// A turn of the event loop, as a call's answer comes in a later one.
			await new Promise((resolve) => setImmediate(resolve));
			observation?.finished(outcome);
		};
		const run = async (withJournal: boolean, count: number): Promise<{ cpuUs: number; wallMs: number }> => {
			const wall = performance.now();
			const cpu = process.cpuUsage();
			for (let i = 0; i < count; i++) await oneCall(withJournal);
			await journal.flush();
			const used = process.cpuUsage(cpu);
			return { cpuUs: (used.user + used.system) / count, wallMs: performance.now() - wall };
		};
		await run(true, 3000);
		await run(false, 3000);
		for (let round = 1; round <= 3; round++) {
			const without = await run(false, calls);
			const withJournal = await run(true, calls);
			process.stdout.write(
				`round ${round}: CPU per call without ${without.cpuUs.toFixed(1)} µs, with ${withJournal.cpuUs.toFixed(1)} µs: the journal's work ${(withJournal.cpuUs - without.cpuUs).toFixed(1)} µs per call\n`,
			);
		}
		await journal.close();
	} finally {
		temp.remove();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`journal work failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
