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

/**
 * Removes lock files that this plugin wrote and whose process is gone. Other editors' files, and
 * files it cannot read or parse, are left alone. Returns the removed paths.
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
		if (!name.endsWith(".lock")) continue;
		const path = join(directory, name);
		const content = await readOwnLockFile(path);
		if (content && !isAlive(content.pid)) {
			removeLockFile(path);
			removed.push(path);
		}
	}
	return removed;
}

async function readOwnLockFile(path: string): Promise<{ pid: number } | undefined> {
	try {
		const parsed: unknown = JSON.parse(await fs.readFile(path, "utf8"));
		if (typeof parsed !== "object" || parsed === null) return undefined;
		const record = parsed as Record<string, unknown>;
		if (record.writer !== LOCK_FILE_WRITER || typeof record.pid !== "number") return undefined;
		return { pid: record.pid };
	} catch {
		return undefined;
	}
}

