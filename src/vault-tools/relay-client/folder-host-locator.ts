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
	/** The vault's real path: a file naming another vault is refused. */
	vaultPath: string;
	/** This process: it never relays to itself. */
	selfPid: number;
	isAlive?: ProcessAliveCheck;
	/** Told once per refused file (why it was not used). */
	log?: (message: string) => void;
}

/**
 * Finds another `mcp --vault` session that reads the vault's folder for every session on it (no bridge runs):
 * relaying to it, this session keeps no index of its own. Reached like a bridge (loopback WebSocket, the secret
 * token of the host file); the file is read as untrusted input (`readFolderHost`) and must name this vault.
 */
export class FolderHostLocator {
	private lastRefusal: string | undefined;

	constructor(private readonly options: FolderHostLocatorOptions) {}

	/** The host to relay to, or undefined (none, refused, this process, or its process is gone). Never throws. */
	find(): BridgeEndpoint | undefined {
		const reading = readFolderHost(this.options.path);
		if (reading.kind === "refused") return this.refuse(reading.reason);
		if (reading.kind === "missing") return undefined;
		const record = reading.record;
		if (record.vaultPath !== this.options.vaultPath)
			return this.refuse(`it names the vault ${record.vaultPath}, not ${this.options.vaultPath}`);
		if (record.pid === this.options.selfPid || !(this.options.isAlive ?? isProcessAlive)(record.pid))
			return undefined;
		let writtenAt = 0;
		try {
			writtenAt = statSync(this.options.path).mtimeMs;
		} catch {
			return undefined;
		}
		this.lastRefusal = undefined;
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

	private refuse(reason: string): undefined {
		if (reason !== this.lastRefusal)
			this.options.log?.(`Not relaying to the folder index named by ${this.options.path}: ${reason}`);
		this.lastRefusal = reason;
		return undefined;
	}
}
