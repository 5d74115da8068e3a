import { createHash, randomBytes } from "node:crypto";
import {
	chmodSync,
	closeSync,
	lstatSync,
	mkdirSync,
	openSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	writeSync,
} from "node:fs";
import { join, resolve, sep } from "node:path";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "../../server/limits";
import { isProcessAlive, type ProcessAliveCheck } from "../../server/lock-file";

/**
 * What a running vault-tools HTTP endpoint leaves for `claude-code-bridge mcp-headers`, the command Claude Code
 * runs (its `headersHelper`) at every connect: the token of this start. Written only while the endpoint listens,
 * removed when it stops, replaced at every start. `token` is absent when the token is the user's own
 * (`CLAUDE_CODE_BRIDGE_MCP_TOKEN`): it is never written to disk, and the helper takes it from its environment.
 */
export interface HttpTokenRecord {
	writer: typeof RECORD_WRITER;
	pid: number;
	port: number;
	/** The vault's real path. */
	vault: string;
	token?: string;
}

const RECORD_WRITER = "claude-code-bridge";

/** `<home>/.claude-code-bridge/mcp-tokens`: under the user's home, never in the vault. 0700. */
export function httpTokenDirectory(homeDir: string): string {
	return join(homeDir, ".claude-code-bridge", "mcp-tokens");
}

/** One record per port: the helper is configured with the port Claude Code connects to. 0600. */
export function httpTokenRecordPath(homeDir: string, port: number): string {
	return join(httpTokenDirectory(homeDir), `${port}.json`);
}

/**
 * The short name of a vault in file names: the first 16 hex digits of the SHA-256 of its real path. Two vaults that
 * were given the same port (one closed, the other open) never share a headers file, so a Claude Code session in one
 * vault is never handed the other vault's token.
 */
export function vaultKey(vaultRealPath: string): string {
	return createHash("sha256").update(vaultRealPath).digest("hex").slice(0, 16);
}

/** `<port>-<vault key>.headers.json`: what Claude Code's `headersHelper` prints (`cat`/`type`), nothing else. */
export function headersFileName(port: number, vaultRealPath: string): string {
	return `${port}-${vaultKey(vaultRealPath)}.headers.json`;
}

export function headersFilePath(homeDir: string, port: number, vaultRealPath: string): string {
	return join(httpTokenDirectory(homeDir), headersFileName(port, vaultRealPath));
}

/** A record that cannot be written or trusted; the message is one line and never holds a token. */
export class HttpTokenRecordError extends Error {}

/**
 * Writes the record atomically: a new temp file created exclusively (never through a link), 0600, in the 0700
 * folder, renamed over `<port>.json`. Refused when the folder would be inside the vault (it would sync with it).
 */
export function writeHttpTokenRecord(homeDir: string, record: Omit<HttpTokenRecord, "writer">): string {
	const target = writePrivateFile(homeDir, record.vault, httpTokenRecordPath(homeDir, record.port), {
		writer: RECORD_WRITER,
		...record,
	});
	if (record.token !== undefined) {
		writePrivateFile(homeDir, record.vault, headersFilePath(homeDir, record.port, record.vault), {
			Authorization: `Bearer ${record.token}`,
		});
	}
	return target;
}

/**
 * One file of ours in `~/.claude-code-bridge/mcp-tokens`, written atomically: a new temp file created exclusively
 * (never through a link), 0600, in the 0700 folder, renamed over `target`. Refused when the folder would be inside
 * the vault (it would sync with the notes).
 */
function writePrivateFile(homeDir: string, vault: string, target: string, content: object): string {
	const directory = httpTokenDirectory(homeDir);
	if (isInside(realPath(homeDir), vault)) {
		throw new HttpTokenRecordError(
			`the home folder is inside the vault, so ${directory} would sync with the notes`,
		);
	}
	const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
	try {
		mkdirSync(directory, { recursive: true, mode: LOCK_DIRECTORY_MODE });
		chmodSync(directory, LOCK_DIRECTORY_MODE);
		const descriptor = openSync(temp, "wx", LOCK_FILE_MODE);
		try {
			writeSync(descriptor, JSON.stringify(content));
		} finally {
			closeSync(descriptor);
		}
		renameSync(temp, target);
		return target;
	} catch (error) {
		rmSync(temp, { force: true });
		throw new HttpTokenRecordError(
			`could not write ${target}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
		);
	}
}

/**
 * Removes the record of `port` and its headers file if this process wrote them (another process may listen there by
 * now). Never throws.
 */
export function removeHttpTokenRecord(homeDir: string, port: number, pid: number = process.pid): void {
	const path = httpTokenRecordPath(homeDir, port);
	try {
		const parsed = JSON.parse(readFileSync(path, "utf8")) as { pid?: unknown; vault?: unknown };
		if (parsed.pid !== pid) return;
		if (typeof parsed.vault === "string") rmSync(headersFilePath(homeDir, port, parsed.vault), { force: true });
		rmSync(path, { force: true });
	} catch {
		// Nothing to remove, or not ours to remove.
	}
}

export interface ReadRecordOptions {
	/** The user the files must belong to; POSIX only (Windows has no uid). */
	uid?: number;
	isAlive?: ProcessAliveCheck;
}

/**
 * The record of the endpoint on `port`, read as untrusted input: the folder and the file must be this user's, not
 * links, and closed to everyone else (0700, 0600); the content must be ours, for this port, from a live process.
 * Throws an `HttpTokenRecordError` saying which check failed.
 */
export function readHttpTokenRecord(homeDir: string, port: number, options: ReadRecordOptions = {}): HttpTokenRecord {
	const uid = options.uid ?? process.getuid?.();
	const directory = httpTokenDirectory(homeDir);
	const path = httpTokenRecordPath(homeDir, port);
	checkPrivate(directory, "folder", uid);
	checkPrivate(path, "file", uid);
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(path, "utf8"));
	} catch {
		throw new HttpTokenRecordError(`${path} is not a token record`);
	}
	if (!isRecord(parsed) || parsed.port !== port)
		throw new HttpTokenRecordError(`${path} is not a token record for port ${port}`);
	if (!(options.isAlive ?? isProcessAlive)(parsed.pid))
		throw new HttpTokenRecordError(`the bridge that served port ${port} (pid ${parsed.pid}) is no longer running`);
	return parsed;
}

/**
 * The token in the headers file Claude Code's `headersHelper` prints for this port and vault, read under the same
 * rules as the record (this user's, no link, 0600 in 0700). Throws an `HttpTokenRecordError`.
 */
export function readHeadersFileToken(
	homeDir: string,
	port: number,
	vaultRealPath: string,
	uid = process.getuid?.(),
): string {
	const path = headersFilePath(homeDir, port, vaultRealPath);
	checkPrivate(httpTokenDirectory(homeDir), "folder", uid);
	checkPrivate(path, "file", uid);
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(path, "utf8"));
	} catch {
		throw new HttpTokenRecordError(`${path} is not a headers file`);
	}
	const header = (parsed as { Authorization?: unknown } | null)?.Authorization;
	const token = typeof header === "string" ? /^Bearer ([0-9a-f]{64})$/.exec(header)?.[1] : undefined;
	if (token === undefined) throw new HttpTokenRecordError(`${path} is not a headers file`);
	return token;
}

function checkPrivate(path: string, kind: "folder" | "file", uid: number | undefined): void {
	let stats;
	try {
		stats = lstatSync(path);
	} catch {
		throw new HttpTokenRecordError(
			kind === "file"
				? `no bridge is serving this port (no ${path})`
				: `no bridge has served the vault tools over HTTP as this user (no ${path})`,
		);
	}
	if (stats.isSymbolicLink()) throw new HttpTokenRecordError(`${path} is a symbolic link; refused`);
	if (kind === "folder" ? !stats.isDirectory() : !stats.isFile())
		throw new HttpTokenRecordError(`${path} is not a ${kind}; refused`);
	if (uid !== undefined && stats.uid !== uid)
		throw new HttpTokenRecordError(`${path} belongs to another user; refused`);
	if (process.platform !== "win32" && (stats.mode & 0o077) !== 0) {
		throw new HttpTokenRecordError(
			`${path} can be read by other users (mode ${(stats.mode & 0o777).toString(8)}); refused`,
		);
	}
}

function isRecord(value: unknown): value is HttpTokenRecord {
	if (typeof value !== "object" || value === null) return false;
	const record = value as Record<string, unknown>;
	return (
		record.writer === RECORD_WRITER &&
		Number.isSafeInteger(record.pid) &&
		(record.pid as number) > 0 &&
		Number.isSafeInteger(record.port) &&
		typeof record.vault === "string" &&
		(record.token === undefined || (typeof record.token === "string" && /^[0-9a-f]{64}$/.test(record.token)))
	);
}

function isInside(path: string, folder: string): boolean {
	return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/** The real path, or the absolute one when it does not resolve. */
export function realPath(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return resolve(path);
	}
}
