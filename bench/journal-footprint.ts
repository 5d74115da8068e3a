/**
 * Benchmark (not a test): the activity journal's disk and memory for 10,000 entries (the default entry bound),
 * kept in a folder store as the headless host keeps it. Each entry is a vault-tool call like Claude makes one
 * (session, tool, a note, an argument summary); one in ten is an edit with its note's 3.5 KB pre-image. Prints the
 * records file's size, the blobs' size, the heap the journal holds after writing them (forced GC before and after),
 * and the heap `activity` needs to load them all. Run: node scripts/run-bench.mjs bench/journal-footprint.ts [-- --entries N]
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { FolderJournalStore } from "../src/journal/folder-journal-store";
import { Journal } from "../src/journal/journal";
import { makeTempDir } from "../tests/helpers/temp-dir";

const EDIT_EVERY = 10;
const NOTE_BYTES = 3500;

function heapMb(): number {
	const collect = (globalThis as { gc?: () => void }).gc;
	if (!collect) throw new Error("run with node --expose-gc (scripts/run-bench.mjs does)");
	collect();
	collect();
	return process.memoryUsage().heapUsed / 1024 / 1024;
}

function folderBytes(folder: string): number {
	let total = 0;
	for (const name of readdirSync(folder)) total += statSync(join(folder, name)).size;
	return total;
}

const round = (value: number): number => Math.round(value * 10) / 10;

async function main(): Promise<void> {
	const flag = process.argv.indexOf("--entries");
	const count = flag >= 0 ? Number(process.argv[flag + 1]) : 10_000;
	const temp = makeTempDir("bench-journal");
	try {
		const store = new FolderJournalStore(temp.path);
		const before = heapMb();
		const journal = new Journal({ store, bounds: { maxEntries: count } });
		const session = {
			key: journal.newSessionKey(),
			surface: "vault-tools-relay" as const,
			client: "claude-code",
			connection: 1,
		};
		for (let index = 0; index < count; index++) {
			const path = `Notes/Note ${index % 2000}.md`;
			const edit = index % EDIT_EVERY === 0;
			const id = journal.begin({
				session,
				tool: edit ? "edit_note" : "read_note",
				notes: [path],
				args: edit ? `path: "${path}", 1 edit (append under "Tasks")` : `path: "${path}", section: "Tasks"`,
			});
			if (edit) {
				const bytes = Buffer.from(`# Note ${index}\n\n${"Some prose of the note. ".repeat(NOTE_BYTES / 24)}`);
				const hash = createHash("sha256").update(bytes).digest("hex");
				await journal.recordChange(
					id,
					{
						kind: "edit",
						path,
						before: { hash, bytes: bytes.length },
						after: createHash("sha256").update(`${index}`).digest("hex"),
					},
					[{ hash, bytes }],
				);
			}
			journal.finish(id, { outcome: "ok", durationMs: 3, answerBytes: 420 });
			if (index % 500 === 0) await journal.flush();
		}
		await journal.flush();
		const held = heapMb() - before;
		const beforeLoad = heapMb();
		const entries = await journal.entries();
		const loaded = heapMb() - beforeLoad;
		const recordsBytes = statSync(join(temp.path, "records.jsonl")).size;
		const blobsBytes = folderBytes(join(temp.path, "blobs"));
		const figures = {
			entries: entries.length,
			edits: Math.ceil(count / EDIT_EVERY),
			recordsMb: round(recordsBytes / 1024 / 1024),
			bytesPerEntry: Math.round(recordsBytes / entries.length),
			blobsMb: round(blobsBytes / 1024 / 1024),
			heapHeldMb: round(held),
			heapWithEntriesLoadedMb: round(loaded),
		};
		process.stdout.write(`${JSON.stringify(figures)}\n`);
	} finally {
		temp.remove();
	}
}

void main();
