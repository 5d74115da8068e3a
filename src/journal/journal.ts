import { randomBytes } from "node:crypto";
import { describeError } from "../shared/describe-error";
import { activityEntries, type ActivityEntry } from "./activity-entries";
import { matchesFilter, type ActivityFilter } from "./activity-filter";
import { blobNames, DEFAULT_JOURNAL_BOUNDS, measure, withinBounds } from "./journal-bounds";
import type { CallOutcome, CallRecord, ChangeRecord, JournalRecord, JournalSession, NoteChange } from "./journal-records";
import type { JournalBounds, JournalStore } from "./journal-store";

export interface JournalOptions {
	store: JournalStore;
	bounds?: Partial<JournalBounds>;
	now?: () => number;
	/** A new id for a call or session (default: 8 random hex digits). */
	newId?: () => string;
	log?: (message: string) => void;
}

/** A call being recorded: what is known when it starts. */
export interface CallStart {
	session: JournalSession;
	tool: string;
	notes: string[];
	args: string;
}

export interface CallEnd {
	outcome: CallOutcome;
	detail?: string;
	durationMs: number;
	answerBytes: number;
}

/** After compacting, the journal is left with this share of each bound, so it is not compacted on every append. */
const LOW_WATER = 0.9;

/**
 * The activity and undo journal of one vault: calls (recorded when they end), the changes writes made on disk
 * with their notes' pre-images (recorded as they happen), and undos. Appends run one at a time, in order; when the
 * journal outgrows a bound it is compacted to the newest calls. A failing store is logged, never thrown at a call.
 */
export class Journal {
	private readonly bounds: JournalBounds;
	private readonly now: () => number;
	private readonly newId: () => string;
	private readonly running = new Map<string, CallStart & { at: number }>();
	private queue: Promise<void> = Promise.resolve();
	private totals: { entries: Set<string>; bytes: number; oldest: number | undefined } | undefined;

	constructor(private readonly options: JournalOptions) {
		this.bounds = { ...DEFAULT_JOURNAL_BOUNDS, ...options.bounds };
		this.now = options.now ?? Date.now;
		this.newId = options.newId ?? (() => randomBytes(4).toString("hex"));
	}

	/** A new session's key (unique across runs and processes). */
	newSessionKey(): string {
		return `s${this.newId()}`;
	}

	/** A call starts; its id names the writes it makes (`WriteOrigin.journalId`). */
	begin(start: CallStart): string {
		const id = this.newId();
		this.running.set(id, { ...start, at: this.now() });
		return id;
	}

	/** The call ended: its record is written. `notes` adds notes learned on the way (none private). */
	finish(id: string, end: CallEnd): void {
		const start = this.running.get(id);
		if (!start) return;
		this.running.delete(id);
		const record: CallRecord = { type: "call", id, at: start.at, session: start.session, tool: start.tool, notes: start.notes, args: start.args, outcome: end.outcome, durationMs: end.durationMs, answerBytes: end.answerBytes };
		if (end.detail !== undefined) record.detail = end.detail;
		void this.enqueue([record]);
	}

	/** A call not to be recorded after all (its writes, if any, stay recorded). */
	forget(id: string): void {
		this.running.delete(id);
	}

	/**
	 * A write reached disk: its change and the pre-images undo needs. `journalId` is the call that made it; a write
	 * outside any recorded call gets an entry of its own.
	 */
	recordChange(journalId: string | undefined, change: NoteChange, preImages: readonly { hash: string; bytes: Uint8Array }[]): Promise<void> {
		let id = journalId;
		let start = id === undefined ? undefined : this.running.get(id);
		if (id === undefined || !start) {
			id = this.newId();
			start = { session: { key: "unattributed", surface: "other" }, tool: "write", notes: [], args: "", at: this.now() };
			this.running.set(id, start);
			const lone = id;
			queueMicrotask(() => this.finish(lone, { outcome: "ok", durationMs: 0, answerBytes: 0 }));
		}
		const record: ChangeRecord = { type: "change", id, at: this.now(), session: start.session, tool: start.tool, change };
		const store = this.options.store;
		return this.enqueue([record], async () => {
			for (const image of preImages) await store.putBlob(image.hash, image.bytes);
		});
	}

	/** Marks a call's changes undone. */
	markUndone(id: string): Promise<void> {
		return this.enqueue([{ type: "undo", id, at: this.now() }]);
	}

	/** Every entry the store holds now (other processes' included) and the calls still running here, newest first. */
	async entries(filter: ActivityFilter = {}): Promise<ActivityEntry[]> {
		await this.flush();
		const records = await this.options.store.load();
		const running: JournalRecord[] = [];
		const stored = new Set(records.map((record) => record.id));
		for (const [id, start] of this.running) {
			if (!stored.has(id)) running.push({ type: "call", id, at: start.at, session: start.session, tool: start.tool, notes: start.notes, args: start.args, outcome: "ok", durationMs: 0, answerBytes: 0 });
		}
		const entries = activityEntries([...records, ...running]);
		for (const entry of entries) {
			if (this.running.has(entry.id)) {
				delete entry.outcome;
				delete entry.durationMs;
				delete entry.answerBytes;
			}
		}
		return entries.filter((entry) => matchesFilter(entry, filter));
	}

	/** A note's bytes before a change, by their hash; undefined when no longer kept. */
	preImage(hash: string): Promise<Uint8Array | undefined> {
		return this.options.store.getBlob(hash);
	}

	/** Resolves when every record given so far is written. */
	flush(): Promise<void> {
		return this.queue;
	}

	private enqueue(records: JournalRecord[], before?: () => Promise<void>): Promise<void> {
		const store = this.options.store;
		this.queue = this.queue.then(async () => {
			try {
				await before?.();
				for (const record of records) await store.append(record);
				await this.keepWithinBounds(records);
			} catch (error) {
				this.options.log?.(`The activity journal could not be written: ${describeError(error)}`);
			}
		});
		return this.queue;
	}

	/** Counts what was appended; past a bound, compacts the store to the newest calls within LOW_WATER of each bound. */
	private async keepWithinBounds(appended: readonly JournalRecord[]): Promise<void> {
		const store = this.options.store;
		if (!this.totals) {
			const loaded = await store.load();
			const measured = measure(loaded);
			this.totals = { entries: new Set(loaded.map((record) => record.id)), bytes: measured.bytes, oldest: measured.oldest };
		} else {
			const measured = measure(appended);
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
		let kept: JournalRecord[] | undefined;
		await store.compact(
			(records) => {
				const within = new Set(withinBounds(records, target, now).map((record) => record.id));
				kept = records.filter((record) => within.has(record.id) || runningIds.has(record.id));
				return kept;
			},
			(records) => blobNames(records),
		);
		if (!kept) {
			// Another process is compacting: count afresh next time.
			this.totals = undefined;
			return;
		}
		const measured = measure(kept);
		this.totals = { entries: new Set(kept.map((record) => record.id)), bytes: measured.bytes, oldest: measured.oldest };
	}
}
