import type { FolderNoteStore } from "./folder-note-store";

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
		return this.sources.get(target) ?? [];
	}

	dispose(): void {
		this.unsubscribe();
		this.clear();
	}

	private build(): void {
		this.clear();
		this.builtAt = this.store.structureVersion;
		for (const source of this.store.notePaths()) this.add(source);
	}

	private update(): void {
		const changed = [...this.stale, ...this.unread];
		this.stale.clear();
		this.unread.clear();
		for (const source of changed) {
			this.remove(source);
			if (this.store.isNote(source)) this.add(source);
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
