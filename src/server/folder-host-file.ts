import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "./limits";
import { LOCK_FILE_WRITER, isProcessAlive, type ProcessAliveCheck } from "./lock-file";

/**
 * Where a `mcp --vault` session that reads a vault's folder (no bridge runs) tells the other sessions on the same
 * vault how to reach its index, so that they relay to it instead of reading the vault again: one file per vault
 * (and privacy rules and version, in its name), in a folder only the user can enter.
 */
export interface FolderHostRecord {
	writer: typeof LOCK_FILE_WRITER;
	kind: "folder-host";
	pid: number;
	port: number;
	authToken: string;
	/** The vault's real path. */
	vaultPath: string;
}

/** `<home>/.claude-code-bridge/folder-hosts`: under the user's home, never in the vault. */
export function folderHostDirectory(homeDir: string): string {
	return join(homeDir, ".claude-code-bridge", "folder-hosts");
}

export function folderHostPath(homeDir: string, key: string): string {
	return join(folderHostDirectory(homeDir), `${key}.json`);
}

/**
 * Makes `path` name this process as the host, unless a live host holds it: "claimed", or "taken" (another process
 * holds it). The record is written in full to a new 0600 file (created exclusively, never through a link) and then
 * hard-linked to its name, which fails when the name exists: two sessions starting together cannot both claim it.
 * A file whose process is gone is removed first (only a file of ours, by its content). Throws when the folder
 * cannot be made safe (not a folder, a link, another user's, or not writable).
 */
export function claimFolderHost(path: string, record: Omit<FolderHostRecord, "writer" | "kind">, isAlive: ProcessAliveCheck = isProcessAlive): "claimed" | "taken" {
	const directory = join(path, "..");
	ensurePrivateDirectory(directory);
	const existing = readFolderHost(path);
	if (existing && isAlive(existing.pid)) return "taken";
	if (existing) rmSync(path, { force: true });
	const temp = join(directory, `.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const descriptor = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, LOCK_FILE_MODE);
		try {
			writeFileSync(descriptor, JSON.stringify({ writer: LOCK_FILE_WRITER, kind: "folder-host", ...record } satisfies FolderHostRecord));
		} finally {
			closeSync(descriptor);
		}
		linkSync(temp, path);
		return "claimed";
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return "taken";
		throw error;
	} finally {
		rmSync(temp, { force: true });
	}
}

/**
 * The host a file names, or undefined: only a regular file (not a link) of this user's, readable by no one else,
 * written by this project, with a loopback port and a token. Never throws.
 */
export function readFolderHost(path: string): FolderHostRecord | undefined {
	let descriptor: number | undefined;
	try {
		descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
		const stats = fstatSync(descriptor);
		if (!stats.isFile() || (stats.mode & 0o077) !== 0 || (process.getuid !== undefined && stats.uid !== process.getuid())) return undefined;
		const parsed: unknown = JSON.parse(readFileSync(descriptor, "utf8"));
		if (typeof parsed !== "object" || parsed === null) return undefined;
		const record = parsed as Record<string, unknown>;
		const { pid, port, authToken, vaultPath } = record;
		if (record.writer !== LOCK_FILE_WRITER || record.kind !== "folder-host") return undefined;
		if (typeof pid !== "number" || typeof port !== "number" || port < 1 || port > 65535 || typeof authToken !== "string" || authToken === "" || typeof vaultPath !== "string") return undefined;
		return { writer: LOCK_FILE_WRITER, kind: "folder-host", pid, port, authToken, vaultPath };
	} catch {
		return undefined;
	} finally {
		if (descriptor !== undefined) closeSync(descriptor);
	}
}

/** Removes the file if it still names this process (another may have claimed the name since). Never throws. */
export function releaseFolderHost(path: string, pid: number): void {
	try {
		if (readFolderHost(path)?.pid === pid) rmSync(path, { force: true });
	} catch {
		// Nothing to do: the next session removes a file whose process is gone.
	}
}

/** Makes the folder (0700) or checks it: a real folder of this user's, not a link, closed to others. */
function ensurePrivateDirectory(directory: string): void {
	mkdirSync(directory, { recursive: true, mode: LOCK_DIRECTORY_MODE });
	const stats = lstatSync(directory);
	if (!stats.isDirectory()) throw new Error(`${directory} is not a folder (a link or a file): not sharing the vault's index through it`);
	if (process.getuid !== undefined && stats.uid !== process.getuid()) throw new Error(`${directory} belongs to another user: not sharing the vault's index through it`);
	if ((stats.mode & 0o077) !== 0) throw new Error(`${directory} is open to other users (mode ${(stats.mode & 0o777).toString(8)}): not sharing the vault's index through it`);
}
