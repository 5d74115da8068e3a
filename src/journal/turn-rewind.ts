import type { ActivityEntry } from "./activity-entries";
import { contentHash, sameBytes } from "./content-hash";
import type { Journal } from "./journal";
import { pathsOf, type PreImage } from "./journal-records";
import { PreImageError } from "./journal-store";
import type { UndoVault } from "./undo";

/** What rewinding a conversation to before some of its turns would do to the notes Claude changed in them. */
export interface RewindPlan {
	/** Put back as they were before those turns, byte for byte (a note Claude made then goes to the trash). */
	restore: string[];
	/** Changed since by someone else: the user chooses in the review what each holds. */
	review: string[];
	/** Not put back, with the reason. */
	left: { path: string; reason: string }[];
}

/** A note the user changed after Claude: its bytes now and before the turns; the bytes chosen, or undefined to keep it. */
export type RewindChooser = (note: {
	path: string;
	current: Uint8Array;
	earlier: Uint8Array;
}) => Promise<Uint8Array | undefined>;

/** How a note put to the review ended. */
export interface ReviewedNote {
	path: string;
	outcome: "restored" | "kept" | "not written";
	reason?: string;
}

/** What a rewind did: the plan as carried out, and the reviews still open (settled when the user decided each). */
export interface RewindResult extends RewindPlan {
	reviewed: Promise<ReviewedNote[]>;
}

/** One note's changes during the turns, oldest first, folded. */
interface NoteHistory {
	path: string;
	/** Its bytes before the first change (as the journal names them); undefined when Claude made it. */
	earlier: PreImage | undefined;
	/** The hash of what the last change left. */
	after: string;
	/** Each change began from what the one before it left: nobody else wrote between them. */
	unbroken: boolean;
	/** Why it cannot be put back, whatever is on disk. */
	problem?: string;
	entries: Set<string>;
}

/** One note as planned, with what carrying it out needs. */
type PlannedNote = NoteHistory &
	(
		| { action: "restore"; bytes: Uint8Array | undefined; expected: string }
		| { action: "review"; current: Uint8Array; bytes: Uint8Array }
		| { action: "leave"; reason: string }
		| { action: "unchanged" }
	);

const MOVED = "Claude moved or renamed it; undo that in the activity view";
const GONE = "is gone (moved or deleted since)";
const MADE_THEN_CHANGED = "Claude made it, and it changed since; it stays as it is";
const NOT_KEPT = "its earlier text is no longer kept (the journal's bounds)";

/**
 * Puts back the notes Claude changed during some turns of a conversation (the journal knows each change's turn),
 * as they were before the first of them: from the journal's pre-images, byte for byte, only over a note that still
 * holds what Claude's last change left. A note changed since by someone else, or between Claude's changes, is put
 * to the user (`RewindChooser`), who chooses what it holds; nothing is written over a change unseen. The journal's
 * entries whose every note was put back are marked undone.
 */
export class TurnRewind {
	constructor(
		private readonly journal: Journal,
		private readonly vault: UndoVault,
	) {}

	/** What `restore` would do now; nothing is written. */
	async plan(turns: ReadonlySet<string>): Promise<RewindPlan> {
		return summary(await this.planned(turns));
	}

	/** Puts the notes back; those in review are written when the user decides (see `RewindResult.reviewed`). */
	async restore(turns: ReadonlySet<string>, choose: RewindChooser): Promise<RewindResult> {
		const planned = await this.planned(turns);
		const handled = new Set<string>();
		const restore: string[] = [];
		const left: RewindPlan["left"] = [];
		const reviews: Promise<ReviewedNote>[] = [];
		for (const note of planned) {
			switch (note.action) {
				case "unchanged":
					handled.add(note.path);
					break;
				case "leave":
					left.push({ path: note.path, reason: note.reason });
					break;
				case "restore":
					try {
						if (note.bytes === undefined) await this.vault.trash(note.path);
						else await this.vault.writeBytes(note.path, note.bytes, note.expected);
						restore.push(note.path);
						handled.add(note.path);
					} catch (error) {
						left.push({ path: note.path, reason: error instanceof Error ? error.message : String(error) });
					}
					break;
				case "review":
					reviews.push(this.review(note, choose, handled));
					break;
			}
		}
		const marked = new Set<string>();
		await this.markUndone(planned, handled, marked);
		const reviewed = Promise.all(reviews).then(async (outcomes) => {
			await this.markUndone(planned, handled, marked);
			return outcomes;
		});
		return {
			restore,
			review: planned.filter((note) => note.action === "review").map((note) => note.path),
			left,
			reviewed,
		};
	}

	private async review(
		note: Extract<PlannedNote, { action: "review" }>,
		choose: RewindChooser,
		handled: Set<string>,
	): Promise<ReviewedNote> {
		const { path } = note;
		let chosen: Uint8Array | undefined;
		try {
			chosen = await choose({ path, current: note.current, earlier: note.bytes });
		} catch (error) {
			return { path, outcome: "not written", reason: error instanceof Error ? error.message : String(error) };
		}
		if (chosen === undefined) return { path, outcome: "kept" };
		try {
			if (!sameBytes(chosen, note.current)) await this.vault.writeBytes(path, chosen, contentHash(note.current));
			handled.add(path);
			return { path, outcome: "restored" };
		} catch (error) {
			return { path, outcome: "not written", reason: error instanceof Error ? error.message : String(error) };
		}
	}

	/** Every entry not marked yet whose every note was put back (or already held its earlier bytes) is undone. */
	private async markUndone(
		planned: readonly PlannedNote[],
		handled: ReadonlySet<string>,
		marked: Set<string>,
	): Promise<void> {
		const notesOf = new Map<string, string[]>();
		for (const note of planned)
			for (const id of note.entries) notesOf.set(id, [...(notesOf.get(id) ?? []), note.path]);
		for (const [id, paths] of notesOf) {
			if (marked.has(id) || !paths.every((path) => handled.has(path))) continue;
			marked.add(id);
			await this.journal.markUndone(id);
		}
	}

	private async planned(turns: ReadonlySet<string>): Promise<PlannedNote[]> {
		const histories = folded(await this.changedDuring(turns));
		const planned: PlannedNote[] = [];
		for (const history of histories) planned.push({ ...history, ...(await this.decide(history)) } as PlannedNote);
		return planned;
	}

	/** The entries of those turns with changes not undone yet, oldest first. */
	private async changedDuring(turns: ReadonlySet<string>): Promise<ActivityEntry[]> {
		const entries = await this.journal.entries();
		return entries
			.filter(
				(entry) =>
					entry.turn !== undefined &&
					turns.has(entry.turn) &&
					entry.changes.length > 0 &&
					entry.undoneAt === undefined &&
					entry.unreadable === undefined,
			)
			.reverse();
	}

	private async decide(history: NoteHistory): Promise<DistributiveOmit<PlannedNote, keyof NoteHistory>> {
		const { path } = history;
		const problem = history.problem ?? this.vault.pathProblem?.(path);
		if (problem !== undefined) return { action: "leave", reason: problem };
		const current = await this.vault.readBytes(path);
		if (history.earlier === undefined) {
			if (current === undefined) return { action: "unchanged" };
			if (history.unbroken && contentHash(current) === history.after)
				return { action: "restore", bytes: undefined, expected: history.after };
			return { action: "leave", reason: MADE_THEN_CHANGED };
		}
		let earlier: Uint8Array | undefined;
		try {
			earlier = await this.journal.preImage(history.earlier);
		} catch (error) {
			if (error instanceof PreImageError)
				return { action: "leave", reason: `its earlier text in the journal's folder ${error.message}` };
			throw error;
		}
		if (earlier === undefined) return { action: "leave", reason: NOT_KEPT };
		if (current === undefined) return { action: "leave", reason: GONE };
		if (sameBytes(current, earlier)) return { action: "unchanged" };
		if (history.unbroken && contentHash(current) === history.after)
			return { action: "restore", bytes: earlier, expected: history.after };
		return { action: "review", current, bytes: earlier };
	}
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Each note's changes across the entries (oldest first) folded into one history, in the order first changed. */
function folded(entries: readonly ActivityEntry[]): NoteHistory[] {
	const notes = new Map<string, NoteHistory>();
	const history = (path: string, earlier: PreImage | undefined, after: string, entry: string): NoteHistory => {
		let found = notes.get(path);
		if (!found) notes.set(path, (found = { path, earlier, after, unbroken: true, entries: new Set() }));
		found.entries.add(entry);
		return found;
	};
	for (const entry of entries) {
		for (const change of entry.changes) {
			if (change.kind === "move") {
				for (const path of pathsOf(change)) history(path, undefined, change.after, entry.id).problem = MOVED;
				continue;
			}
			const before = change.kind === "edit" ? change.before : undefined;
			const known = notes.has(change.path);
			const note = history(change.path, before, change.after, entry.id);
			if (known) {
				if (before?.hash !== note.after) note.unbroken = false;
				note.after = change.after;
			}
			if (entry.notUndoable !== undefined) note.problem = `its change was ${entry.notUndoable}`;
		}
	}
	return [...notes.values()];
}

function summary(planned: readonly PlannedNote[]): RewindPlan {
	return {
		restore: planned.filter((note) => note.action === "restore").map((note) => note.path),
		review: planned.filter((note) => note.action === "review").map((note) => note.path),
		left: planned.flatMap((note) => (note.action === "leave" ? [{ path: note.path, reason: note.reason }] : [])),
	};
}
