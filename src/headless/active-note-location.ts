import { lstatSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { VaultLocation, VaultPaths } from "../vault/vault-paths";

/** A note's place in the vault and its file's stats (for the editor's kept-text stamp). */
export interface LocatedNote {
	location: VaultLocation;
	stats: Stats;
}

interface KeptResolution {
	input: string;
	location: VaultLocation;
	/** The folders between the vault root and the note, as absolute paths, outermost first. */
	folders: string[];
	/** Device and inode of the note the resolution found inside the vault. */
	fileId: string;
}

/**
 * Where the editor's active note is, resolved through `VaultPaths` (its realpath check refuses a path that leads
 * out of the vault) once, then checked again on each call for that same path with a cheaper proof that the answer
 * still holds: every folder on the way inside the vault is still a folder and not a symbolic link, and the note
 * itself is a regular file, not a symbolic link, with the device and inode the resolution found. This is what a
 * selection gesture asks for again and again (the headless `select`, whenever the vault's watcher cannot vouch that
 * nothing changed), so it costs one lstat per folder level and one for the note (which also stamps the kept text),
 * instead of an access, a realpath and a stat.
 *
 * Anything else (another path, a note reached through a symbolic link inside the vault, a check that fails or
 * throws) resolves again through `VaultPaths`, with its errors. Privacy is not decided here: the notifier judges
 * every selection it sends.
 */
export class ActiveNoteLocation {
	private kept: KeptResolution | undefined;

	constructor(private readonly paths: VaultPaths) {}

	/** The note `input` names; throws `VaultPathError`, or an error naming a missing note or a folder. */
	locate(input: string): LocatedNote {
		const kept = this.kept;
		if (kept !== undefined && kept.input === input) {
			const stats = stillTheSameNote(kept);
			if (stats !== undefined) return { location: kept.location, stats };
		}
		this.kept = undefined;
		const location = this.paths.resolve(input);
		const stats = noteStats(location);
		// Without `realRelative`, the real path is the path as given: no symbolic link on the way to check later.
		if (location.realRelative === undefined)
			this.kept = {
				input,
				location,
				folders: foldersOn(this.paths.root, location.relative),
				fileId: fileIdOf(stats),
			};
		return { location, stats };
	}
}

/** The note's lstat when nothing on its way changed into something that could lead elsewhere; else undefined. */
function stillTheSameNote(kept: KeptResolution): Stats | undefined {
	try {
		for (const folder of kept.folders) {
			if (!lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) return undefined;
		}
		const stats = lstatSync(kept.location.absolute, { throwIfNoEntry: false });
		return stats?.isFile() && fileIdOf(stats) === kept.fileId ? stats : undefined;
	} catch {
		// ENOTDIR (a folder replaced by a file), EACCES, …: the full resolution says what is wrong.
		return undefined;
	}
}

function noteStats(location: VaultLocation): Stats {
	let stats;
	try {
		stats = statSync(location.absolute);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT")
			throw new Error(`No note ${location.relative} in the vault`);
		throw error;
	}
	if (!stats.isFile()) throw new Error(`${location.relative} is a folder, not a note`);
	return stats;
}

/** `root/a`, `root/a/b` for `a/b/Note.md`: the vault's folders the note is reached through. */
function foldersOn(root: string, relative: string): string[] {
	const parts = relative.split("/").slice(0, -1);
	return parts.map((_part, index) => join(root, ...parts.slice(0, index + 1)));
}

function fileIdOf(stats: Stats): string {
	return `${stats.dev}:${stats.ino}`;
}
