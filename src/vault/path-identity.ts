import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * What path identity needs of the file system, behind an interface so tests can answer as APFS (case-insensitive,
 * case-preserving, normalisation-insensitive) or NTFS (case-insensitive) would, whatever the machine runs.
 */
export interface PathFileSystem {
	/** The real path (symbolic links resolved; where the volume does it, the stored spelling), or undefined when nothing is there. */
	realpath(path: string): string | undefined;
	/** Whether `path` itself is a symbolic link (not followed). */
	isSymbolicLink(path: string): boolean;
	/** Device and inode of what `path` names, following links, as one string; undefined when nothing is there. */
	fileId(path: string): string | undefined;
	/** Names in a folder; [] when it cannot be read. */
	names(folder: string): string[];
	/** How many hard links the file has; undefined when it cannot be told. */
	linkCount(path: string): number | undefined;
}

export const nodeFileSystem: PathFileSystem = {
	realpath: (path) => {
		// A missing path answers without an exception: a thrown lookup costs several times a successful one, and
		// that difference told a missing note from a private one (finding 8). existsSync costs one access().
		if (!existsSync(path)) return undefined;
		try {
			return realpathSync.native(path);
		} catch {
			return undefined;
		}
	},
	// Asked for paths that are usually missing: without throwing, which costs more than the lookup (finding 8's timing).
	isSymbolicLink: (path) => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false,
	fileId: (path) => {
		try {
			const stats = statSync(path, { bigint: true });
			return `${stats.dev}:${stats.ino}`;
		} catch {
			return undefined;
		}
	},
	names: (folder) => {
		try {
			return readdirSync(folder);
		} catch {
			return [];
		}
	},
	linkCount: (path) => {
		try {
			return statSync(path).nlink;
		} catch {
			return undefined;
		}
	},
};

/** The canonical comparison key of a vault path, the one identity that privacy rules and paths are compared in. */
export interface PathKey {
	key(relativePath: string): string;
}

/** Printable ASCII is its own NFC (composition needs a non-ASCII mark), and checking costs a third of normalising. */
const ASCII = /^[ -~]*$/;

/** Unicode NFC, so a name stored in NFD (Finder, HFS+ copies) and one typed in NFC compare equal. */
export function normaliseUnicode(text: string): string {
	return ASCII.test(text) ? text : text.normalize("NFC");
}

/** Case-folded NFC; lower-casing can leave combining marks apart, hence the second normalisation. */
export function foldCase(text: string): string {
	return ASCII.test(text) ? text.toLowerCase() : text.normalize("NFC").toLowerCase().normalize("NFC");
}

/** The key to use when the volume cannot be asked: folding only ever makes more paths match a rule, never fewer. */
export const FOLDED_PATH_KEY: PathKey = { key: foldCase };

/**
 * One identity for every path of one vault: Unicode NFC always, and case-folded when the vault's volume is
 * case-insensitive. Whether it is is DETECTED, once per vault root, by looking the root (or an entry in it) up
 * under a case-swapped spelling and comparing device and inode; when nothing can be swapped or the answer is
 * unclear it counts as case-insensitive (the safe side). The real path itself comes from `VaultPaths.resolve`
 * (one realpath per call); the key is string work only, no system call.
 */
export class PathIdentity implements PathKey {
	private detected: boolean | undefined;

	constructor(
		private readonly realRoot: string,
		private readonly fileSystem: PathFileSystem,
	) {}

	/** Whether the vault's volume treats `Secret` and `SECRET` as one name (detected on first use, then cached). */
	get caseInsensitive(): boolean {
		this.detected ??= detectCaseInsensitive(this.realRoot, this.fileSystem) ?? true;
		return this.detected;
	}

	key(relativePath: string): string {
		return this.caseInsensitive ? foldCase(relativePath) : normaliseUnicode(relativePath);
	}
}

/**
 * True when `root` (or, if its own name has no letters, an entry in it) is found under a case-swapped spelling
 * and is the same file; false when that spelling names nothing or something else; undefined when no name could be
 * swapped or the root cannot be seen. Only the vault's own volume is asked, never an ancestor's (another mount).
 */
export function detectCaseInsensitive(root: string, fileSystem: PathFileSystem): boolean | undefined {
	const rootId = fileSystem.fileId(root);
	if (rootId === undefined) return undefined;
	const rootName = basename(root);
	if (swapCase(rootName) !== rootName && dirname(root) !== root) {
		return fileSystem.fileId(join(dirname(root), swapCase(rootName))) === rootId;
	}
	for (const name of fileSystem.names(root)) {
		if (swapCase(name) === name) continue;
		const id = fileSystem.fileId(join(root, name));
		if (id === undefined) continue;
		return fileSystem.fileId(join(root, swapCase(name))) === id;
	}
	return undefined;
}

function swapCase(name: string): string {
	return [...name].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join("");
}
