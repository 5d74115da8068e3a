import { constants, promises as fs, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { describeError } from "../shared/describe-error";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "./limits";

/** Marks lock files this plugin wrote; the CLI ignores unknown fields. */
export const LOCK_FILE_WRITER = "claude-code-bridge";

/** A lock file holds a few hundred bytes; anything far bigger is not one. */
export const MAX_LOCK_FILE_BYTES = 64 * 1024;

/** Why a lock folder is refused. */
export type LockFolderRule = "folder-symlink" | "folder-not-directory" | "folder-owner" | "folder-mode";
/** Why a lock file is refused (its folder's rules included). */
export type LockFileRule = LockFolderRule | "symlink" | "not-regular" | "owner" | "mode" | "size" | "changed" | "port";

/** Which file was read: a remover checks it is still the same one. */
export interface FileIdentity {
	dev: number;
	ino: number;
}

export type LockFolderCheck =
	| ({ kind: "ok"; mode: number } & FileIdentity)
	| { kind: "missing" }
	| { kind: "unreadable"; reason: string }
	/** `problem` completes "The folder …": "is a symbolic link", "has mode 0755, not 0700". */
	| { kind: "refused"; rule: LockFolderRule; problem: string };

interface ReadFacts {
	/** The port its name stands for (`<port>.lock`, or the writer's temp file `.<port>.lock.<hex>.tmp`). */
	port: number | undefined;
	mtimeMs: number;
	identity: FileIdentity;
}

export type LockFileReading =
	| ({ kind: "read"; record: Record<string, unknown> } & ReadFacts)
	/** Text that is not a JSON object (an old format, or a file cut short by a crash). */
	| ({ kind: "not-json"; text: string } & ReadFacts)
	| { kind: "missing" }
	| { kind: "unreadable"; reason: string }
	/** `reason` is a clause about the file: "it is a symbolic link", "its folder … has mode 0755, not 0700". */
	| { kind: "refused"; rule: LockFileRule; reason: string };

export interface LockFileReadOptions {
	/** Owner and mode rules apply on POSIX only: on Windows a uid and mode bits say nothing (the profile's ACL guards it). */
	platform?: NodeJS.Platform;
}

/** O_NOFOLLOW refuses a link swapped in after the lstat; O_NONBLOCK keeps a FIFO swapped in from blocking the open. */
const OPEN_FLAGS =
	process.platform === "win32"
		? constants.O_RDONLY
		: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const TEMP_NAME = /^\.([1-9]\d{0,4})\.lock\.[0-9a-f]{12}\.tmp$/;
const LOCK_NAME = /^([1-9]\d{0,4})\.lock$/;

/** The port a lock file's name stands for, or undefined when the name is not `<port>.lock` (nor our temp file's). */
export function portOfLockFileName(name: string): number | undefined {
	const digits = LOCK_NAME.exec(name)?.[1] ?? TEMP_NAME.exec(name)?.[1];
	const port = digits === undefined ? Number.NaN : Number(digits);
	return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * Checks a lock folder without following it: a real folder (not a symbolic link), and on POSIX owned by this
 * user with mode exactly 0700. Only its last component is checked: a linked `~/.claude` is the user's own choice.
 */
export async function checkLockFolder(
	directory: string,
	platform: NodeJS.Platform = process.platform,
): Promise<LockFolderCheck> {
	let stats: Stats;
	try {
		stats = await fs.lstat(directory);
	} catch (error) {
		return isMissing(error) ? { kind: "missing" } : { kind: "unreadable", reason: describeError(error) };
	}
	if (stats.isSymbolicLink()) return { kind: "refused", rule: "folder-symlink", problem: "is a symbolic link" };
	if (!stats.isDirectory()) return { kind: "refused", rule: "folder-not-directory", problem: "is not a folder" };
	const owner = ownerProblem(stats, platform);
	if (owner !== undefined) return { kind: "refused", rule: "folder-owner", problem: owner };
	const mode = stats.mode & 0o7777;
	if (platform !== "win32" && mode !== LOCK_DIRECTORY_MODE) {
		return {
			kind: "refused",
			rule: "folder-mode",
			problem: `has mode ${octal(mode)}, not ${octal(LOCK_DIRECTORY_MODE)}`,
		};
	}
	return { kind: "ok", mode, dev: stats.dev, ino: stats.ino };
}

/**
 * Reads a lock file as untrusted input, the one way the relay, the doctor and the stale-lock cleanup read it. Refused:
 * a file in a folder `checkLockFolder` refuses; a symbolic link or anything but a regular file (checked on the
 * open descriptor too, so a swap after the check is caught); on POSIX a file of another user or with a mode other
 * than 0600; a file over `MAX_LOCK_FILE_BYTES`; a `port` field that is not the port of its name; and a file of
 * this plugin without a `port` field, whose port would rest on its name alone. Never throws.
 */
export async function readLockFile(path: string, options: LockFileReadOptions = {}): Promise<LockFileReading> {
	const platform = options.platform ?? process.platform;
	const directory = dirname(path);
	const folder = await checkLockFolder(directory, platform);
	if (folder.kind === "refused")
		return { kind: "refused", rule: folder.rule, reason: `its folder ${directory} ${folder.problem}` };
	if (folder.kind !== "ok") return folder;

	let link: Stats;
	try {
		link = await fs.lstat(path);
	} catch (error) {
		return isMissing(error) ? { kind: "missing" } : { kind: "unreadable", reason: describeError(error) };
	}
	if (link.isSymbolicLink()) return refused("symlink", "it is a symbolic link");
	if (!link.isFile()) return refused("not-regular", "it is not a regular file");

	let handle: FileHandle;
	try {
		handle = await fs.open(path, OPEN_FLAGS);
	} catch (error) {
		if (errorCode(error) === "ELOOP") return refused("symlink", "it is a symbolic link");
		return isMissing(error) ? { kind: "missing" } : { kind: "unreadable", reason: describeError(error) };
	}
	try {
		const stats = await handle.stat();
		const problem = fileProblem(stats, link, platform);
		if (problem) return problem;
		const bytes = await readAtMost(handle, Math.min(stats.size, MAX_LOCK_FILE_BYTES) + 1);
		if (bytes.length > MAX_LOCK_FILE_BYTES)
			return refused("size", `it is larger than ${MAX_LOCK_FILE_BYTES / 1024} KiB`);
		const after = await checkLockFolder(directory, platform);
		if (after.kind !== "ok" || after.dev !== folder.dev || after.ino !== folder.ino)
			return refused("changed", "its folder was replaced while it was read");
		const facts: ReadFacts = {
			port: portOfLockFileName(basename(path)),
			mtimeMs: stats.mtimeMs,
			identity: { dev: stats.dev, ino: stats.ino },
		};
		return interpret(bytes.toString("utf8"), facts);
	} catch (error) {
		return { kind: "unreadable", reason: describeError(error) };
	} finally {
		await handle.close().catch(() => undefined);
	}
}

function interpret(text: string, facts: ReadFacts): LockFileReading {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { kind: "not-json", text, ...facts };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
		return { kind: "not-json", text, ...facts };
	const record = parsed as Record<string, unknown>;
	if ("port" in record) {
		if (record.port !== facts.port) {
			return refused(
				"port",
				`its port field says ${JSON.stringify(record.port)} but its name says ${facts.port ?? "no port"}`,
			);
		}
	} else if (record.writer === LOCK_FILE_WRITER) {
		return refused(
			"port",
			"it has no port field to confirm the port in its name (an older version of the bridge wrote it; restart that bridge)",
		);
	}
	return { kind: "read", record, ...facts };
}

function fileProblem(stats: Stats, link: Stats, platform: NodeJS.Platform): LockFileReading | undefined {
	if (!stats.isFile()) return refused("not-regular", "it is not a regular file");
	if (stats.dev !== link.dev || stats.ino !== link.ino)
		return refused("changed", "it was replaced while it was read");
	const owner = ownerProblem(stats, platform);
	if (owner !== undefined) return refused("owner", `it ${owner}`);
	const mode = stats.mode & 0o7777;
	if (platform !== "win32" && mode !== LOCK_FILE_MODE)
		return refused("mode", `it has mode ${octal(mode)}, not ${octal(LOCK_FILE_MODE)}`);
	return undefined;
}

/** Undefined when the owner is this user, or cannot be told (Windows, where `getuid` does not exist). */
function ownerProblem(stats: Stats, platform: NodeJS.Platform): string | undefined {
	const uid = process.getuid?.();
	if (platform === "win32" || uid === undefined || stats.uid === uid) return undefined;
	return `belongs to uid ${stats.uid}, not to this user (uid ${uid})`;
}

async function readAtMost(handle: FileHandle, bytes: number): Promise<Buffer> {
	const buffer = Buffer.alloc(bytes);
	let total = 0;
	while (total < bytes) {
		const { bytesRead } = await handle.read(buffer, total, bytes - total, total);
		if (bytesRead === 0) break;
		total += bytesRead;
	}
	return buffer.subarray(0, total);
}

function refused(rule: LockFileRule, reason: string): LockFileReading {
	return { kind: "refused", rule, reason };
}

function errorCode(error: unknown): unknown {
	return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}

function isMissing(error: unknown): boolean {
	const code = errorCode(error);
	return code === "ENOENT" || code === "ENOTDIR";
}

function octal(mode: number): string {
	return `0${mode.toString(8).padStart(3, "0")}`;
}
