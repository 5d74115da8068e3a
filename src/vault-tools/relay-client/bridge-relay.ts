import { describeError } from "../../shared/describe-error";
import { LATEST_PROTOCOL_VERSION } from "../../protocol/mcp-types";
import type { BridgeEndpoint } from "./bridge-locator";
import { RelayConnection } from "./relay-connection";

export interface BridgeRelayOptions {
	/** Where the vault's bridge is now (a lock-file scan; cheap enough to run before every call while there is none). */
	find: () => Promise<BridgeEndpoint | undefined>;
	/** The name the relay gives in `initialize`, by which the bridge tells it from a Claude Code client. */
	clientName: string;
	clientVersion: string;
	log: (message: string) => void;
	/** Opens the socket (tests swap it). */
	connect?: (endpoint: BridgeEndpoint) => Promise<RelayConnection>;
}

/**
 * The connection to the vault's bridge, kept while it lasts: looked for again on the next call after the bridge
 * went away (Obsidian closed or restarted, a token rotation) and found as soon as a bridge appears. A bridge that
 * refuses the connection is not retried until its lock file is written again.
 */
export class BridgeRelay {
	private connection: RelayConnection | undefined;
	private opening: Promise<RelayConnection | undefined> | undefined;
	private refusedLockFile: string | undefined;
	private announced: string | undefined;
	private disposed = false;

	constructor(private readonly options: BridgeRelayOptions) {}

	/** The open connection to the bridge, or undefined when the vault has no reachable bridge now. Never throws. */
	current(): Promise<RelayConnection | undefined> {
		if (this.connection?.isOpen) return Promise.resolve(this.connection);
		this.opening ??= this.open().finally(() => (this.opening = undefined));
		return this.opening;
	}

	dispose(): void {
		this.disposed = true;
		this.connection?.close();
		this.connection = undefined;
	}

	private async open(): Promise<RelayConnection | undefined> {
		this.connection = undefined;
		const endpoint = await this.options.find();
		if (!endpoint) {
			this.announce("none", "No bridge is running for the vault: read tools answer from the folder; write tools are refused until Obsidian (or the headless host) runs.");
			return undefined;
		}
		const key = `${endpoint.lockFile}@${endpoint.writtenAt}`;
		if (key === this.refusedLockFile) return undefined;
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
			this.refusedLockFile = key;
			this.announce(`refused ${key}`, `Could not use the bridge "${endpoint.ideName}" (port ${endpoint.port}, lock file ${endpoint.lockFile}): ${describeError(error)}. Answering from the folder until its lock file changes.`);
			return undefined;
		}
		if (this.disposed) {
			connection.close();
			return undefined;
		}
		this.refusedLockFile = undefined;
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
