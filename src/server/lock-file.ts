import { randomBytes } from "node:crypto";
import { promises as fs, lstatSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "./limits";
import {
	LOCK_FILE_WRITER,
	checkLockFolder,
	readLockFile,
	type FileIdentity,
	type LockFileReading,
} from "./lock-file-reader";
import { describeError } from "../shared/describe-error";

export { LOCK_FILE_WRITER };

export interface LockFileContent {
	pid: number;
	workspaceFolders: string[];
	ideName: string;
	transport: "ws";
	runningInWindows: boolean;
	authToken: string;
	writer: typeof LOCK_FILE_WRITER;
}

/**
 * The home directory the CLI will use for `~/.claude/ide`. On POSIX this is what `os.homedir()`
 * returns ($HOME first), read through `process.env` so a host that swaps the environment object
 * (Jest's sandbox, an embedding app) is honoured; on Windows it is `os.homedir()` (USERPROFILE).
 */
export function userHomeDirectory(): string {
	const home = process.platform === "win32" ? undefined : process.env.HOME;
	return home && home.length > 0 ? home : homedir();
}

/** The folder the CLI scans for IDEs: `<home>/.claude/ide`. */
export function lockDirectory(homeDir: string): string {
	return join(homeDir, ".claude", "ide");
}

export function lockFilePath(homeDir: string, port: number): string {
	return join(lockDirectory(homeDir), `${port}.lock`);
}

export class LockFileError extends Error {
	constructor(message: string, cause: unknown) {
		super(message, { cause });
		this.name = "LockFileError";
	}
}

/**
 * Writes the lock file atomically: a new temp file created exclusively (never follows a link),
 * mode 0600, in a 0700 folder, then renamed over `<port>.lock`. The port is written inside too (the CLI
 * ignores the field): readers refuse a file whose name and content disagree, such as a link or copy under
 * another port's name.
 */
export async function writeLockFile(homeDir: string, port: number, content: LockFileContent): Promise<string> {
	const directory = lockDirectory(homeDir);
	const target = lockFilePath(homeDir, port);
	const temp = join(directory, `.${port}.lock.${randomBytes(6).toString("hex")}.tmp`);
	try {
		await fs.mkdir(directory, { recursive: true, mode: LOCK_DIRECTORY_MODE });
		await fs.chmod(directory, LOCK_DIRECTORY_MODE);
		const handle = await fs.open(temp, "wx", LOCK_FILE_MODE);
		try {
			await handle.writeFile(JSON.stringify({ ...content, port }), "utf8");
			await handle.chmod(LOCK_FILE_MODE);
		} finally {
			await handle.close();
		}
		await fs.rename(temp, target);
		return target;
	} catch (error) {
		await fs.rm(temp, { force: true }).catch(() => undefined);
		throw new LockFileError(
			`Could not write the lock file ${target}: ${describeError(error)}. Claude Code finds the bridge through ${directory}, which must be a folder this user can write to.`,
			error,
		);
	}
}

/** Synchronous so that it can run while the app quits. Never throws. */
export function removeLockFile(path: string): void {
	try {
		rmSync(path, { force: true });
	} catch {
		// Nothing to do: the CLI also deletes lock files whose pid is dead.
	}
}

export type ProcessAliveCheck = (pid: number) => boolean;

export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to someone else.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** A temp file this old was left by a crash between writing and renaming it (the rename follows in milliseconds). */
export const STALE_LOCK_TEMP_MS = 60_000;
/** `writeLockFile`'s temp file names: `.<port>.lock.<12 hex>.tmp`. */
const OWN_TEMP_NAME = /^\.\d+\.lock\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes lock files that this plugin wrote and whose process is gone, and temp files of `writeLockFile` left
 * by a crash (they hold a token that looks live): ours by name and content, and either from a dead process or
 * older than `STALE_LOCK_TEMP_MS`. Every file is read by `readLockFile`, so nothing is removed in a folder it
 * refuses, nor a link, a file of another user or one it refuses for any other reason; and a file is removed only
 * if it is still the one that was read. Other editors' files, and files it cannot read or parse, are left alone
 * (a temp file cut short by the crash counts as ours when it is empty or starts as ours does). Returns the
 * removed paths.
 */
export async function removeStaleLockFiles(
	homeDir: string,
	isAlive: ProcessAliveCheck = isProcessAlive,
): Promise<string[]> {
	const directory = lockDirectory(homeDir);
	if ((await checkLockFolder(directory)).kind !== "ok") return [];
	let names: string[];
	try {
		names = await fs.readdir(directory);
	} catch {
		return [];
	}
	const removed: string[] = [];
	for (const name of names) {
		const temp = OWN_TEMP_NAME.test(name);
		if (!temp && !name.endsWith(".lock")) continue;
		const path = join(directory, name);
		const reading = await readLockFile(path);
		if (isStale(reading, temp, isAlive) && removeIfUnchanged(path, reading.identity)) removed.push(path);
	}
	return removed;
}

function isStale(
	reading: LockFileReading,
	temp: boolean,
	isAlive: ProcessAliveCheck,
): reading is Extract<LockFileReading, { identity: FileIdentity }> {
	if (reading.kind === "read") {
		const { pid, writer } = reading.record;
		if (writer !== LOCK_FILE_WRITER || typeof pid !== "number") return false;
		return !isAlive(pid) || (temp && isOld(reading.mtimeMs));
	}
	// JSON.stringify of LockFileContent starts with its first field, pid: that is how a cut-short temp file is ours.
	if (reading.kind === "not-json")
		return temp && isOld(reading.mtimeMs) && (reading.text === "" || reading.text.startsWith('{"pid":'));
	return false;
}

function isOld(mtimeMs: number): boolean {
	return Date.now() - mtimeMs > STALE_LOCK_TEMP_MS;
}

/** Removes the path only if it still names the regular file that was read (not a link or a file swapped in since). */
function removeIfUnchanged(path: string, identity: FileIdentity): boolean {
	try {
		const now = lstatSync(path);
		if (!now.isFile() || now.dev !== identity.dev || now.ino !== identity.ino) return false;
	} catch {
		return false;
	}
	removeLockFile(path);
	return true;
}
