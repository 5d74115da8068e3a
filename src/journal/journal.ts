import { clearTimeout, setTimeout } from "node:timers";
import { randomBytes } from "node:crypto";
import { describeError } from "../shared/describe-error";
import { activityEntries, type ActivityEntry, type RecordJudge } from "./activity-entries";
import { contentHash } from "./content-hash";
import { trustWithoutSeal, type JournalSeal } from "./journal-seal";
import { pathFormProblem } from "./record-paths";
import { matchesFilter, type ActivityFilter } from "./activity-filter";
import { blobNames, DEFAULT_JOURNAL_BOUNDS, measure, withinBounds } from "./journal-bounds";
import {
	blobsOf,
	type CallOutcome,
	type CallRecord,
	type ChangeRecord,
	type JournalRecord,
	type JournalSession,
	type NoteChange,
	type PreImage,
	type RecordHead,
	TURN_ID,
} from "./journal-records";
import { PreImageError, type JournalBounds, type JournalStore, type RecordSizes } from "./journal-store";

export interface JournalOptions {
	store: JournalStore;
	bounds?: Partial<JournalBounds>;
	now?: () => number;
	/** A new id for a call or session (default: 8 random hex digits). */
	newId?: () => string;
	log?: (message: string) => void;
	/**
	 * Seals the records written here and tells which records read back this device wrote: only those are undone.
	 * Without one (no device key could be had), records are written unsealed and none read back is undoable.
	 */
	seal?: JournalSeal;
	/**
	 * Why a vault path a change record names must not be acted on (a private note, the config folder), beyond the
	 * path's own form (`pathFormProblem`, always checked); undefined when it may be.
	 */
	checkPath?: (path: string) => string | undefined;
}

/** What a call names: the visible notes and a short summary of its arguments. */
export interface CallDescription {
	notes: string[];
	args: string;
}

/** A call's description computed once when first needed (when its record is written, or when it is listed while running). */
export interface CallSource {
	session: JournalSession;
	tool: string;
	/** The conversation turn that makes the call (the agent panel's), when known. */
	turn?: string;
	describe(): CallDescription;
}

/** A call being recorded: what is known when it starts, its description given or left to `describe`, so the call itself does not wait for it. */
export type CallStart = ({ session: JournalSession; tool: string; turn?: string } & CallDescription) | CallSource;

export interface CallEnd {
	outcome: CallOutcome;
	detail?: string;
	durationMs: number;
	answerBytes: number;
}

/**
 * After compacting, the journal is left with this share of each bound. A compaction reads and rewrites the whole
 * store (about 40 ms of CPU at 10,000 calls): at 0.9 a full journal was compacted every 1,000 calls, which doubled
 * the CPU of a cheap call; at one half it happens every 5,000.
 */
const LOW_WATER = 0.5;
/** A call's record waits in memory at most this long, so that a burst of calls costs one write of the records file. */
export const FLUSH_DELAY_MS = 200;
/** ...or until this many records wait. */
export const FLUSH_RECORDS = 256;
/** Random bytes drawn at a time for new ids (one draw serves many calls). */
const ID_POOL_BYTES = 1024;

interface RunningCall {
	session: JournalSession;
	tool: string;
	turn?: string;
	at: number;
	description?: CallDescription;
	/** Describes the call when its description is first needed (then dropped). */
	source?: CallSource;
}

/** A finished call before its record is written: its description is taken then. */
type PendingRecord = JournalRecord | { type: "ended"; id: string; call: RunningCall; end: CallEnd };

/**
 * The activity and undo journal of one vault: calls (recorded when they end), the changes writes made on disk
 * with their notes' pre-images (recorded as they happen), and undos. A call's record waits in memory for a short
 * while (FLUSH_DELAY_MS, or until FLUSH_RECORDS wait) and is written with the others in one append; a change or an
 * undo is written at once (with what waits before it), and every read (`entries`) and `close` writes what waits
 * first. A pre-image reaches the store before the write it protects (`keepPreImages`). Writes run one at a time, in
 * order; when the journal outgrows a bound it is compacted to the newest calls. A failing store is logged, never
 * thrown at a call.
 */
export class Journal {
	private readonly bounds: JournalBounds;
	private readonly now: () => number;
	private readonly newId: () => string;
	private readonly running = new Map<string, RunningCall>();
	private queue: Promise<void> = Promise.resolve();
	private pending: PendingRecord[] = [];
	private timer: ReturnType<typeof setTimeout> | undefined;
	private closed = false;
	/**
	 * Pre-images `keepPreImages` stored for writes not recorded yet: how many writes each protects, and when it was
	 * last kept (a blob touched after that was kept again, perhaps by another process).
	 */
	private readonly keptBeforeWrite = new Map<string, { writes: number; at: number }>();
	private totals: { entries: Set<string>; bytes: number; oldest: number | undefined } | undefined;
	private readonly listeners = new Set<() => void>();
	private idPool = "";
	private idPoolAt = 0;

	constructor(private readonly options: JournalOptions) {
		this.bounds = { ...DEFAULT_JOURNAL_BOUNDS, ...options.bounds };
		this.now = options.now ?? Date.now;
		this.newId = options.newId ?? (() => this.randomId());
	}

	/**
	 * Calls `listener` whenever this process records something (a call starts or ends, a change, an undo), at once:
	 * the listener should only schedule its work. Returns the way to stop listening.
	 */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** A new session's key (unique across runs and processes). */
	newSessionKey(): string {
		return `s${this.newId()}`;
	}

	/** A call starts; its id names the writes it makes (`WriteOrigin.journalId`). */
	begin(start: CallStart): string {
		const id = this.newId();
		const call: RunningCall = { session: start.session, tool: start.tool, at: this.now() };
		if (start.turn !== undefined && TURN_ID.test(start.turn)) call.turn = start.turn;
		if ("describe" in start) call.source = start;
		else call.description = { notes: start.notes, args: start.args };
		this.running.set(id, call);
		this.changed();
		return id;
	}

	/** The call ended: its record is written soon (see the class). */
	finish(id: string, end: CallEnd): void {
		const call = this.running.get(id);
		if (!call) return;
		this.running.delete(id);
		this.pending.push({ type: "ended", id, call, end });
		this.changed();
		if (this.closed || this.pending.length >= FLUSH_RECORDS) void this.writePending();
		else this.timer ??= setTimeout(() => void this.writePending(), FLUSH_DELAY_MS);
	}

	/**
	 * What a running call names, given anew before its record is written: a write that made its note private names
	 * it no more. Nothing when the call is not running here.
	 */
	redescribe(id: string, description: CallDescription): void {
		const call = this.running.get(id);
		if (!call) return;
		call.description = description;
		call.source = undefined;
	}

	/** A call not to be recorded after all (its writes, if any, stay recorded). */
	forget(id: string): void {
		this.running.delete(id);
	}

	/**
	 * A write reached disk: its change, and the pre-images it was protected by (those not kept by `keepPreImages`
	 * before the write are kept now). `journalId` is the call that made it; a write outside any recorded call gets an
	 * entry of its own. Written at once, with what waits before it.
	 */
	recordChange(
		journalId: string | undefined,
		change: NoteChange,
		preImages: readonly { hash: string; bytes: Uint8Array }[],
	): Promise<void> {
		let id = journalId;
		let call = id === undefined ? undefined : this.running.get(id);
		if (id === undefined || !call) {
			id = this.newId();
			call = {
				session: { key: "unattributed", surface: "other" },
				tool: "write",
				at: this.now(),
				description: { notes: [], args: "" },
			};
			this.running.set(id, call);
			const lone = id;
			queueMicrotask(() => this.finish(lone, { outcome: "ok", durationMs: 0, answerBytes: 0 }));
		}
		const record: ChangeRecord = {
			type: "change",
			id,
			at: this.now(),
			session: call.session,
			...(call.turn !== undefined && { turn: call.turn }),
			tool: call.tool,
			change,
		};
		this.pending.push(record);
		this.changed();
		const named = new Set(blobsOf(record).map((blob) => blob.hash));
		return this.writePending(async () => {
			for (const image of preImages) {
				if (!this.unkeep(image.hash)) await this.options.store.putBlob(image.hash, image.bytes);
				// Kept for a note the write left as it was: counted in the bounds until a compaction drops it.
				else if (!named.has(image.hash) && this.totals) this.totals.bytes += image.bytes.byteLength;
			}
		});
	}

	/**
	 * Keeps notes' bytes before a write that may change them: they are in the store when this resolves, so the write
	 * can be undone even if the process stops before its change is recorded. Then give them to `recordChange`.
	 */
	keepPreImages(preImages: readonly { hash: string; bytes: Uint8Array }[]): Promise<void> {
		return this.inOrder(async () => {
			for (const image of preImages) {
				await this.options.store.putBlob(image.hash, image.bytes);
				const kept = this.keptBeforeWrite.get(image.hash);
				// The wall clock, as the blob's modification time is (a whole millisecond on, past the put's own time).
				this.keptBeforeWrite.set(image.hash, { writes: (kept?.writes ?? 0) + 1, at: Date.now() + 1 });
			}
		});
	}

	/**
	 * The write `keepPreImages` protected is not recorded (it failed, or made its note private): its pre-images are
	 * removed from the store at once, unless a record names them or another write still needs them. A note made
	 * private keeps none of its text here.
	 */
	releasePreImages(preImages: readonly { hash: string }[]): Promise<void> {
		const released = new Map<string, number>();
		for (const image of preImages) {
			const at = this.keptBeforeWrite.get(image.hash)?.at;
			if (this.unkeep(image.hash) && !this.keptBeforeWrite.has(image.hash) && at !== undefined)
				released.set(image.hash, at);
		}
		if (released.size === 0) return this.queue;
		return this.inOrder(async () => {
			const named = blobNames((await this.options.store.heads()).heads);
			for (const [hash, at] of released) {
				if (!named.has(hash) && !this.keptBeforeWrite.has(hash)) await this.options.store.dropBlob(hash, at);
			}
		});
	}

	/** One write fewer needs this pre-image; false when none did. */
	private unkeep(hash: string): boolean {
		const kept = this.keptBeforeWrite.get(hash);
		if (!kept) return false;
		if (kept.writes > 1) kept.writes--;
		else this.keptBeforeWrite.delete(hash);
		return true;
	}

	/** Marks a call's changes undone (written at once). */
	markUndone(id: string): Promise<void> {
		this.pending.push({ type: "undo", id, at: this.now() });
		this.changed();
		return this.writePending();
	}

	/** Every entry the store holds now (other processes' included) and the calls still running here, newest first. */
	async entries(filter: ActivityFilter = {}): Promise<ActivityEntry[]> {
		await this.flush();
		const records = await this.options.store.load();
		const running = new Set<JournalRecord>();
		const stored = new Set(records.map((record) => record.id));
		for (const [id, call] of this.running) {
			if (!stored.has(id))
				running.add({
					type: "call",
					id,
					at: call.at,
					session: call.session,
					...(call.turn !== undefined && { turn: call.turn }),
					tool: call.tool,
					...describe(call),
					outcome: "ok",
					durationMs: 0,
					answerBytes: 0,
				});
		}
		const entries = activityEntries([...records, ...running], this.judge(running));
		for (const entry of entries) {
			if (this.running.has(entry.id)) {
				delete entry.outcome;
				delete entry.durationMs;
				delete entry.answerBytes;
			}
		}
		return entries.filter((entry) => matchesFilter(entry, filter));
	}

	/**
	 * A note's bytes before a change, as its record names them (hash and size); undefined when no longer kept. Throws
	 * `PreImageError` when what the journal's folder holds under that name is not those bytes (a link, another file,
	 * other bytes): the folder syncs with the vault, so a blob may have been swapped.
	 */
	async preImage(before: PreImage): Promise<Uint8Array | undefined> {
		if (before.bytes > this.bounds.maxBytes) throw new PreImageError("is larger than the journal keeps");
		const bytes = await this.options.store.getBlob(before.hash, before.bytes);
		if (bytes === undefined) return undefined;
		if (bytes.byteLength !== before.bytes || contentHash(bytes) !== before.hash)
			throw new PreImageError("is not the text that was kept");
		return bytes;
	}

	/** How the records read back are judged: sealed by this device (the calls running here are), paths allowed. */
	private judge(running: ReadonlySet<JournalRecord>): RecordJudge {
		const seal = this.options.seal;
		const checkPath = this.options.checkPath;
		return {
			trust: (record) => (running.has(record) ? "device" : seal ? seal.trust(record) : trustWithoutSeal(record)),
			pathProblem: (path) => pathFormProblem(path) ?? checkPath?.(path),
		};
	}

	/** Writes every record given so far; resolves when they are written. */
	flush(): Promise<void> {
		return this.writePending();
	}

	/** Writes what waits now (after `before`, e.g. a change's pre-images). */
	private writePending(before?: () => Promise<void>): Promise<void> {
		if (this.timer !== undefined) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		const batch = this.pending;
		this.pending = [];
		if (batch.length === 0 && !before) return this.queue;
		return this.inOrder(async () => {
			await before?.();
			if (batch.length === 0) return;
			const seal = this.options.seal;
			// Each record is made here (none is sealed yet) and encoded once: sealed in place, its line written as it is.
			const records: JournalRecord[] = [];
			const lines: string[] = [];
			for (const item of batch) {
				const record = item.type === "ended" ? callRecord(item.id, item.call, item.end) : item;
				records.push(record);
				lines.push(seal ? seal.sealLine(record) : JSON.stringify(record));
			}
			const bytes = await this.options.store.append(records, lines);
			await this.keepWithinBounds(records, bytes);
		});
	}

	/** Writes what waits, and from now on every record at once (a clean shutdown loses nothing). */
	close(): Promise<void> {
		this.closed = true;
		return this.writePending();
	}

	private changed(): void {
		for (const listener of this.listeners) listener();
	}

	/** Runs a store operation after those before it; a failure is logged. */
	private inOrder(operation: () => Promise<void>): Promise<void> {
		this.queue = this.queue.then(async () => {
			try {
				await operation();
			} catch (error) {
				this.options.log?.(`The activity journal could not be written: ${describeError(error)}`);
			}
		});
		return this.queue;
	}

	/** 8 random hex digits, from a pool drawn ID_POOL_BYTES at a time. */
	private randomId(): string {
		if (this.idPoolAt + 8 > this.idPool.length) {
			this.idPool = randomBytes(ID_POOL_BYTES).toString("hex");
			this.idPoolAt = 0;
		}
		this.idPoolAt += 8;
		return this.idPool.slice(this.idPoolAt - 8, this.idPoolAt);
	}

	/**
	 * Counts what was appended (`appendedBytes`: the records' bytes, as the store measured them); past a bound,
	 * compacts the store to the newest calls within LOW_WATER of each bound.
	 */
	private async keepWithinBounds(appended: readonly JournalRecord[], appendedBytes: number): Promise<void> {
		const store = this.options.store;
		if (!this.totals) {
			const { heads, sizes } = await store.heads();
			const measured = measure(heads, sizes);
			this.totals = {
				entries: new Set(heads.map((record) => record.id)),
				bytes: measured.bytes,
				oldest: measured.oldest,
			};
		} else {
			const measured = measure(appended, appendedBytes);
			for (const record of appended) this.totals.entries.add(record.id);
			this.totals.bytes += measured.bytes;
			if (this.totals.oldest === undefined) this.totals.oldest = measured.oldest;
		}
		const now = this.now();
		const { entries, bytes, oldest } = this.totals;
		const tooOld = oldest !== undefined && now - oldest > this.bounds.maxAgeMs;
		if (entries.size <= this.bounds.maxEntries && bytes <= this.bounds.maxBytes && !tooOld) return;
		const target: JournalBounds = {
			maxEntries: Math.floor(this.bounds.maxEntries * LOW_WATER),
			maxBytes: Math.floor(this.bounds.maxBytes * LOW_WATER),
			maxAgeMs: this.bounds.maxAgeMs,
		};
		// The call still running keeps its changes: they stay with it whatever the bounds say.
		const runningIds = new Set(this.running.keys());
		let kept: RecordHead[] | undefined;
		let keptBytes: RecordSizes | undefined;
		await store.compact(
			(records, sizes) => {
				const within = new Set(withinBounds(records, target, now, sizes).map((record) => record.id));
				kept = records.filter((record) => within.has(record.id) || runningIds.has(record.id));
				keptBytes = sizes;
				return kept;
			},
			(records) => new Set([...blobNames(records), ...this.keptBeforeWrite.keys()]),
		);
		if (!kept) {
			// Another process is compacting: count afresh next time.
			this.totals = undefined;
			return;
		}
		const measured = measure(kept, keptBytes);
		this.totals = {
			entries: new Set(kept.map((record) => record.id)),
			bytes: measured.bytes,
			oldest: measured.oldest,
		};
	}
}

/** A call's description, computed once. */
function describe(call: RunningCall): CallDescription {
	if (!call.description) {
		call.description = call.source?.describe() ?? { notes: [], args: "" };
		// Not `delete`: that would turn the object's properties into a dictionary, slower to read from then on.
		call.source = undefined;
	}
	return call.description;
}

function callRecord(id: string, call: RunningCall, end: CallEnd): CallRecord {
	const { notes, args } = describe(call);
	// Fields in this order (the line's head is read by `scanJournalLines`): a call in a turn has its turn after its session.
	// `turn` undefined (a call outside a turn) is left out of the line by JSON.stringify.
	const record: CallRecord = {
		type: "call",
		id,
		at: call.at,
		session: call.session,
		turn: call.turn,
		tool: call.tool,
		notes,
		args,
		outcome: end.outcome,
		durationMs: end.durationMs,
		answerBytes: end.answerBytes,
	};
	if (end.detail !== undefined) record.detail = end.detail;
	return record;
}
