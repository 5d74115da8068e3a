import { randomBytes } from "node:crypto";
import {
	closeSync,
	constants,
	fstatSync,
	linkSync,
	lstatSync,
	mkdirSync,
	openSync,
	readSync,
	rmSync,
	writeFileSync,
	type Stats,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "./limits";
import { LOCK_FILE_WRITER, MAX_LOCK_FILE_BYTES } from "./lock-file-reader";
import { isProcessAlive, type ProcessAliveCheck } from "./lock-file";

/**
 * Where a `mcp --vault` session that reads a vault's folder (no bridge runs) tells the other sessions on the same
 * vault how to reach its index, so that they relay to it instead of reading the vault again: one file per vault,
 * privacy rules and version (`key`, its name), in a folder only the user can enter. Read as untrusted input, like
 * the lock files (`readFolderHost`).
 */
export interface FolderHostRecord {
	writer: typeof LOCK_FILE_WRITER;
	kind: "folder-host";
	/** The file's name without `.json`: a file copied or linked under another name is refused. */
	key: string;
	pid: number;
	port: number;
	/** The secret a relaying session must present (the host's WebSocket refuses a connection without it). */
	authToken: string;
	/** The vault's real path. */
	vaultPath: string;
}

export type FolderHostReading =
	{ kind: "read"; record: FolderHostRecord } | { kind: "missing" } | { kind: "refused"; reason: string };

const KEY = /^[0-9a-f]{32}$/;
/** `createAuthToken`'s form: 32 random bytes in hex. */
const TOKEN = /^[0-9a-f]{64}$/;
/** O_NOFOLLOW refuses a link swapped in after the lstat; O_NONBLOCK keeps a FIFO swapped in from blocking the open. */
const OPEN_FLAGS =
	process.platform === "win32"
		? constants.O_RDONLY
		: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** `<home>/.claude-code-bridge/folder-hosts`: under the user's home, never in the vault. */
export function folderHostDirectory(homeDir: string): string {
	return join(homeDir, ".claude-code-bridge", "folder-hosts");
}

export function folderHostPath(homeDir: string, key: string): string {
	if (!KEY.test(key)) throw new Error(`not a folder host key: ${JSON.stringify(key)}`);
	return join(folderHostDirectory(homeDir), `${key}.json`);
}

/**
 * Makes `path` name this process as the host, unless a live host holds it: "claimed", or "taken" (another process
 * holds it, or something that is not a readable host file sits at the name). The record is written in full to a new
 * 0600 file (created exclusively, never through a link) and then hard-linked to its name, which fails when the name
 * exists: two sessions starting together cannot both claim it. A host file whose process is gone is removed first.
 * Throws when the folder cannot be made safe (not a folder, a link, another user's, or open to others).
 */
export function claimFolderHost(
	path: string,
	record: Omit<FolderHostRecord, "writer" | "kind" | "key">,
	isAlive: ProcessAliveCheck = isProcessAlive,
): "claimed" | "taken" {
	const directory = dirname(path);
	ensurePrivateDirectory(directory);
	const existing = readFolderHost(path);
	if (existing.kind === "read" && isAlive(existing.record.pid)) return "taken";
	if (existing.kind === "read") rmSync(path, { force: true });
	const temp = join(directory, `.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const descriptor = openSync(
			temp,
			constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
			LOCK_FILE_MODE,
		);
		try {
			const full: FolderHostRecord = {
				writer: LOCK_FILE_WRITER,
				kind: "folder-host",
				key: basename(path, ".json"),
				...record,
			};
			writeFileSync(descriptor, JSON.stringify(full));
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
 * Reads a host file as untrusted input. Refused: a folder that is a symbolic link, not a folder, another user's
 * or not exactly 0700; a file that is a symbolic link (checked again on the open descriptor), not a regular file,
 * another user's, not exactly 0600 or too large; content that is not this project's folder-host record (a key
 * other than the file's name, a port out of range, a token not of the form the host makes). Never throws.
 */
export function readFolderHost(path: string): FolderHostReading {
	const directory = dirname(path);
	const folderProblem = problemOfFolder(directory);
	if (folderProblem === "missing") return { kind: "missing" };
	if (folderProblem !== undefined) return refused(`its folder ${directory} ${folderProblem}`);
	let link: Stats;
	try {
		link = lstatSync(path);
	} catch {
		return { kind: "missing" };
	}
	if (link.isSymbolicLink()) return refused("it is a symbolic link");
	if (!link.isFile()) return refused("it is not a regular file");
	let descriptor: number | undefined;
	try {
		descriptor = openSync(path, OPEN_FLAGS);
		const stats = fstatSync(descriptor);
		if (!stats.isFile() || stats.dev !== link.dev || stats.ino !== link.ino)
			return refused("it was replaced while it was read");
		const problem = ownerProblem(stats) ?? modeProblem(stats, LOCK_FILE_MODE);
		if (problem !== undefined) return refused(`it ${problem}`);
		if (stats.size > MAX_LOCK_FILE_BYTES) return refused(`it is larger than ${MAX_LOCK_FILE_BYTES / 1024} KiB`);
		const buffer = Buffer.alloc(stats.size);
		const length = readSync(descriptor, buffer, 0, stats.size, 0);
		return interpret(buffer.toString("utf8", 0, length), basename(path));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ELOOP") return refused("it is a symbolic link");
		return refused(`it cannot be read (${(error as Error).message})`);
	} finally {
		if (descriptor !== undefined) closeSync(descriptor);
	}
}

/** Removes the file if it still names this process (another may have claimed the name since). Never throws. */
export function releaseFolderHost(path: string, pid: number): void {
	try {
		const reading = readFolderHost(path);
		if (reading.kind === "read" && reading.record.pid === pid) rmSync(path, { force: true });
	} catch {
		// Nothing to do: the next session removes a file whose process is gone.
	}
}

function interpret(text: string, name: string): FolderHostReading {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return refused("it is not JSON");
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
		return refused("it is not a JSON object");
	const record = parsed as Record<string, unknown>;
	const { key, pid, port, authToken, vaultPath } = record;
	if (record.writer !== LOCK_FILE_WRITER || record.kind !== "folder-host")
		return refused("it is not a folder host record of Claude Code Bridge");
	if (typeof key !== "string" || `${key}.json` !== name)
		return refused(`its key ${JSON.stringify(key)} is not its name ${name}`);
	if (typeof pid !== "number" || !Number.isInteger(pid) || pid < 1) return refused("its pid is not a process id");
	if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535)
		return refused("its port is not a TCP port");
	if (typeof authToken !== "string" || !TOKEN.test(authToken)) return refused("its token is not one the host makes");
	if (typeof vaultPath !== "string" || vaultPath === "") return refused("it names no vault");
	return {
		kind: "read",
		record: { writer: LOCK_FILE_WRITER, kind: "folder-host", key, pid, port, authToken, vaultPath },
	};
}

/** Makes the folder (0700) or checks it: a real folder of this user's, not a link, closed to others. */
function ensurePrivateDirectory(directory: string): void {
	mkdirSync(directory, { recursive: true, mode: LOCK_DIRECTORY_MODE });
	const problem = problemOfFolder(directory);
	if (problem !== undefined)
		throw new Error(
			`${directory} ${problem === "missing" ? "cannot be made" : problem}: not sharing the vault's index through it`,
		);
}

/** Why the folder may not hold host files ("missing" when it does not exist), or undefined. */
function problemOfFolder(directory: string): string | undefined {
	let stats: Stats;
	try {
		stats = lstatSync(directory);
	} catch {
		return "missing";
	}
	if (stats.isSymbolicLink()) return "is a symbolic link, not a folder";
	if (!stats.isDirectory()) return "is not a folder";
	return ownerProblem(stats) ?? modeProblem(stats, LOCK_DIRECTORY_MODE, "is open to other users");
}

/** Undefined when the owner is this user, or cannot be told (Windows). */
function ownerProblem(stats: Stats): string | undefined {
	const uid = process.getuid?.();
	if (process.platform === "win32" || uid === undefined || stats.uid === uid) return undefined;
	return `belongs to another user (uid ${stats.uid})`;
}

function modeProblem(stats: Stats, wanted: number, what = "has the wrong mode"): string | undefined {
	const mode = stats.mode & 0o7777;
	if (process.platform === "win32" || mode === wanted) return undefined;
	return `${what} (mode 0${mode.toString(8)}, not 0${wanted.toString(8)})`;
}

function refused(reason: string): FolderHostReading {
	return { kind: "refused", reason };
}
