import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import type { JsonObject } from "../../protocol/json-rpc";
import { McpSession } from "../../protocol/mcp-session";
import type { ServerInfo } from "../../protocol/mcp-types";
import { ToolRegistry } from "../../protocol/tool-registry";
import { createAuthToken } from "../../server/auth";
import { ConnectionManager } from "../../server/connection-manager";
import { claimFolderHost, folderHostPath, readFolderHost, releaseFolderHost } from "../../server/folder-host-file";
import { isProcessAlive } from "../../server/lock-file";
import { MAX_OUTGOING_MESSAGE_BYTES } from "../../server/limits";
import type { PrivacyRules } from "../../vault/privacy/privacy";
import { describeError } from "../../shared/describe-error";
import { vaultToolRelayMethods } from "../serve/relay-methods";
import type { VaultToolServer } from "../serve/vault-tool-server";

export interface FolderHostOptions {
	homeDir: string;
	/** The vault folder (its real path names it). */
	vaultPath: string;
	/** The privacy rules given on the command line: sessions share an index only when theirs are the same. */
	extraRules: PrivacyRules;
	serverInfo: ServerInfo;
	/** The folder's vault tools, resources and prompts, as this session answers them itself. */
	server: () => VaultToolServer;
	/**
	 * The privacy this session applies (the relay's `vaultTools/privacy` answer): a relaying session compares it
	 * with its own and relays only if this one hides at least every note it would hide.
	 */
	privacy: () => JsonObject;
	log: (message: string) => void;
}

/**
 * The folder's vault tools offered to the other `mcp --vault` sessions on the same vault while no bridge runs:
 * the first session to claim the vault's host file serves its index on a loopback WebSocket (the secret token in
 * that 0600 file, which every connection must present), and the others relay to it as they would to a bridge, so
 * several Claude Code sessions keep one index. Only sessions of the same version with the same command-line
 * privacy rules share (the file's name says so), and a relaying session still asks the host which rules it applies
 * and refuses one that would show more than it (the plugin's settings may differ by config folder).
 */
export class FolderHost {
	readonly path: string;
	/** The vault's real path, as the host file records it. */
	readonly realVaultPath: string;
	private manager: ConnectionManager | undefined;
	private claiming: Promise<boolean> | undefined;
	private disposed = false;

	constructor(private readonly options: FolderHostOptions) {
		this.realVaultPath = realPathOr(options.vaultPath);
		this.path = folderHostPath(
			options.homeDir,
			folderHostKey(this.realVaultPath, options.serverInfo.version, options.extraRules),
		);
	}

	/** Whether this session serves the others now. */
	get isHost(): boolean {
		return this.manager !== undefined;
	}

	/** Serves the others unless another session does: true when this session is (now) the host. Never throws. */
	claim(): Promise<boolean> {
		if (this.manager) return Promise.resolve(true);
		this.claiming ??= this.tryClaim().finally(() => (this.claiming = undefined));
		return this.claiming;
	}

	dispose(): void {
		this.disposed = true;
		const manager = this.manager;
		this.manager = undefined;
		if (manager) {
			releaseFolderHost(this.path, process.pid);
			void manager.stop();
		}
	}

	private async tryClaim(): Promise<boolean> {
		// Another live session holds the vault: no server is started just to find that out.
		const holder = readFolderHost(this.path);
		if (holder.kind === "read" && holder.record.pid !== process.pid && isProcessAlive(holder.record.pid))
			return false;
		const token = createAuthToken();
		let nextSession = 1;
		const manager = new ConnectionManager({
			getToken: () => token,
			onConnection: (connection) => {
				const session = new McpSession({
					id: nextSession++,
					send: (text) => connection.send(text),
					serverInfo: this.options.serverInfo,
					tools: new ToolRegistry(),
					methods: vaultToolRelayMethods(
						{
							request: (method, params, context) =>
								this.options.server().request(method, params, context),
						},
						this.options.privacy,
					),
					maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
				});
				return { onMessage: (text) => void session.handleMessage(text), onClose: () => session.dispose() };
			},
			log: (message) => this.options.log(`Folder index for other sessions: ${message}`),
		});
		try {
			const { port } = await manager.start();
			if (this.disposed) throw new Error("the session ended");
			if (
				claimFolderHost(this.path, {
					pid: process.pid,
					port,
					authToken: token,
					vaultPath: this.realVaultPath,
				}) === "claimed"
			) {
				this.manager = manager;
				this.options.log(
					`Serving this vault's folder index to the other Claude Code sessions on it (port ${port}), so they keep none of their own.`,
				);
				return true;
			}
		} catch (error) {
			this.options.log(`Not sharing the folder index with other sessions: ${describeError(error)}`);
		}
		await manager.stop();
		return false;
	}
}

function realPathOr(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return path;
	}
}

/** The host file's name: the vault, the version and the command-line privacy rules (sessions differing in any do not share). */
export function folderHostKey(vaultPath: string, version: string, rules: PrivacyRules): string {
	const canonical = JSON.stringify([vaultPath, version, [...rules.folders].sort(), [...rules.tags].sort()]);
	return createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 32);
}
