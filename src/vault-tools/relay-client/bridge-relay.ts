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
	private opening: Promise<RelayConnection | undefined> | undefined;
	/** Lock files (path and mtime) whose bridge could not be used, with when to try them again. */
	private readonly refused = new Map<string, number>();
	private announced: string | undefined;
	private disposed = false;

	constructor(private readonly options: BridgeRelayOptions) {}

	/** The open connection to the bridge, or undefined when the vault has no reachable bridge now. Never throws. */
	current(): Promise<RelayConnection | undefined> {
		if (this.connection?.isOpen) return Promise.resolve(this.connection);
		this.opening ??= this.open().finally(() => (this.opening = undefined));
		return this.opening;
	}

	private now(): number {
		return (this.options.now ?? Date.now)();
	}

	dispose(): void {
		this.disposed = true;
		this.connection?.close();
		this.connection = undefined;
	}

	private async open(): Promise<RelayConnection | undefined> {
		this.connection = undefined;
		const endpoints = await this.options.find();
		for (const endpoint of endpoints) {
			const key = `${endpoint.lockFile}@${endpoint.writtenAt}`;
			const retryAt = this.refused.get(key);
			if (retryAt !== undefined && this.now() < retryAt) continue;
			const connection = await this.connect(endpoint, key);
			if (connection) return connection;
		}
		if (endpoints.length === 0) {
			this.announce("none", "No bridge is running for the vault: read tools answer from the folder; write tools are refused until Obsidian (or the headless host) runs.");
		}
		return undefined;
	}

	private async connect(endpoint: BridgeEndpoint, key: string): Promise<RelayConnection | undefined> {
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
			this.refused.set(key, this.now() + RELAY_RETRY_AFTER_MS);
			this.options.log(`Could not use the bridge "${endpoint.ideName}" (port ${endpoint.port}, lock file ${endpoint.lockFile}): ${describeError(error)}. Answering without it for ${RELAY_RETRY_AFTER_MS / 1000} s (or until its lock file changes).`);
			return undefined;
		}
		if (this.disposed) {
			connection.close();
			return undefined;
		}
		this.refused.delete(key);
		this.connection = connection;
		this.announce(`open ${key}`, `Relaying every call to the bridge "${endpoint.ideName}" (pid ${endpoint.pid}, port ${endpoint.port}).`);
		connection.onClose((reason) => {
			if (!this.disposed) this.options.log(`Lost the bridge: ${reason}. Looking for it again on the next call.`);
			this.announced = undefined;
		});
		return connection;
	}

	/** Logs a state once, not on every call that finds the same state. */
	private announce(state: string, message: string): void {
		if (this.announced === state) return;
		this.announced = state;
		this.options.log(message);
	}
}
