import type { FolderNoteStore } from "./folder-note-store";
import type { SavedTargets } from "./saved-targets";

/** Where the saved index's notes linked, by row (a later session: `FolderNoteStore.adopt`). */
export interface SavedBacklinks {
	/** The store's structure version the saved targets hold at: once files came or went, they are not used. */
	readonly version: number;
	/** The saved targets (parsed when first asked); undefined when the saved index holds none usable. */
	readonly targets: () => SavedTargets | undefined;
}

/**
 * Every note's link targets turned around: for a note, the notes whose links lead to it. Built in one pass over the
 * notes for the store's structure version (files added or removed can change where any link leads), then kept up to
 * date note by note as notes change, so a backlinks question costs a lookup, not a pass over every note's targets.
 */
export class BacklinkIndex {
	/** Target → the notes linking to it, each once. */
	private readonly sources = new Map<string, string[]>();
	/** Source → the targets it was added under. */
	private readonly added = new Map<string, readonly string[]>();
	/** Notes changed (or added) since they were added. */
	private readonly stale = new Set<string>();
	/** Notes whose targets could not be had (the note could not be read): asked again each time, as before. */
	private readonly unread = new Set<string>();
	private builtAt: number | undefined;
	private saved: SavedBacklinks | undefined;
	/** The saved targets while they answer (from the last build). */
	private savedTargets: SavedTargets | undefined;
	private readonly unsubscribe: () => void;

	/** `targetsOf`: where a note's links lead now, each target once; undefined when the note cannot be read. */
	constructor(
		private readonly store: FolderNoteStore,
		private readonly targetsOf: (source: string) => readonly string[] | undefined,
	) {
		this.unsubscribe = store.onNoteChanged((path) => {
			if (this.builtAt !== undefined) this.stale.add(path);
		});
	}

	/** The notes with a link that leads to `target` (the target itself included when it links to itself). */
	sourcesOf(target: string): readonly string[] {
		if (this.builtAt !== this.store.structureVersion) this.build();
		else if (this.stale.size > 0 || this.unread.size > 0) this.update();
		const added = this.sources.get(target) ?? [];
		const saved = this.savedTargets;
		if (!saved) return added;
		const sources = [...added];
		const rows = saved.sourceRows(target);
		for (let at = 0; at < rows.length; at++) {
			const row = rows[at] ?? -1;
			const source = saved.pathOf(row);
			// Still as saved (a note changed since answers from the notes added here).
			if (this.store.savedRowOf(source) === row && saved.hasTargets(row)) sources.push(source);
		}
		return sources;
	}

	/**
	 * Before the first build of a later session, while the `statAhead` worker is still checking the saved stamps: the
	 * notes with a link to `target` among those before `before` in path order, the first saved row not checked yet
	 * (from the saved targets of the rows checked and still as saved, and the targets of the other notes there, read);
	 * undefined when a build would not wait for the worker (it has found every row, or there is none) or the saved
	 * targets do not hold. The rows found so far are confirmed on the way, as the build would.
	 */
	sourcesSoFar(target: string): { sources: string[]; before: string } | undefined {
		const saved = this.saved;
		if (!saved || this.builtAt !== undefined || saved.version !== this.store.structureVersion) return undefined;
		const checked = this.store.confirmAdoptedSoFar();
		// A file found gone meanwhile changes where links may lead: the build answers then.
		if (checked === undefined || saved.version !== this.store.structureVersion) return undefined;
		const targets = saved.targets();
		if (!targets || checked >= targets.rows) return undefined;
		const before = targets.pathOf(checked);
		const sources: string[] = [];
		for (const row of targets.sourceRows(target)) {
			if (row >= checked) break;
			const source = targets.pathOf(row);
			if (this.store.savedRowOf(source) === row) sources.push(source);
		}
		// The notes before it the saved targets do not answer for (added, changed, or saved without targets): read.
		const others: string[] = [];
		this.store.forEachNote((source, row) => {
			if (source < before && (row === undefined || !targets.hasTargets(row))) others.push(source);
		});
		for (const source of others) if (this.targetsOf(source)?.includes(target)) sources.push(source);
		return { sources: sources.sort(), before };
	}

	/** Answers from the saved index's targets for the notes the store took up from it (until files come or go). */
	useSaved(saved: SavedBacklinks): void {
		this.saved = saved;
		this.builtAt = undefined;
	}

	dispose(): void {
		this.unsubscribe();
		this.clear();
		this.saved = undefined;
		this.savedTargets = undefined;
	}

	private build(): void {
		// Every note taken up from the saved index checked first (a file changed or gone since is dropped from it,
		// and may change the structure version).
		if (this.saved) this.store.confirmAdopted();
		this.clear();
		this.builtAt = this.store.structureVersion;
		if (this.saved && this.saved.version !== this.builtAt) this.saved = undefined;
		this.savedTargets = this.saved?.targets();
		const saved = this.savedTargets;
		if (!saved) {
			for (const source of this.store.notePaths()) this.add(source);
		} else {
			// The notes the saved targets do not answer for, found without looking each note up by its path; added in
			// path order, as without saved targets.
			const others: string[] = [];
			this.store.forEachNote((source, row) => {
				if (row === undefined || !saved.hasTargets(row)) others.push(source);
			});
			for (const source of others.sort()) this.add(source);
		}
	}

	/** Whether the saved targets answer for the note: taken up from the saved index (still as saved), targets saved. */
	private answeredFromSaved(source: string): boolean {
		const saved = this.savedTargets;
		const row = saved ? this.store.savedRowOf(source) : undefined;
		return row !== undefined && saved?.hasTargets(row) === true;
	}

	private update(): void {
		const changed = [...this.stale, ...this.unread];
		this.stale.clear();
		this.unread.clear();
		for (const source of changed) {
			this.remove(source);
			if (this.store.isNote(source) && !this.answeredFromSaved(source)) this.add(source);
		}
	}

	private add(source: string): void {
		const targets = this.targetsOf(source);
		if (targets === undefined) {
			this.unread.add(source);
			return;
		}
		this.added.set(source, targets);
		for (const target of targets) {
			const list = this.sources.get(target);
			if (list) list.push(source);
			else this.sources.set(target, [source]);
		}
	}

	private remove(source: string): void {
		const targets = this.added.get(source);
		if (!targets) return;
		this.added.delete(source);
		for (const target of targets) {
			const list = this.sources.get(target);
			if (!list) continue;
			const at = list.indexOf(source);
			if (at >= 0) list.splice(at, 1);
			if (list.length === 0) this.sources.delete(target);
		}
	}

	private clear(): void {
		this.sources.clear();
		this.added.clear();
		this.stale.clear();
		this.unread.clear();
	}
}
