import { promises as fs } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { contentHash } from "../journal/content-hash";
import { pathFormProblem } from "../journal/record-paths";
import type { UndoVault } from "../journal/undo";
import { ConfinedWrites } from "../vault/folder/confined-writes";
import { WriteRefusedError } from "../vault/notes/vault-index";

/** Where the headless host puts notes undo takes away: Obsidian's own "move to .trash" place. */
export const TRASH_FOLDER = ".trash";

/**
 * Undo's writes in a folder: exact bytes through the folder adapter's confined writes (only over a note that still
 * hashes to what the change left), and created notes moved to `<vault>/.trash/` (a free name there), never deleted.
 */
export function folderUndoWrites(root: string): Pick<UndoVault, "writeBytes" | "trash"> {
	const writes = new ConfinedWrites(root);
	return {
		writeBytes: (path, bytes, expectedHash) =>
			writes.replaceIf(path, bytes, (current) => contentHash(current) === expectedHash),
		trash: (path) => moveToTrash(root, path),
	};
}

async function moveToTrash(root: string, path: string): Promise<void> {
	// A vault path of the journal's form only (no "..", not absolute): the record it came from may have been planted.
	if (pathFormProblem(path) !== undefined)
		throw new WriteRefusedError(`Refused: ${path} is not a path inside the vault; nothing was moved to the trash`);
	const vault = await fs.realpath(root);
	const source = join(vault, ...path.split("/"));
	// The note's folder must be the vault's own, reached without a link, and the note a plain file.
	if ((await fs.realpath(dirname(source))) !== dirname(source))
		throw new WriteRefusedError(
			`Refused: the folder of ${path} is a symbolic link; nothing was moved to the trash`,
		);
	const stats = await fs.lstat(source);
	if (!stats.isFile())
		throw new WriteRefusedError(`Refused: ${path} is not a plain file; nothing was moved to the trash`);
	const trash = join(vault, TRASH_FOLDER);
	await fs.mkdir(trash, { mode: 0o755 }).catch((error: unknown) => {
		if ((error as { code?: unknown }).code !== "EEXIST") throw error;
	});
	const folder = await fs.lstat(trash);
	if (folder.isSymbolicLink() || !folder.isDirectory())
		throw new WriteRefusedError(
			`Refused: ${TRASH_FOLDER} is not a folder of the vault; nothing was moved to the trash`,
		);
	const extension = extname(path);
	const stem = basename(path, extension);
	for (let copy = 1; ; copy++) {
		const destination = join(trash, copy === 1 ? `${stem}${extension}` : `${stem} ${copy}${extension}`);
		try {
			// A hard link never replaces a file already in the trash; then the note's own name goes.
			await fs.link(source, destination);
			await fs.unlink(source);
			return;
		} catch (error) {
			if ((error as { code?: unknown }).code !== "EEXIST") throw error;
		}
	}
}
