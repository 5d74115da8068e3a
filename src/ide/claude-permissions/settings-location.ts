import { randomBytes } from "node:crypto";
import { promises as fs, type Stats } from "node:fs";
import { dirname, join } from "node:path";

/** The folder Claude Code reads project settings from; every file the bridge touches lies directly in it. */
export const CLAUDE_FOLDER = ".claude";

/** A file or folder the bridge will not read or write: a symbolic link, not a plain file or folder, or outside the vault. */
export class UnsafeSettingsPathError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UnsafeSettingsPathError";
	}
}

/**
 * The text of `<vault>/<relativePath>` (a file in `.claude`), or undefined when it does not exist.
 * @throws UnsafeSettingsPathError when `.claude` or the file is a symbolic link, or not what it should be
 */
export async function readInsideVault(vaultPath: string, relativePath: string): Promise<string | undefined> {
	if (!(await checkFolder(vaultPath))) return undefined;
	if (!(await checkFile(vaultPath, relativePath))) return undefined;
	try {
		return await fs.readFile(join(vaultPath, relativePath), "utf8");
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw error;
	}
}

/** Checks `<vault>/<relativePath>` and its `.claude` folder as `writeInsideVault` does, writing nothing. */
export async function checkWritable(vaultPath: string, relativePath: string): Promise<void> {
	if (await checkFolder(vaultPath)) await checkFile(vaultPath, relativePath);
}

/**
 * Writes `<vault>/<relativePath>` atomically: a temp file beside it, then a rename, so a reader sees the old text
 * or the new, never half. The folder and the file are checked again right before the rename, so a `.claude`
 * swapped for a link while the text was written is caught (the temp file is then removed). A rename replaces a
 * link rather than writing through it, so a file linked after that check is not written through either.
 * @throws UnsafeSettingsPathError as `readInsideVault`
 */
export async function writeInsideVault(vaultPath: string, relativePath: string, text: string): Promise<void> {
	const path = join(vaultPath, relativePath);
	if (!(await checkFolder(vaultPath))) {
		await fs.mkdir(join(vaultPath, CLAUDE_FOLDER)).catch((error: unknown) => {
			if (!(typeof error === "object" && error !== null && "code" in error && error.code === "EEXIST"))
				throw error;
		});
		await checkFolder(vaultPath);
	}
	const existing = await checkFile(vaultPath, relativePath);
	const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
	try {
		// A settings file of the user's own (say a 0600 settings.local.json) keeps its permissions.
		await fs.writeFile(temp, text, {
			encoding: "utf8",
			flag: "wx",
			mode: existing ? existing.mode & 0o777 : 0o666,
		});
		await checkFolder(vaultPath);
		await checkFile(vaultPath, relativePath);
		await fs.rename(temp, path);
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
}

/** Removes `<vault>/<relativePath>` if it is there; a link is removed itself, never its target. */
export async function removeInsideVault(vaultPath: string, relativePath: string): Promise<void> {
	if (await checkFolder(vaultPath)) await fs.rm(join(vaultPath, relativePath), { force: true });
}

/** Whether `<vault>/.claude` exists; throws when it is a link, not a folder, or its real parent is not the vault's real path. */
async function checkFolder(vaultPath: string): Promise<boolean> {
	const folder = join(vaultPath, CLAUDE_FOLDER);
	const stats = await lstatOptional(folder);
	if (stats === undefined) return false;
	const refused = `the bridge writes Claude Code's rules only into a real ${CLAUDE_FOLDER} folder inside the vault, so nothing was written.`;
	if (stats.isSymbolicLink())
		throw new UnsafeSettingsPathError(
			`${CLAUDE_FOLDER} is a symbolic link (to ${await linkTarget(folder)}): ${refused} Replace the link with a folder of its own to use it.`,
		);
	if (!stats.isDirectory()) throw new UnsafeSettingsPathError(`${CLAUDE_FOLDER} is not a folder: ${refused}`);
	const [realFolder, realVault] = await Promise.all([fs.realpath(folder), fs.realpath(vaultPath)]);
	if (dirname(realFolder) !== realVault)
		throw new UnsafeSettingsPathError(`${CLAUDE_FOLDER} resolves to ${realFolder}, outside the vault: ${refused}`);
	return true;
}

/** The file's stats when it exists; throws when it is a link or not a plain file. */
async function checkFile(vaultPath: string, relativePath: string): Promise<Stats | undefined> {
	const path = join(vaultPath, relativePath);
	const stats = await lstatOptional(path);
	if (stats === undefined) return undefined;
	const refused =
		"the bridge writes Claude Code's rules only into a real file inside the vault, so nothing was written.";
	if (stats.isSymbolicLink())
		throw new UnsafeSettingsPathError(
			`${relativePath} is a symbolic link (to ${await linkTarget(path)}): ${refused} Replace the link with a file of its own to use it.`,
		);
	if (!stats.isFile()) throw new UnsafeSettingsPathError(`${relativePath} is not a plain file: ${refused}`);
	return stats;
}

async function lstatOptional(path: string): Promise<Stats | undefined> {
	try {
		return await fs.lstat(path);
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw error;
	}
}

async function linkTarget(path: string): Promise<string> {
	return fs.readlink(path).catch(() => "somewhere else");
}

function isMissing(error: unknown): boolean {
	return (
		typeof error === "object" &&
		error !== null &&
		"code" in error &&
		(error.code === "ENOENT" || error.code === "ENOTDIR")
	);
}
