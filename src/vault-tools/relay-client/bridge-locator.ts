import { promises as fs, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { LOCK_FILE_WRITER, isProcessAlive, lockDirectory, type ProcessAliveCheck } from "../../server/lock-file";

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
}

/**
 * Finds the vault's bridge the way the CLI finds an IDE: through `~/.claude/ide/<port>.lock`. Only lock files this
 * project wrote count (they alone serve the vault tools), whose pid is alive and whose `workspaceFolders` hold the
 * vault itself (real path or as given; a folder that merely contains the vault is another vault). The newest wins.
 */
export class BridgeLocator {
	private readonly vaultPaths: ReadonlySet<string>;
	private readonly directories: readonly string[];
	private readonly isAlive: ProcessAliveCheck;

	constructor(options: BridgeLocatorOptions) {
		const given = resolve(options.vaultPath);
		this.vaultPaths = new Set([given, realPathOr(given)]);
		const directories = [lockDirectory(options.homeDir)];
		if (options.claudeConfigDir && options.claudeConfigDir.trim() !== "") directories.unshift(join(resolve(options.claudeConfigDir), "ide"));
		this.directories = [...new Set(directories.map(realPathOr))];
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
				const endpoint = await this.read(join(directory, name), Number.parseInt(name, 10));
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

	private async read(lockFile: string, port: number): Promise<BridgeEndpoint | undefined> {
		try {
			const [text, stat] = await Promise.all([fs.readFile(lockFile, "utf8"), fs.stat(lockFile)]);
			const parsed: unknown = JSON.parse(text);
			if (typeof parsed !== "object" || parsed === null) return undefined;
			const record = parsed as Record<string, unknown>;
			const { pid, authToken, workspaceFolders, ideName } = record;
			if (record.writer !== LOCK_FILE_WRITER || record.transport !== "ws") return undefined;
			if (typeof pid !== "number" || typeof authToken !== "string" || authToken === "" || !Array.isArray(workspaceFolders)) return undefined;
			if (!workspaceFolders.some((folder) => typeof folder === "string" && this.isVault(folder))) return undefined;
			if (port < 1 || port > 65535 || !this.isAlive(pid)) return undefined;
			return { port, authToken, pid, ideName: typeof ideName === "string" ? ideName : "bridge", lockFile, writtenAt: stat.mtimeMs };
		} catch {
			return undefined;
		}
	}
}

function realPathOr(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return path;
	}
}
