import { statSync } from "node:fs";
import { readFolderHost } from "../../server/folder-host-file";
import { isProcessAlive, type ProcessAliveCheck } from "../../server/lock-file";
import type { BridgeEndpoint } from "./bridge-locator";

/**
 * How long the handshake with another session's index may take: that session answers one call at a time, and a
 * call that reads a large vault for the first time holds it for many seconds (a bridge answers at once).
 */
export const FOLDER_HOST_CONNECT_TIMEOUT_MS = 60_000;

export interface FolderHostLocatorOptions {
	/** The host file for this vault, privacy rules and version (`folderHostPath`). */
	path: string;
	/** This process: it never relays to itself. */
	selfPid: number;
	isAlive?: ProcessAliveCheck;
}

/**
 * Finds another `mcp --vault` session that reads the vault's folder for every session on it (no bridge runs):
 * relaying to it, this session keeps no index of its own. Reached like a bridge (loopback WebSocket, token).
 */
export class FolderHostLocator {
	constructor(private readonly options: FolderHostLocatorOptions) {}

	/** The host to relay to, or undefined (none, this process, or its process is gone). Never throws. */
	find(): BridgeEndpoint | undefined {
		const record = readFolderHost(this.options.path);
		if (!record || record.pid === this.options.selfPid || !(this.options.isAlive ?? isProcessAlive)(record.pid)) return undefined;
		let writtenAt = 0;
		try {
			writtenAt = statSync(this.options.path).mtimeMs;
		} catch {
			return undefined;
		}
		return {
			port: record.port,
			authToken: record.authToken,
			pid: record.pid,
			ideName: `the vault's folder index in another Claude Code session (pid ${record.pid})`,
			lockFile: this.options.path,
			writtenAt,
			connectTimeoutMs: FOLDER_HOST_CONNECT_TIMEOUT_MS,
		};
	}
}
