import type { Stats } from "node:fs";
import type { Notifier } from "../ide/notifier";
import {
	cursorSnapshot,
	LineIndex,
	selectionSnapshot,
	type Position,
	type SelectionSnapshot,
} from "../ide/workspace/selection";
import type { VaultLocation, VaultPaths } from "../vault/vault-paths";
import type { FolderFiles } from "../vault/folder/folder-files";
import { ActiveNoteLocation } from "./active-note-location";

/**
 * The headless host's stand-in for Obsidian's editor: one active note and its selection, driven by
 * stdin commands and reported through the same Notifier as the plugin.
 */
export class HeadlessEditor {
	private current: SelectionSnapshot | undefined;
	/** The active note's text as last read, like the text an editor holds, with the file's stamp at that read. */
	private kept: { absolute: string; stats: Stats; lines: LineIndex } | undefined;
	/**
	 * The last note a selection was made in, as checked on disk then, with the vault watcher's version read before
	 * that check: while the version stays the same, nothing on the way to the note changed, and its kept text holds.
	 */
	private checked: { input: string; location: VaultLocation; lines: LineIndex; changeVersion: number } | undefined;
	private readonly notes: ActiveNoteLocation;

	constructor(
		paths: VaultPaths,
		private readonly vault: FolderFiles,
		private readonly notifier: () => Notifier,
	) {
		this.notes = new ActiveNoteLocation(paths);
	}

	get selection(): SelectionSnapshot | undefined {
		return this.current;
	}

	open(path: string): SelectionSnapshot {
		const { location, stats } = this.notes.locate(path);
		this.noteText(location, stats);
		this.current = cursorSnapshot(location.absolute);
		this.notifier().activeNoteChanged(this.current, location);
		return this.current;
	}

	/** Selects from `start` to `end` (0-based); the command is a whole gesture, so it is sent at once. */
	select(path: string, start: Position, end: Position): SelectionSnapshot {
		const { location, lines } = this.selectedNote(path);
		if (!this.current || this.current.filePath !== location.absolute) this.open(path);
		const [from, to] = [lines.clamp(start), lines.clamp(end)];
		this.current = selectionSnapshot(location.absolute, lines.between(from, to), from, to);
		this.notifier().selectionEnded(this.current, location);
		return this.current;
	}

	/**
	 * The note and its text for a selection. Like Obsidian's editor, which holds a note's text and learns of changes
	 * on disk from the vault's watcher, the text checked last is used again while the watcher watches the folders on
	 * the way and has reported nothing since (no system call); otherwise, or without a watcher, the note is located
	 * again (`ActiveNoteLocation`) and its stamp compared. Either way no text is ever read through a path that was
	 * not checked: what the watcher vouches for is only that the text held still stands.
	 */
	private selectedNote(path: string): { location: VaultLocation; lines: LineIndex } {
		const checked = this.checked;
		if (checked !== undefined && checked.input === path && checked.changeVersion === this.vault.changeVersion)
			return checked;
		this.checked = undefined;
		// Read before the check: a change the watcher reports after it changes the version again.
		const before = this.vault.changeVersion;
		const { location, stats } = this.notes.locate(path);
		const lines = this.noteText(location, stats);
		// Only a settled text (see noteText) of a note reached without a symbolic link, every folder on its way watched.
		const holds =
			before !== undefined &&
			this.kept?.lines === lines &&
			location.realRelative === undefined &&
			this.vault.watchesWayTo(location.relative);
		if (holds) this.checked = { input: path, location, lines, changeVersion: before };
		return { location, lines };
	}

	/**
	 * The note's text (as lines): the kept text while the file's stamp (inode, size, modification and change times)
	 * is the same as at the read, else read again. A file modified in the seconds before the read is read every
	 * time, because a second write in the same timestamp tick (coarse on some file systems) would not change the stamp.
	 */
	private noteText(location: VaultLocation, stats: Stats): LineIndex {
		const kept = this.kept;
		if (kept && kept.absolute === location.absolute && sameStamp(kept.stats, stats)) return kept.lines;
		const lines = new LineIndex(this.vault.readText(location.relative));
		const settled = Date.now() - stats.mtimeMs > RECENT_WRITE_MS;
		this.kept = settled ? { absolute: location.absolute, stats, lines } : undefined;
		return lines;
	}
}

function sameStamp(a: Stats, b: Stats): boolean {
	return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** How long after a write the file's timestamps may still miss a second write (FAT: 2 s; HFS+: 1 s). */
const RECENT_WRITE_MS = 3000;

/** Parses `line:character` (0-based). */
export function parsePosition(text: string | undefined): Position {
	const match = /^(\d+):(\d+)$/.exec(text ?? "");
	if (!match) throw new Error(`Expected a position as <line>:<character> (0-based), not "${text ?? ""}"`);
	return { line: Number(match[1]), character: Number(match[2]) };
}
