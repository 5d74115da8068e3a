import type { ActivityEntry } from "./activity-entries";
import { contentHash } from "./content-hash";
import type { Journal } from "./journal";
import { pathsOf, type NoteChange, type PreImage } from "./journal-records";
import { PreImageError } from "./journal-store";
import type { NoteBytes } from "./journal-writer";

/** What undo does to the vault: the root's adapter (the folder for the headless host, Obsidian's vault later). */
export interface UndoVault extends NoteBytes {
	/** Replaces a note's bytes, only while its bytes still hash to `expectedHash`; otherwise throws and writes nothing. */
	writeBytes(path: string, bytes: Uint8Array, expectedHash: string): Promise<void>;
	/** Whether anything is at this vault path. */
	exists(path: string): Promise<boolean>;
	/** Moves a note and rewrites every link to it (the vault's link-safe rename). */
	renameNote(from: string, to: string): Promise<void>;
	/** Moves a note to the trash (Obsidian's setting, or `<vault>/.trash/`); never a hard delete. */
	trash(path: string): Promise<void>;
	/**
	 * Why undo must not touch this vault path now (it leads out of the vault through a link, it is private or in the
	 * config folder); undefined when it may. Asked for every path of an entry before anything is written.
	 */
	pathProblem?(path: string): string | undefined;
}

/** A note undo would not overwrite: what it holds now differs from what the change left. */
export interface UndoConflict {
	path: string;
	reason: string;
	/** The bytes undo would put back (absent for a created note, which would go to the trash). */
	restore?: Uint8Array;
	/** The bytes there now (absent when the note is gone). */
	current?: Uint8Array;
}

export type UndoResult =
	| { kind: "undone"; id: string; notes: string[] }
	/** Nothing was written: notes changed since (shown as a review in Obsidian; refused with the reason headless). */
	| { kind: "conflict"; id: string; reason: string; conflicts: UndoConflict[] }
	| { kind: "refused"; id: string; reason: string };

/**
 * Undo of a call's changes, newest first, only when every note it changed still holds what the change left (its
 * post-image hash): then the exact pre-image bytes are put back, a move is moved back (links in every note rewritten
 * back, the journaled ones to their exact bytes), and a created note goes to the trash. Otherwise nothing is written.
 */
export class Undo {
	constructor(
		private readonly journal: Journal,
		private readonly vault: UndoVault,
	) {}

	async entry(id: string): Promise<UndoResult> {
		const entry = (await this.journal.entries()).find((candidate) => candidate.id === id);
		if (!entry) return { kind: "refused", id, reason: `no entry ${id} in the activity journal` };
		return this.undoEntry(entry);
	}

	/** Every change of a session, newest call first; each call as `entry` does it. */
	async session(key: string): Promise<UndoResult[]> {
		const entries = (await this.journal.entries({ session: key })).filter(
			(entry) => entry.changes.length > 0 && entry.undoneAt === undefined,
		);
		const results: UndoResult[] = [];
		for (const entry of entries) results.push(await this.undoEntry(entry));
		return results;
	}

	private async undoEntry(entry: ActivityEntry): Promise<UndoResult> {
		const id = entry.id;
		if (entry.unreadable !== undefined)
			return {
				kind: "refused",
				id,
				reason: `the journal's record of ${id} is unreadable: ${entry.unreadable}; nothing was undone`,
			};
		if (entry.changes.length === 0) return { kind: "refused", id, reason: `${entry.tool} (${id}) changed no note` };
		if (entry.notUndoable !== undefined)
			return {
				kind: "refused",
				id,
				reason: `${entry.tool} (${id}) was ${entry.notUndoable}; nothing was undone`,
			};
		if (entry.undoneAt !== undefined)
			return { kind: "refused", id, reason: `${entry.tool} (${id}) was undone already` };
		const changes = [...entry.changes].reverse();
		for (const path of changes.flatMap(pathsOf)) {
			const problem = this.vault.pathProblem?.(path);
			if (problem !== undefined)
				return { kind: "refused", id, reason: `${entry.tool} (${id}) names ${problem}; nothing was undone` };
		}
		const conflicts: UndoConflict[] = [];
		for (const change of changes) {
			const missing = await this.unusablePreImage(change);
			if (missing) return { kind: "refused", id, reason: `the earlier text of ${missing}; nothing was undone` };
			conflicts.push(...(await this.conflictsOf(change)));
		}
		if (conflicts.length > 0) {
			return {
				kind: "conflict",
				id,
				reason: `${conflicts.map((conflict) => `${conflict.path} ${conflict.reason}`).join("; ")}; nothing was undone`,
				conflicts,
			};
		}
		const notes: string[] = [];
		for (const change of changes) notes.push(...(await this.apply(change)));
		await this.journal.markUndone(id);
		return { kind: "undone", id, notes };
	}

	/** A pre-image undo cannot use: "<path> is no longer kept …", or one the journal's folder holds changed. */
	private async unusablePreImage(change: NoteChange): Promise<string | undefined> {
		const images: { path: string; before: PreImage }[] =
			change.kind === "edit" ? [change] : change.kind === "move" ? change.rewrites : [];
		for (const image of images) {
			try {
				if ((await this.journal.preImage(image.before)) === undefined)
					return `${image.path} is no longer kept (the journal's bounds)`;
			} catch (error) {
				if (error instanceof PreImageError) return `${image.path} in the journal's folder ${error.message}`;
				throw error;
			}
		}
		return undefined;
	}

	private async conflictsOf(change: NoteChange): Promise<UndoConflict[]> {
		switch (change.kind) {
			case "edit":
				return this.check(change.path, change.after, change.before);
			case "create":
				return this.check(change.path, change.after, undefined);
			case "move": {
				const conflicts = await this.check(change.to, change.after, undefined);
				if (await this.vault.exists(change.from))
					conflicts.push({ path: change.from, reason: "is taken by another file now" });
				for (const rewrite of change.rewrites)
					if (rewrite.path !== change.to)
						conflicts.push(...(await this.check(rewrite.path, rewrite.after, rewrite.before)));
				return conflicts;
			}
		}
	}

	/** A conflict when the note at `path` no longer hashes to `after`. */
	private async check(path: string, after: string, restoreImage: PreImage | undefined): Promise<UndoConflict[]> {
		const current = await this.vault.readBytes(path);
		if (current !== undefined && contentHash(current) === after) return [];
		const restore = restoreImage === undefined ? undefined : await this.journal.preImage(restoreImage);
		return [
			{
				path,
				reason: current === undefined ? "is gone (moved or deleted since)" : "changed since",
				...(restore ? { restore } : {}),
				...(current ? { current } : {}),
			},
		];
	}

	private async apply(change: NoteChange): Promise<string[]> {
		switch (change.kind) {
			case "edit":
				await this.restore(change.path, change.before, change.after);
				return [change.path];
			case "create":
				await this.vault.trash(change.path);
				return [change.path];
			case "move": {
				// The link-safe rename puts back the path and the links in every note (private ones included); the notes
				// the journal kept then get their exact bytes back.
				await this.vault.renameNote(change.to, change.from);
				for (const rewrite of change.rewrites) {
					const path = rewrite.path === change.to ? change.from : rewrite.path;
					const current = await this.vault.readBytes(path);
					if (current !== undefined) await this.restore(path, rewrite.before, contentHash(current));
				}
				return [
					change.from,
					...change.rewrites
						.map((rewrite) => (rewrite.path === change.to ? change.from : rewrite.path))
						.filter((path) => path !== change.from),
				];
			}
		}
	}

	private async restore(path: string, before: PreImage, expected: string): Promise<void> {
		const bytes = await this.journal.preImage(before);
		if (bytes === undefined) throw new Error(`the earlier text of ${path} is no longer kept`);
		await this.vault.writeBytes(path, bytes, expected);
	}
}
