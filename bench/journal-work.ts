import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { classifyOutcome } from "../src/assembly/journal-wiring";
import { CallRecorder } from "../src/journal/call-recorder";
import { FolderJournalStore } from "../src/journal/folder-journal-store";
import { Journal } from "../src/journal/journal";
import { JournalSeal } from "../src/journal/journal-seal";
import { referencesPerTurn } from "../src/journal/references-per-turn";
import type { ObservedOutcome } from "../src/protocol/request-observer";
import { makeTempDir } from "../tests/helpers/temp-dir";
import { median } from "./stats";

/** The journal's own CPU time per call, in µs (see `measureJournalWork`). */
export interface JournalWork {
	/** Over enough calls to fill a journal several times: its compactions (one per 5,000 calls) counted in. */
	withCompactions: number;
	/** The work every call does (a journal that never reaches its bounds, as in the round-trip rows). */
	perCall: number;
}

/** Calls in each timed stretch: four compactions of a full journal (10,000 calls, compacted to half). */
const CALLS = 20_000;

/**
 * The journal's own work per call, in one process, without the wire: a relayed `read_note` observed as the
 * headless host observes it (its recorder's start, a turn of the event loop, its finish), its record sealed and
 * appended in batches to a folder store. The CPU time (user + system, all threads) of stretches of calls with the
 * recorder and without it alternate; each figure is the median of three differences. Unlike the round trips, it
 * counts the work a call leaves for later (the batched write, compactions), and other processes move it little.
 */
export async function measureJournalWork(calls = CALLS): Promise<JournalWork> {
	const steady = await workPerCall(calls, false);
	const compacting = await workPerCall(calls, true);
	return { withCompactions: compacting, perCall: steady };
}

async function workPerCall(calls: number, compactions: boolean): Promise<number> {
	const temp = makeTempDir("journal-work");
	try {
		const journal = new Journal({
			store: new FolderJournalStore(join(temp.path, "journal")),
			seal: new JournalSeal(randomBytes(32), temp.path, Date.now()),
			...(compactions
				? {}
				: { bounds: { maxEntries: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER } }),
		});
		const recorder = new CallRecorder({
			journal,
			surface: "vault-tools-relay",
			references: referencesPerTurn({ classify: (value) => ({ path: value }) }),
			classify: classifyOutcome,
			client: "claude-code-bridge relay",
			connection: 1,
		});
		const text = "word ".repeat(1000);
		const outcome: ObservedOutcome = { kind: "result", result: { content: [{ type: "text", text }] }, bytes: 5060 };
		let connection = 0;
		const oneCall = async (recorded: boolean): Promise<void> => {
			const request = {
				method: "tools/call",
				params: { name: "read_note", arguments: { path: "Area 0/Topic 1.md" } },
				session: { id: ++connection },
			};
			const observation = recorded ? recorder.started(request) : undefined;
			// The answer comes in a later turn, as a tool's does.
			await new Promise((resolve) => setImmediate(resolve));
			observation?.finished(outcome);
		};
		const cpuPerCall = async (recorded: boolean, count: number): Promise<number> => {
			const before = process.cpuUsage();
			for (let index = 0; index < count; index++) await oneCall(recorded);
			await journal.flush();
			const used = process.cpuUsage(before);
			return (used.user + used.system) / count;
		};
		await cpuPerCall(true, 3000);
		await cpuPerCall(false, 3000);
		const differences: number[] = [];
		for (let round = 0; round < 3; round++) {
			const without = await cpuPerCall(false, calls);
			differences.push((await cpuPerCall(true, calls)) - without);
		}
		await journal.close();
		return Math.round(median(differences) * 10) / 10;
	} finally {
		temp.remove();
	}
}
