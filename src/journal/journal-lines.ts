import { setImmediate } from "node:timers";
import { SURFACES, type JournalRecord } from "./journal-records";

/** One stored line: its record, its text and its size in bytes (newline included). */
export interface JournalLine {
	record: JournalRecord;
	text: string;
	bytes: number;
}

/**
 * How a parse shares its thread: after running `sliceMs` it lets other work in (`yieldTurn`). The plugin parses
 * its journal on Obsidian's main thread, where no slice may reach 50 ms; a full journal holds 10,000 calls.
 */
export interface ParseSlicing {
	sliceMs: number;
	now: () => number;
	yieldTurn: () => Promise<void>;
}

const IN_SLICES: ParseSlicing = {
	sliceMs: 8,
	now: () => performance.now(),
	yieldTurn: () => new Promise((resolve) => setImmediate(resolve)),
};

/** Lines parsed between two looks at the clock. */
const LINES_PER_CLOCK_CHECK = 64;

/** The records of a journal file's text with their lines, parsed in slices; a line that is not a record (cut short by a crash) is skipped. */
export async function parseJournalLines(text: string, slicing: ParseSlicing = IN_SLICES): Promise<JournalLine[]> {
	const lines: JournalLine[] = [];
	let sliceStart = slicing.now();
	let count = 0;
	for (const line of text.split("\n")) {
		if (++count % LINES_PER_CLOCK_CHECK === 0 && slicing.now() - sliceStart >= slicing.sliceMs) {
			await slicing.yieldTurn();
			sliceStart = slicing.now();
		}
		if (line === "") continue;
		try {
			const value: unknown = JSON.parse(line);
			if (isRecord(value)) lines.push({ record: value, text: line, bytes: Buffer.byteLength(line, "utf8") + 1 });
		} catch {
			// A partial last line.
		}
	}
	return lines;
}

/** The records of a journal file's text (see `parseJournalLines`). */
export async function parseRecords(text: string, slicing?: ParseSlicing): Promise<JournalRecord[]> {
	return (await parseJournalLines(text, slicing)).map((line) => line.record);
}

function isRecord(value: unknown): value is JournalRecord {
	if (typeof value !== "object" || value === null) return false;
	const record = value as Partial<Record<string, unknown>>;
	if (typeof record.id !== "string" || typeof record.at !== "number") return false;
	if (record.type === "undo") return true;
	const session = record.session as Partial<Record<string, unknown>> | undefined;
	if (typeof session !== "object" || typeof session.key !== "string" || !SURFACES.includes(session.surface as never)) return false;
	if (record.type === "call") return typeof record.tool === "string" && Array.isArray(record.notes) && typeof record.outcome === "string";
	return record.type === "change" && typeof record.change === "object" && record.change !== null;
}
