import { realpathSync } from "node:fs";
import {
	ConnectionManager,
	type ClientConnection,
	type ConnectionHandler,
	type IntervalScheduler,
} from "../server/connection-manager";
import { createAuthToken, tokenFingerprint } from "../server/auth";
import { CLOSE_TOKEN_ROTATED, MAX_OUTGOING_MESSAGE_BYTES } from "../server/limits";
import {
	removeLockFile,
	removeStaleLockFiles,
	writeLockFile,
	LOCK_FILE_WRITER,
	type LockFileContent,
} from "../server/lock-file";
import type { JsonObject } from "../protocol/json-rpc";
import { McpSession, type MethodHandler, type TraceEvent } from "../protocol/mcp-session";
import type { RequestObserver } from "../protocol/request-observer";
import type { ClientInfo, ServerInfo } from "../protocol/mcp-types";
import type { ToolRegistry } from "../protocol/tool-registry";
import { describeError } from "../shared/describe-error";
import { selectionChangedJson } from "./selection-json";

export interface ClientStatus {
	id: number;
	connectedAt: Date;
	/** The CLI's process id, from `ide_connected`. */
	pid?: number;
	clientName?: string;
	clientVersion?: string;
}

export type BridgeState = "stopped" | "starting" | "listening" | "failed";

export interface BridgeStatus {
	state: BridgeState;
	port?: number;
	lockFilePath?: string;
	tokenFingerprint?: string;
	clients: ClientStatus[];
	/** Connections that relay other MCP servers' calls (the stdio vault-tools server), not IDE clients. */
	relays?: number;
	/** Why the bridge failed to start. */
	error?: string;
	/** Something the user should know although the bridge runs, e.g. a fixed port fallback. */
	warning?: string;
}

export interface BridgeHostOptions {
	/** The vault folder as the app knows it. */
	vaultPath: string;
	ideName: string;
	/** Where `.claude/ide` lives: the home directory of the process. */
	homeDir: string;
	pid: number;
	serverInfo: ServerInfo;
	tools: ToolRegistry;
	methods?: ReadonlyMap<string, MethodHandler>;
	capabilities?: JsonObject;
	port?: number;
	healthSweepIntervalMs?: number;
	scheduleInterval?: IntervalScheduler;
	runningInWindows?: boolean;
	log: (message: string) => void;
	trace?: (event: TraceEvent) => void;
	onStatusChange?: (status: BridgeStatus) => void;
	/** A client finished its handshake (`ide_connected`). */
	onClientReady?: (sessionId: number) => void;
	/**
	 * Whether a client (by its `initialize` clientInfo) is a relay, not a Claude Code IDE client: e.g. the stdio
	 * vault-tools server forwarding calls. Relays are left out of `status().clients` (counted in `relays`), of
	 * `hasInitializedClients` and of broadcasts.
	 */
	isRelayClient?: (client: ClientInfo) => boolean;
	/** Sees each connection's requests (the activity journal): one observer per connection. */
	observer?: (connectionId: number) => RequestObserver | undefined;
}

/**
 * The bridge's core, shared by the plugin and the headless host: token, server, lock file and one
 * MCP session per connection.
 */
export class BridgeHost {
	private connectionManager: ConnectionManager | undefined;
	private token = "";
	private state: BridgeState = "stopped";
	private starting: Promise<BridgeStatus> | undefined;
	private lockFilePath: string | undefined;
	private lockContent: LockFileContent | undefined;
	private error: string | undefined;
	private warning: string | undefined;
	private readonly sessions = new Map<number, { session: McpSession; status: ClientStatus; relay?: boolean }>();

	constructor(private readonly options: BridgeHostOptions) {}

	/** Starts listening and writes the lock file. Resolves with the status; failures are in it, not thrown. */
	async start(): Promise<BridgeStatus> {
		if (this.starting) return this.starting;
		if (this.state === "listening") return this.status();
		this.starting = this.startNow();
		try {
			return await this.starting;
		} finally {
			this.starting = undefined;
		}
	}

	private async startNow(): Promise<BridgeStatus> {
		this.setState("starting");
		this.error = undefined;
		this.warning = undefined;
		try {
			const removed = await removeStaleLockFiles(this.options.homeDir);
			for (const path of removed) this.options.log(`Removed a stale lock file of this plugin: ${path}`);
			this.token = createAuthToken();
			const manager = new ConnectionManager({
				getToken: () => this.token,
				onConnection: (connection) => this.openSession(connection),
				port: this.options.port,
				healthSweepIntervalMs: this.options.healthSweepIntervalMs,
				scheduleInterval: this.options.scheduleInterval,
				onConnectionCountChange: () => this.notifyStatus(),
				log: this.options.log,
			});
			this.connectionManager = manager;
			const listening = await manager.start();
			this.warning = listening.warning;
			this.lockContent = {
				pid: this.options.pid,
				workspaceFolders: workspaceFoldersFor(this.options.vaultPath),
				ideName: this.options.ideName,
				transport: "ws",
				runningInWindows: this.options.runningInWindows ?? process.platform === "win32",
				authToken: this.token,
				writer: LOCK_FILE_WRITER,
			};
			this.lockFilePath = await writeLockFile(this.options.homeDir, listening.port, this.lockContent);
			this.setState("listening");
		} catch (error) {
			this.error = describeError(error);
			this.options.log(`Could not start the bridge: ${this.error}`);
			await this.shutDown();
			this.setState("failed");
		}
		return this.status();
	}

	/** Removes the lock file first (so no CLI finds a dying server), then closes every socket and the port. */
	async stop(): Promise<void> {
		// A stop during a start (the plugin disabled while its server starts) waits for it, or the port and the
		// lock file the start is about to make would outlive the stop.
		await this.starting;
		if (this.state === "stopped") return;
		await this.shutDown();
		this.setState("stopped");
	}

	/**
	 * Makes a new token: the lock file is rewritten atomically first, then the server switches to the new
	 * token and closes every open session, since the old token authorised them. Claude Code reconnects
	 * when the user runs `/ide` again.
	 */
	async rotateToken(): Promise<BridgeStatus> {
		const manager = this.connectionManager;
		if (this.state !== "listening" || !manager || manager.port === undefined || !this.lockContent) {
			throw new Error("The bridge is not running");
		}
		const token = createAuthToken();
		const content = { ...this.lockContent, authToken: token };
		await writeLockFile(this.options.homeDir, manager.port, content);
		this.lockContent = content;
		this.token = token;
		manager.closeAll(CLOSE_TOKEN_ROTATED, "The token was rotated; run /ide in Claude Code to reconnect");
		this.notifyStatus();
		return this.status();
	}

	/** Whether a client has finished `initialize`. */
	hasInitializedClients(): boolean {
		for (const { session, relay } of this.sessions.values())
			if (session.isInitialized && relay !== true) return true;
		return false;
	}

	/** For app quit, where nothing async is awaited: the lock file is removed at once. */
	removeLockFileNow(): void {
		if (this.lockFilePath) removeLockFile(this.lockFilePath);
		this.lockFilePath = undefined;
	}

	/** Sends a notification to every client that finished `initialize`. */
	broadcast(method: string, params?: JsonObject): void {
		// A selection (sent for every one the user makes) is written once for all clients, by its own encoder.
		let selectionJson: string | undefined;
		for (const { session, relay } of this.sessions.values()) {
			if (!session.isInitialized || relay === true) continue;
			if (method === "selection_changed" && params !== undefined) selectionJson ??= selectionChangedJson(params);
			if (selectionJson !== undefined) session.notifyEncoded(method, selectionJson);
			else session.notify(method, params);
		}
	}

	/** Sends a notification to one client, if it is still connected. */
	notify(sessionId: number, method: string, params?: JsonObject): void {
		this.sessions.get(sessionId)?.session.notify(method, params);
	}

	status(): BridgeStatus {
		const entries = [...this.sessions.values()];
		const status: BridgeStatus = {
			state: this.state,
			clients: entries.filter(({ relay }) => relay !== true).map(({ status: client }) => ({ ...client })),
		};
		const relays = entries.length - status.clients.length;
		if (relays > 0) status.relays = relays;
		if (this.connectionManager?.port !== undefined) status.port = this.connectionManager.port;
		if (this.lockFilePath) status.lockFilePath = this.lockFilePath;
		if (this.token && this.state === "listening") status.tokenFingerprint = tokenFingerprint(this.token);
		if (this.error) status.error = this.error;
		if (this.warning) status.warning = this.warning;
		return status;
	}

	private async shutDown(): Promise<void> {
		this.removeLockFileNow();
		const manager = this.connectionManager;
		this.connectionManager = undefined;
		this.token = "";
		this.lockContent = undefined;
		await manager?.stop();
	}

	private openSession(connection: ClientConnection): ConnectionHandler {
		const status: ClientStatus = { id: connection.id, connectedAt: connection.connectedAt };
		const session = new McpSession({
			id: connection.id,
			send: (text) => connection.send(text),
			sendBytes: (utf8) => connection.sendBytes(utf8),
			serverInfo: this.options.serverInfo,
			tools: this.options.tools,
			methods: this.options.methods,
			capabilities: this.options.capabilities,
			maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
			observer: this.options.observer?.(connection.id),
			events: {
				onInitialize: (client) => {
					const entry = this.sessions.get(connection.id);
					if (entry && this.options.isRelayClient?.(client) === true) entry.relay = true;
					status.clientName = client.name;
					status.clientVersion = client.version;
					this.notifyStatus();
				},
				onIdeConnected: (pid) => {
					status.pid = pid;
					this.notifyStatus();
					this.options.onClientReady?.(connection.id);
				},
				onTrace: this.options.trace,
				onLog: this.options.log,
			},
		});
		this.sessions.set(connection.id, { session, status });
		return {
			onMessage: (text) => void session.handleMessage(text),
			onClose: () => {
				session.dispose();
				this.sessions.delete(connection.id);
			},
		};
	}

	private setState(state: BridgeState): void {
		this.state = state;
		this.notifyStatus();
	}

	private notifyStatus(): void {
		try {
			this.options.onStatusChange?.(this.status());
		} catch (error) {
			this.options.log(`Status listener failed: ${describeError(error)}`);
		}
	}
}

/** The vault's real path (the CLI does not resolve symlinks), then the path as given if it differs. */
export function workspaceFoldersFor(vaultPath: string): string[] {
	let real = vaultPath;
	try {
		real = realpathSync.native(vaultPath);
	} catch {
		// A vault that cannot be resolved is reported by the caller; keep the given path.
	}
	return real === vaultPath ? [real] : [real, vaultPath];
}
