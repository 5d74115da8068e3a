import { setImmediate } from "node:timers";
import { SURFACES, TURN_ID, type JournalRecord, type NoteChange, type RecordHead } from "./journal-records";

/** A pre-image's name: the SHA-256 of its bytes, hex. */
const HASH = /^[0-9a-f]{64}$/;

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

/** A stored line as the journal's bounds read it: its record's head, and where it is in the file (newline excluded). */
export interface StoredLine {
	head: RecordHead;
	start: number;
	end: number;
}

/** How much of a line is read for its head: a call's or an undo's type, id (at most 64 characters) and time. */
const HEAD_BYTES = 128;
const CLOSING_BRACE = 0x7d;
const NEWLINE = 0x0a;
/**
 * The start of a call's or an undo's line as the journal writes it (JSON.stringify of the record: type, id and time
 * first, then a call's session, an undo's seal or its end), with an id of ASCII word characters, so the bytes are
 * the characters and no escape needs decoding.
 */
const HEAD =
	/^\{"type":"(call|undo)","id":"([A-Za-z0-9_-]{1,64})","at":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(,"session":\{|,"mac":"|\})/;

/**
 * The lines of a journal file as its bounds read them, in slices (a compaction): a call's or an undo's line whose
 * head has the form the journal writes (`HEAD`) and that ends as a record does is not parsed further, as the bounds
 * need only its call and time; any other line (a change, whose pre-images are needed, or a line spelled otherwise)
 * is parsed and checked as `parseJournalLines` does, and skipped when it is no record. What a kept line says is
 * judged when it is read (`load`), as every line is.
 */
export async function scanJournalLines(bytes: Buffer, slicing: ParseSlicing = IN_SLICES): Promise<StoredLine[]> {
	const lines: StoredLine[] = [];
	let sliceStart = slicing.now();
	let count = 0;
	for (let start = 0; start < bytes.length;) {
		const newline = bytes.indexOf(NEWLINE, start);
		const end = newline < 0 ? bytes.length : newline;
		if (++count % LINES_PER_CLOCK_CHECK === 0 && slicing.now() - sliceStart >= slicing.sliceMs) {
			await slicing.yieldTurn();
			sliceStart = slicing.now();
		}
		const head = end > start ? headOf(bytes, start, end) : undefined;
		if (head) lines.push({ head, start, end });
		start = end + 1;
	}
	return lines;
}

/** A line's head: read from its start when it has the journal's form (`HEAD`), else parsed whole and checked. */
function headOf(bytes: Buffer, start: number, end: number): RecordHead | undefined {
	if (bytes[end - 1] === CLOSING_BRACE) {
		// One character per byte (the head is ASCII): only the line's first bytes are decoded.
		const match = HEAD.exec(bytes.toString("latin1", start, Math.min(end, start + HEAD_BYTES)));
		const at = Number(match?.[3]);
		const call = match?.[1] === "call";
		if (match && Number.isFinite(at) && call === (match[4] === ',"session":{'))
			return { type: call ? "call" : "undo", id: match[2] ?? "", at };
	}
	try {
		const value: unknown = JSON.parse(bytes.toString("utf8", start, end));
		return isRecord(value) ? value : undefined;
	} catch {
		// A partial last line.
		return undefined;
	}
}

/** The records of a journal file's text (see `parseJournalLines`). */
export async function parseRecords(text: string, slicing?: ParseSlicing): Promise<JournalRecord[]> {
	return (await parseJournalLines(text, slicing)).map((line) => line.record);
}

/**
 * Whether a parsed line has a record's form, down to every field the journal reads (its bounds, its entries and undo
 * read a change's paths and pre-images): the records file is in the config folder, which other devices sync, so a
 * line of any shape may be there. What it says is judged later (`JournalSeal`, the vault's path checks).
 */
function isRecord(value: unknown): value is JournalRecord {
	if (!isObject(value)) return false;
	const record = value;
	if (typeof record.id !== "string" || !isTime(record.at)) return false;
	if (record.mac !== undefined && typeof record.mac !== "string") return false;
	if (record.type === "undo") return true;
	const session = record.session;
	if (
		!isObject(session) ||
		typeof session.key !== "string" ||
		!SURFACES.includes(session.surface as never) ||
		typeof record.tool !== "string" ||
		(record.turn !== undefined && !(typeof record.turn === "string" && TURN_ID.test(record.turn)))
	)
		return false;
	if (record.type === "call")
		return (
			Array.isArray(record.notes) &&
			record.notes.every((note) => typeof note === "string") &&
			typeof record.args === "string" &&
			typeof record.outcome === "string"
		);
	return record.type === "change" && isChange(record.change);
}

function isChange(value: unknown): value is NoteChange {
	if (!isObject(value) || typeof value.after !== "string") return false;
	switch (value.kind) {
		case "edit":
			return typeof value.path === "string" && isPreImage(value.before);
		case "create":
			return typeof value.path === "string";
		case "move":
			return (
				typeof value.from === "string" &&
				typeof value.to === "string" &&
				Array.isArray(value.rewrites) &&
				value.rewrites.every(
					(rewrite) =>
						isObject(rewrite) &&
						typeof rewrite.path === "string" &&
						typeof rewrite.after === "string" &&
						isPreImage(rewrite.before),
				)
			);
		default:
			return false;
	}
}

function isPreImage(value: unknown): boolean {
	return (
		isObject(value) &&
		typeof value.hash === "string" &&
		HASH.test(value.hash) &&
		typeof value.bytes === "number" &&
		Number.isSafeInteger(value.bytes) &&
		value.bytes >= 0
	);
}

function isTime(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value);
}

function isObject(value: unknown): value is Partial<Record<string, unknown>> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
