import { randomBytes } from "node:crypto";
import { promises as fs, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "./limits";
import { describeError } from "../shared/describe-error";

/** Marks lock files this plugin wrote; the CLI ignores unknown fields. */
export const LOCK_FILE_WRITER = "claude-code-bridge";

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
 * mode 0600, in a 0700 folder, then renamed over `<port>.lock`.
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
			await handle.writeFile(JSON.stringify(content), "utf8");
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
 * older than `STALE_LOCK_TEMP_MS`. Other editors' files, and files it cannot read or parse, are left alone
 * (a temp file cut short by the crash counts as ours when it is empty or starts as ours does). Returns the
 * removed paths.
 */
export async function removeStaleLockFiles(homeDir: string, isAlive: ProcessAliveCheck = isProcessAlive): Promise<string[]> {
	const directory = lockDirectory(homeDir);
	let names: string[];
	try {
		names = await fs.readdir(directory);
	} catch {
		return [];
	}
	const removed: string[] = [];
	for (const name of names) {
		const path = join(directory, name);
		if (name.endsWith(".lock")) {
			const content = await readOwnLockFile(path);
			if (content && !isAlive(content.pid)) {
				removeLockFile(path);
				removed.push(path);
			}
		} else if (OWN_TEMP_NAME.test(name) && (await isStaleOwnTempFile(path, isAlive))) {
			removeLockFile(path);
			removed.push(path);
		}
	}
	return removed;
}

async function isStaleOwnTempFile(path: string, isAlive: ProcessAliveCheck): Promise<boolean> {
	try {
		const stats = await fs.lstat(path);
		if (!stats.isFile()) return false;
		const old = Date.now() - stats.mtimeMs > STALE_LOCK_TEMP_MS;
		const text = await fs.readFile(path, "utf8");
		const owner = ownerOf(text);
		// JSON.stringify of LockFileContent starts with its first field, pid: that is how a cut-short file is ours.
		if (owner === "cut short") return old && (text === "" || text.startsWith('{"pid":'));
		return owner !== undefined && (old || !isAlive(owner.pid));
	} catch {
		return false;
	}
}

/** Our lock content's pid, undefined for anyone else's JSON, "cut short" for text that is not JSON. */
function ownerOf(text: string): { pid: number } | undefined | "cut short" {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return "cut short";
	}
	if (typeof parsed !== "object" || parsed === null) return undefined;
	const record = parsed as Record<string, unknown>;
	return record.writer === LOCK_FILE_WRITER && typeof record.pid === "number" ? { pid: record.pid } : undefined;
}

async function readOwnLockFile(path: string): Promise<{ pid: number } | undefined> {
	try {
		const owner = ownerOf(await fs.readFile(path, "utf8"));
		return owner === "cut short" ? undefined : owner;
	} catch {
		return undefined;
	}
}
