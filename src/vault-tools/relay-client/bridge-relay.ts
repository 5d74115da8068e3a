import { describeError } from "../../shared/describe-error";
import { LATEST_PROTOCOL_VERSION } from "../../protocol/mcp-types";
import type { BridgeEndpoint } from "./bridge-locator";
import { RelayConnection } from "./relay-connection";

export interface BridgeRelayOptions {
	/**
	 * The bridges that may serve the vault now, best first (a lock-file scan; cheap enough to run before every call
	 * while there is none).
	 */
	find: () => Promise<BridgeEndpoint[]>;
	/** The name the relay gives in `initialize`, by which the bridge tells it from a Claude Code client. */
	clientName: string;
	clientVersion: string;
	log: (message: string) => void;
	/**
	 * Whether a bridge may serve the calls: undefined, or why not (for the log). Asked once its connection is
	 * open, and again before the next call whenever `admissionKey` changed; a refused bridge is skipped as one
	 * that cannot be reached is.
	 */
	admit?: (connection: RelayConnection) => Promise<string | undefined>;
	/** What `admit`'s answer depends on, on this side (e.g. the revision of the privacy settings it compares with). */
	admissionKey?: () => string;
	/** Opens the socket (tests swap it). */
	connect?: (endpoint: BridgeEndpoint) => Promise<RelayConnection>;
	/** Milliseconds now (tests swap it). */
	now?: () => number;
}

/**
 * How long a bridge that could not be used is skipped before it is tried again: a refusal may pass (a bridge at
 * its connection limit answers 503 until a socket closes; one still starting does not listen yet).
 */
export const RELAY_RETRY_AFTER_MS = 10_000;

/**
 * The connection to the vault's bridge, kept while it lasts: looked for again on the next call after the bridge
 * went away (Obsidian closed or restarted, a token rotation) and found as soon as a bridge appears. A bridge that
 * cannot be reached or refuses the connection is skipped (the next candidate is tried) for `RELAY_RETRY_AFTER_MS`,
 * or until its lock file is written again.
 */
export class BridgeRelay {
	private connection: RelayConnection | undefined;
	/** The admission key the open connection was admitted with. */
	private admittedWith: string | undefined;
	private opening: Promise<RelayConnection | undefined> | undefined;
	/**
	 * Lock files (path and mtime, and the admission key) whose bridge could not be used, with when to try them
	 * again and, for a bridge `admit` refused, why.
	 */
	private readonly refused = new Map<string, { retryAt: number; refusal?: string }>();
	private lastRefusal: string | undefined;
	/** Connections this relay closed because `admit` refused them (their close is no loss to report). */
	private readonly refusedConnections = new WeakSet<RelayConnection>();
	private announced: string | undefined;
	private disposed = false;

	constructor(private readonly options: BridgeRelayOptions) {}

	/** The open connection to the bridge, or undefined when the vault has no reachable bridge now. Never throws. */
	current(): Promise<RelayConnection | undefined> {
		if (this.connection?.isOpen && this.admittedWith === this.admissionKey())
			return Promise.resolve(this.connection);
		this.opening ??= this.open().finally(() => (this.opening = undefined));
		return this.opening;
	}

	/** Why the vault's running bridge is not used, when `admit` refused it (and no other bridge was used instead). */
	refusal(): string | undefined {
		return this.lastRefusal;
	}

	private now(): number {
		return (this.options.now ?? Date.now)();
	}

	dispose(): void {
		this.disposed = true;
		this.connection?.close();
		this.connection = undefined;
	}

	private admissionKey(): string {
		return this.options.admissionKey?.() ?? "";
	}

	private async open(): Promise<RelayConnection | undefined> {
		const admission = this.admissionKey();
		const open = this.connection?.isOpen ? this.connection : undefined;
		this.connection = undefined;
		// The bridge in use, asked again because what it is compared with changed on this side.
		if (open) {
			const key = `${open.endpoint.lockFile}@${open.endpoint.writtenAt}#${admission}`;
			if (await this.admitted(open, key, admission)) return open;
		}
		this.lastRefusal = undefined;
		const endpoints = await this.options.find();
		for (const endpoint of endpoints) {
			const key = `${endpoint.lockFile}@${endpoint.writtenAt}#${admission}`;
			const refused = this.refused.get(key);
			if (refused !== undefined && this.now() < refused.retryAt) {
				this.lastRefusal ??= refused.refusal;
				continue;
			}
			const connection = await this.connect(endpoint, key, admission);
			if (connection) return connection;
		}
		if (endpoints.length === 0) {
			this.announce(
				"none",
				"No bridge is running for the vault: read tools answer from the folder; write tools are refused until Obsidian (or the headless host) runs.",
			);
		}
		return undefined;
	}

	private async connect(
		endpoint: BridgeEndpoint,
		key: string,
		admission: string,
	): Promise<RelayConnection | undefined> {
		let connection: RelayConnection | undefined;
		try {
			connection = await (this.options.connect ?? RelayConnection.connect)(endpoint);
			await connection.request("initialize", {
				protocolVersion: LATEST_PROTOCOL_VERSION,
				capabilities: {},
				clientInfo: { name: this.options.clientName, version: this.options.clientVersion },
			});
		} catch (error) {
			connection?.close();
			this.refused.set(key, { retryAt: this.now() + RELAY_RETRY_AFTER_MS });
			this.options.log(
				`Could not use the bridge "${endpoint.ideName}" (port ${endpoint.port}, lock file ${endpoint.lockFile}): ${describeError(error)}. Answering without it for ${RELAY_RETRY_AFTER_MS / 1000} s (or until its lock file changes).`,
			);
			return undefined;
		}
		if (this.disposed || !(await this.admitted(connection, key, admission))) {
			connection.close();
			return undefined;
		}
		this.announce(
			`open ${key}`,
			`Relaying every call to the bridge "${endpoint.ideName}" (pid ${endpoint.pid}, port ${endpoint.port}).`,
		);
		connection.onClose((reason) => {
			if (!this.disposed && !this.refusedConnections.has(connection))
				this.options.log(`Lost the bridge: ${reason}. Looking for it again on the next call.`);
			this.announced = undefined;
		});
		return connection;
	}

	/** Asks `admit` about an open connection: kept as the one in use, or closed and skipped for a while. */
	private async admitted(connection: RelayConnection, key: string, admission: string): Promise<boolean> {
		let refusal: string | undefined;
		try {
			refusal = await this.options.admit?.(connection);
		} catch (error) {
			refusal = `it could not be checked: ${describeError(error)}`;
		}
		if (this.disposed) return false;
		const { endpoint } = connection;
		if (refusal !== undefined) {
			this.refusedConnections.add(connection);
			connection.close();
			this.refused.set(key, { retryAt: this.now() + RELAY_RETRY_AFTER_MS, refusal });
			this.lastRefusal ??= refusal;
			this.announce(
				`refused ${key}`,
				`Not relaying to the bridge "${endpoint.ideName}" (pid ${endpoint.pid}, port ${endpoint.port}): ${refusal}. Read tools answer from the folder; write tools are refused.`,
			);
			return false;
		}
		this.refused.delete(key);
		this.lastRefusal = undefined;
		this.connection = connection;
		this.admittedWith = admission;
		return true;
	}

	/** Logs a state once, not on every call that finds the same state. */
	private announce(state: string, message: string): void {
		if (this.announced === state) return;
		this.announced = state;
		this.options.log(message);
	}
}
