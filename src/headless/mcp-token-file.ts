import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { createAuthToken } from "../server/auth";
import { LOCK_DIRECTORY_MODE, LOCK_FILE_MODE } from "../server/limits";

/** Set it to give the HTTP endpoint a token of your own (e.g. from a secret manager); nothing is then stored. */
export const MCP_TOKEN_ENV = "CLAUDE_CODE_BRIDGE_MCP_TOKEN";

/** Shortest token accepted from the environment: 128 bits in hex. */
const MIN_ENV_TOKEN_LENGTH = 32;

/** `<home>/.claude-code-bridge/mcp-tokens`: under the user's home, never in the vault. */
export function mcpTokenDirectory(homeDir: string): string {
	return join(homeDir, ".claude-code-bridge", "mcp-tokens");
}

/**
 * The headless host's bearer token for the vault tools' HTTP endpoint, one per vault: kept in a 0600 file in a
 * 0700 folder under the user's home (outside the vault, so it never syncs with the notes), reused across
 * restarts so Claude Code's configuration keeps working, and rotatable. `CLAUDE_CODE_BRIDGE_MCP_TOKEN` overrides
 * the file.
 */
export class McpTokenFile {
	readonly path: string;
	private token: string | undefined;

	private readonly insideVault: boolean;

	constructor(
		private readonly homeDir: string,
		vaultPath: string,
		private readonly env: Record<string, string | undefined> = process.env,
	) {
		this.path = join(mcpTokenDirectory(homeDir), `${vaultId(vaultPath)}.token`);
		const vault = realPath(vaultPath);
		const folder = realPath(homeDir);
		this.insideVault = folder === vault || folder.startsWith(vault.endsWith(sep) ? vault : `${vault}${sep}`);
	}

	/** Where the token comes from, for the status line. */
	get source(): "environment" | "file" {
		return this.fromEnvironment() !== undefined ? "environment" : "file";
	}

	/** The token: from the environment, else the file (made on first use). Throws when the file cannot be written. */
	current(): string {
		const fromEnvironment = this.fromEnvironment();
		if (fromEnvironment !== undefined) return fromEnvironment;
		this.token ??= this.readFile() ?? this.writeNew();
		return this.token;
	}

	/** A new token; the old one stops working at once. Refused when the token comes from the environment. */
	rotate(): string {
		if (this.fromEnvironment() !== undefined) throw new Error(`the token comes from ${MCP_TOKEN_ENV}; change it there`);
		this.token = this.writeNew();
		return this.token;
	}

	private fromEnvironment(): string | undefined {
		const value = this.env[MCP_TOKEN_ENV]?.trim();
		if (value === undefined || value === "") return undefined;
		if (value.length < MIN_ENV_TOKEN_LENGTH || /\s/.test(value)) throw new Error(`${MCP_TOKEN_ENV} must be at least ${MIN_ENV_TOKEN_LENGTH} characters without spaces`);
		return value;
	}

	private readFile(): string | undefined {
		if (this.insideVault) return undefined;
		try {
			const text = readFileSync(this.path, "utf8").trim();
			return /^[0-9a-f]{64}$/.test(text) ? text : undefined;
		} catch {
			return undefined;
		}
	}

	/** Written to a new temp file (never through a link), 0600, then renamed over the token file. */
	private writeNew(): string {
		if (this.insideVault) throw new Error(`the home folder is inside the vault, so the token file would sync with the notes; set ${MCP_TOKEN_ENV} instead`);
		const token = createAuthToken();
		const directory = mcpTokenDirectory(this.homeDir);
		mkdirSync(directory, { recursive: true, mode: LOCK_DIRECTORY_MODE });
		chmodSync(directory, LOCK_DIRECTORY_MODE);
		const temp = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
		const descriptor = openSync(temp, "wx", LOCK_FILE_MODE);
		try {
			writeSync(descriptor, `${token}\n`);
		} finally {
			closeSync(descriptor);
		}
		try {
			renameSync(temp, this.path);
		} catch (error) {
			rmSync(temp, { force: true });
			throw error;
		}
		return token;
	}
}

function vaultId(vaultPath: string): string {
	return createHash("sha256").update(realPath(vaultPath), "utf8").digest("hex").slice(0, 16);
}

function realPath(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return resolve(path);
	}
}
