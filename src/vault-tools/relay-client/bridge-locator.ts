import { promises as fs, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { LOCK_FILE_WRITER, isProcessAlive, lockDirectory, type ProcessAliveCheck } from "../../server/lock-file";
import { readLockFile } from "../../server/lock-file-reader";

/** A running bridge (the Obsidian plugin or the headless host) that serves the vault. */
export interface BridgeEndpoint {
	port: number;
	authToken: string;
	pid: number;
	ideName: string;
	lockFile: string;
	/** The lock file's mtime: a bridge that restarts writes a new one. */
	writtenAt: number;
	/** How long the WebSocket handshake may take (default `RELAY_CONNECT_TIMEOUT_MS`). */
	connectTimeoutMs?: number;
}

export interface BridgeLocatorOptions {
	/** The vault folder as the user gave it. */
	vaultPath: string;
	homeDir: string;
	/** `CLAUDE_CONFIG_DIR`, whose `ide` folder the CLI scans too. */
	claudeConfigDir?: string;
	isAlive?: ProcessAliveCheck;
	/** Told once about each lock file refused by `readLockFile`, and why. */
	log?: (message: string) => void;
}

/**
 * Finds the vault's bridge the way the CLI finds an IDE: through `~/.claude/ide/<port>.lock`. Only lock files this
 * project wrote count (they alone serve the vault tools), whose pid is alive and whose `workspaceFolders` hold the
 * vault itself (real path or as given; a folder that merely contains the vault is another vault). The newest wins.
 * Each file is read by `readLockFile` as untrusted input: a link, a file another user could have written or read,
 * or one whose port field is not the port of its name is refused, so the token goes only to the port its bridge
 * wrote down.
 */
export class BridgeLocator {
	private readonly vaultPaths: ReadonlySet<string>;
	private readonly directories: readonly string[];
	private readonly isAlive: ProcessAliveCheck;
	private readonly reported = new Set<string>();

	constructor(private readonly options: BridgeLocatorOptions) {
		const given = resolve(options.vaultPath);
		this.vaultPaths = new Set([given, realPathOr(given)]);
		const directories = [lockDirectory(options.homeDir)];
		if (options.claudeConfigDir && options.claudeConfigDir.trim() !== "")
			directories.unshift(join(resolve(options.claudeConfigDir), "ide"));
		// One folder reached by two paths is read once, by the path as given: a folder that is a link is refused.
		const byRealPath = new Map<string, string>();
		for (const directory of directories)
			if (!byRealPath.has(realPathOr(directory))) byRealPath.set(realPathOr(directory), directory);
		this.directories = [...byRealPath.values()];
		this.isAlive = options.isAlive ?? isProcessAlive;
	}

	/** The bridge to use now, or undefined when none runs for the vault. Never throws. */
	async find(): Promise<BridgeEndpoint | undefined> {
		return (await this.findAll())[0];
	}

	/** Every bridge that may serve the vault, newest lock file first. Never throws. */
	async findAll(): Promise<BridgeEndpoint[]> {
		const candidates: BridgeEndpoint[] = [];
		for (const directory of this.directories) {
			let names: string[];
			try {
				names = await fs.readdir(directory);
			} catch {
				continue;
			}
			for (const name of names) {
				if (!/^\d+\.lock$/.test(name)) continue;
				const endpoint = await this.read(join(directory, name));
				if (endpoint) candidates.push(endpoint);
			}
		}
		return candidates.sort((a, b) => b.writtenAt - a.writtenAt);
	}

	/** A lock folder names the vault by its path as given, its real path, or a link to it. */
	private isVault(folder: string): boolean {
		const path = resolve(folder);
		return this.vaultPaths.has(path) || this.vaultPaths.has(realPathOr(path));
	}

	private async read(lockFile: string): Promise<BridgeEndpoint | undefined> {
		const reading = await readLockFile(lockFile);
		if (reading.kind === "refused") {
			this.report(lockFile, reading.reason);
			return undefined;
		}
		if (reading.kind !== "read") return undefined;
		const { pid, authToken, workspaceFolders, ideName, writer, transport } = reading.record;
		if (writer !== LOCK_FILE_WRITER || transport !== "ws") return undefined;
		if (
			typeof pid !== "number" ||
			typeof authToken !== "string" ||
			authToken === "" ||
			!Array.isArray(workspaceFolders)
		)
			return undefined;
		if (!workspaceFolders.some((folder) => typeof folder === "string" && this.isVault(folder))) return undefined;
		const { port } = reading;
		if (port === undefined || !this.isAlive(pid)) return undefined;
		return {
			port,
			authToken,
			pid,
			ideName: typeof ideName === "string" ? ideName : "bridge",
			lockFile,
			writtenAt: reading.mtimeMs,
		};
	}

	private report(lockFile: string, reason: string): void {
		const message = `Ignored the lock file ${lockFile}: ${reason}`;
		if (this.reported.has(message)) return;
		this.reported.add(message);
		this.options.log?.(message);
	}
}

function realPathOr(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return path;
	}
}
