import { randomBytes } from "node:crypto";
import {
	chmodSync,
	closeSync,
	constants,
	fchmodSync,
	fstatSync,
	linkSync,
	mkdirSync,
	openSync,
	readSync,
	realpathSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { dataHome, isWithin } from "./journal-folder";

/** This device's key, and when it was made (ms since the epoch). */
export interface DeviceKey {
	key: Buffer;
	since: number;
}

/** The key's length in bytes (HMAC-SHA256's own block of strength). */
export const DEVICE_KEY_BYTES = 32;
/** Read only this much of the key file: a planted huge file (or a device) is no key. */
const KEY_FILE_MAX = 128;
/** Not following a link where the platform can say so (Windows has no O_NOFOLLOW; the lstat checks below serve). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The key this device authenticates its journal records with: 32 random bytes, hex, in
 * `<data folder>/claude-code-bridge/keys/journal.key` (the data folder as `journalFolder` finds it: `$XDG_DATA_HOME`
 * or `~/.local/share`). Made on first use (0600 in a 0700 folder, placed with a hard link, so two processes starting
 * at once agree on one key). Every host of this device reads the same file (Obsidian, the headless host, `mcp
 * --vault`); none syncs it, as it is never in a vault nor in data.json. A data folder inside the vault is refused,
 * and so is a key file that is a link or not a plain file.
 */
export function deviceKey(
	vaultRoot: string,
	environment: Readonly<Record<string, string | undefined>>,
	homeDir: string,
): DeviceKey | { refused: string } {
	const folder = join(dataHome(environment, homeDir), "claude-code-bridge", "keys");
	for (const root of new Set([resolve(vaultRoot), realOrSelf(vaultRoot)])) {
		if (isWithin(root, resolve(folder)))
			return {
				refused: `the data folder is inside the vault, so no key for the activity journal is kept; nothing can be undone`,
			};
	}
	try {
		mkdirSync(folder, { recursive: true, mode: 0o700 });
		chmodSync(folder, 0o700);
		const path = join(folder, "journal.key");
		return readKey(path) ?? createKey(path);
	} catch (error) {
		return {
			refused: `the activity journal's key could not be read (${error instanceof Error ? error.message : String(error)}); nothing can be undone`,
		};
	}
}

/** The key in the file; undefined when there is no file. Throws for a file that is no key. */
function readKey(path: string): DeviceKey | undefined {
	let descriptor: number;
	try {
		descriptor = openSync(path, constants.O_RDONLY | NO_FOLLOW);
	} catch (error) {
		if ((error as { code?: unknown }).code === "ENOENT") return undefined;
		throw error;
	}
	try {
		const stats = fstatSync(descriptor);
		if (!stats.isFile()) throw new Error(`${path} is not a plain file`);
		if (stats.size > KEY_FILE_MAX) throw new Error(`${path} is not a key`);
		if ((stats.mode & 0o077) !== 0) fchmodSync(descriptor, 0o600);
		const buffer = Buffer.alloc(KEY_FILE_MAX);
		const length = readSync(descriptor, buffer, 0, KEY_FILE_MAX, 0);
		const text = buffer.subarray(0, length).toString("utf8").trim();
		if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${path} is not a key`);
		// The file is never written again: its modification time is when this device began sealing.
		return { key: Buffer.from(text, "hex"), since: stats.mtimeMs };
	} finally {
		closeSync(descriptor);
	}
}

/** A new key, placed only where none is (a key another process placed first wins, and is read). */
function createKey(path: string): DeviceKey {
	const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
	writeFileSync(temporary, `${randomBytes(DEVICE_KEY_BYTES).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
	try {
		linkSync(temporary, path);
	} catch (error) {
		if ((error as { code?: unknown }).code !== "EEXIST") throw error;
	} finally {
		unlinkSync(temporary);
	}
	const key = readKey(path);
	if (!key) throw new Error(`${path} vanished as it was made`);
	return key;
}

function realOrSelf(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return resolve(path);
	}
}
