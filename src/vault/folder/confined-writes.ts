import { randomBytes } from "node:crypto";
import { constants, promises as fs, type Stats } from "node:fs";
import { join } from "node:path";
import { NoteChangedError, WriteRefusedError } from "../notes/vault-index";

const NOTHING_WRITTEN = "vault tools write only into the vault's own folders, so nothing was written";

/** Errors of `link()` on file systems without hard links (or across devices): a rename is used instead. */
const NO_HARD_LINKS = ["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS", "EMLINK"];

/**
 * The folder adapter's writes, confined at the moment they happen. A tool checks a path when it is called, but a
 * write can wait minutes for the user's review, and meanwhile a folder of the vault can be replaced by a symbolic
 * link to a folder outside it. So every write walks its path from the vault's real root with `lstat`, part by
 * part, right before writing: each part must be a real folder of the vault, never a link and never hidden.
 * Missing folders are created one level at a time, each checked after it is made. The text goes into a new
 * temporary file in the final folder; after that file exists, and again after its text is written, the folders
 * are walked again and the file is checked to be the one in that folder. Only then is it renamed (an edit) or
 * linked (a new note, which never replaces anything) into place, and the placed file is checked once more.
 *
 * What remains: Node has no `openat`, so every system call resolves the path again. A folder swapped in the
 * instant between the last check and one call can still redirect that one call. The note's text is written only
 * through the handle of a temporary file already found inside the vault, so what such a call could leave outside
 * is an empty folder, an empty temporary file or a hard link to the new note; the check after the call removes
 * the file and the link. An
 * edit's rename redirected that way needs the vault's own folder, with the temporary file in it, moved out of the
 * vault in that instant, which carries the note out with it anyway.
 */
export class ConfinedWrites {
	constructor(private readonly root: string) {}

	/** Replaces an existing note's text if it still is `expected` (else NoteChangedError); the file keeps its mode. */
	async replace(path: string, text: string, expected: string): Promise<void> {
		return this.replaceIf(path, text, (current) => current.toString("utf8") === expected);
	}

	/** Replaces an existing note's bytes if `isCurrent` accepts the bytes it has now (else NoteChangedError): undo's write. */
	async replaceIf(path: string, data: string | Uint8Array, isCurrent: (bytes: Buffer) => boolean): Promise<void> {
		const { parts, name } = splitPath(path);
		const folder = await this.folders(parts, false);
		const target = join(folder, name);
		const current = await readNote(target, path);
		if (!isCurrent(current.bytes)) throw new NoteChangedError(path);
		const temporary = await this.writeTemporary(parts, folder, data, current.stats.mode & 0o777);
		try {
			const now = await fs.lstat(target);
			if (now.isSymbolicLink())
				throw new WriteRefusedError(`Refused: ${path} is a symbolic link; ${NOTHING_WRITTEN}`);
			if (!sameFile(now, current.stats)) throw new NoteChangedError(path);
			await fs.rename(temporary.path, target);
		} catch (error) {
			await removeQuietly(temporary.path);
			throw error;
		}
	}

	/** Creates a note and its missing folders; fails with EEXIST when anything is at `path`. */
	async create(path: string, text: string): Promise<void> {
		const { parts, name } = splitPath(path);
		const folder = await this.folders(parts, true);
		const temporary = await this.writeTemporary(parts, folder, text);
		try {
			await placeWithoutOverwriting(temporary.path, join(folder, name), () =>
				this.assertInPlace(parts, join(folder, name), temporary.stats),
			);
		} finally {
			await removeQuietly(temporary.path);
		}
	}

	/** Moves a note, creating the destination's missing folders; never over an existing file. */
	async move(from: string, to: string): Promise<void> {
		const source = splitPath(from);
		const sourcePath = join(await this.folders(source.parts, false), source.name);
		const stats = await fs.lstat(sourcePath);
		if (stats.isSymbolicLink())
			throw new WriteRefusedError(`Refused: ${from} is a symbolic link; ${NOTHING_WRITTEN}`);
		if (!stats.isFile()) throw new WriteRefusedError(`Refused: ${from} is not a file; nothing was written`);
		const destination = splitPath(to);
		const destinationPath = join(await this.folders(destination.parts, true), destination.name);
		// The file that arrives must be the note checked above (not a file a swapped source folder leads to), in the
		// vault's own destination folder.
		await placeWithoutOverwriting(sourcePath, destinationPath, () =>
			this.assertInPlace(destination.parts, destinationPath, stats),
		);
	}

	/**
	 * The real path of the folder `parts` (a vault path's folders), walked from the vault's real root: each part a
	 * real folder, not a link, not hidden. `create` makes missing ones, one level at a time.
	 */
	private async folders(parts: readonly string[], create: boolean): Promise<string> {
		let current = await fs.realpath(this.root);
		for (let depth = 0; depth < parts.length; depth++) {
			const part = parts[depth] ?? "";
			const shown = parts.slice(0, depth + 1).join("/");
			if (part === "" || part === "." || part === ".." || part.startsWith("."))
				throw new WriteRefusedError(
					`Refused: ${shown} is not a visible folder of the vault; nothing was written`,
				);
			const next = join(current, part);
			if (create) await fs.mkdir(next).catch(ignoreExisting);
			const stats = await fs.lstat(next);
			if (stats.isSymbolicLink())
				throw new WriteRefusedError(`Refused: ${shown} is a symbolic link; ${NOTHING_WRITTEN}`);
			if (!stats.isDirectory())
				throw new WriteRefusedError(`Refused: ${shown} is not a folder; nothing was written`);
			current = next;
		}
		return current;
	}

	/**
	 * A new temporary file in `folder` holding `text`, found in the vault's own folder `parts` after it was
	 * created and again after its text was written; removed when either check fails.
	 */
	private async writeTemporary(
		parts: readonly string[],
		folder: string,
		text: string | Uint8Array,
		mode = 0o666,
	): Promise<{ path: string; stats: Stats }> {
		const path = join(folder, `.${randomBytes(6).toString("hex")}.ccb-write`);
		const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
		let stats: Stats;
		try {
			stats = await handle.stat();
			await this.assertInPlace(parts, path, stats);
			await handle.writeFile(text, "utf8");
		} catch (error) {
			await handle.close();
			await removeQuietly(path);
			throw error;
		}
		await handle.close();
		try {
			await this.assertInPlace(parts, path, stats);
		} catch (error) {
			await removeQuietly(path);
			throw error;
		}
		return { path, stats };
	}

	/** `path` (in folder `parts`) is still the file `expected`, reached through the vault's own folders only. */
	private async assertInPlace(parts: readonly string[], path: string, expected: Stats): Promise<void> {
		await this.folders(parts, false);
		const now = await fs.lstat(path).catch(() => undefined);
		if (now === undefined || !sameFile(now, expected)) {
			throw new WriteRefusedError(
				`Refused: ${parts.join("/") || "the vault folder"} changed while the note was being written; nothing was written`,
			);
		}
	}
}

/** Vault path → its folders and its name. */
function splitPath(path: string): { parts: string[]; name: string } {
	const parts = path.split("/");
	const name = parts.pop() ?? "";
	if (name === "" || name === "." || name === "..")
		throw new WriteRefusedError(`Refused: ${path} does not name a note; nothing was written`);
	return { parts, name };
}

/** The note's bytes, read from a plain file that is not a link (opened without following one). */
async function readNote(absolute: string, path: string): Promise<{ bytes: Buffer; stats: Stats }> {
	const before = await fs.lstat(absolute);
	if (before.isSymbolicLink()) throw new WriteRefusedError(`Refused: ${path} is a symbolic link; ${NOTHING_WRITTEN}`);
	if (!before.isFile()) throw new WriteRefusedError(`Refused: ${path} is not a file; nothing was written`);
	const handle = await fs.open(absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	try {
		const stats = await handle.stat();
		if (!sameFile(stats, before)) throw new NoteChangedError(path);
		return { bytes: await handle.readFile(), stats };
	} finally {
		await handle.close();
	}
}

/**
 * Puts `from` at `to`, never over an existing file: `link()` fails when `to` exists. `checkPlaced` runs once the
 * file is at `to`; when it fails, the new name is removed (or, after a rename, the file renamed back) and its error
 * thrown. File systems without hard links get a check for `to` and a rename instead (a file created at `to` in
 * between could then be replaced; the note lock makes that unlikely).
 */
async function placeWithoutOverwriting(from: string, to: string, checkPlaced: () => Promise<void>): Promise<void> {
	let linked = true;
	try {
		await fs.link(from, to);
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		if (code === "EEXIST" || !NO_HARD_LINKS.includes(String(code))) throw error;
		const taken = await fs.lstat(to).then(
			() => true,
			() => false,
		);
		if (taken) throw error;
		await fs.rename(from, to);
		linked = false;
	}
	try {
		await checkPlaced();
	} catch (error) {
		if (linked) await removeQuietly(to);
		else await fs.rename(to, from).catch(() => undefined);
		throw error;
	}
	if (linked) await fs.unlink(from);
}

function sameFile(a: Stats, b: Stats): boolean {
	return a.ino === b.ino && a.dev === b.dev;
}

function ignoreExisting(error: unknown): void {
	if ((error as { code?: unknown }).code !== "EEXIST") throw error;
}

async function removeQuietly(path: string): Promise<void> {
	await fs.rm(path, { force: true }).catch(() => undefined);
}
