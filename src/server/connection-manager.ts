import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { isAuthorised } from "./auth";
import { isLoopbackHost } from "./loopback-host";
import {
	AUTH_HEADER,
	CLOSE_GOING_AWAY,
	HEALTH_SWEEP_INTERVAL_MS,
	HEALTH_SWEEP_LATE_FACTOR,
	LOOPBACK_HOST,
	MAX_CONNECTIONS,
	MAX_INCOMING_MESSAGE_BYTES,
	MCP_SUBPROTOCOL,
	UPGRADE_HEADERS_TIMEOUT_MS,
} from "./limits";
import { describeError } from "../shared/describe-error";

/** One accepted WebSocket, as the layers above see it. */
export interface ClientConnection {
	readonly id: number;
	readonly connectedAt: Date;
	send(text: string): void;
	/** Sends a text message given as its UTF-8 bytes (already valid UTF-8: it is not checked again). */
	sendBytes(utf8: Buffer): void;
	close(code: number, reason: string): void;
}

/** What the layer above does with a connection's traffic. */
export interface ConnectionHandler {
	onMessage(text: string): void;
	onClose(): void;
}

export type IntervalScheduler = (callback: () => void, intervalMs: number) => () => void;

export interface ConnectionManagerOptions {
	/** The current token; read on every upgrade so rotation takes effect at once. */
	getToken: () => string;
	onConnection: (connection: ClientConnection) => ConnectionHandler;
	/** 0 or undefined: a random free port. */
	port?: number;
	maxConnections?: number;
	maxIncomingBytes?: number;
	healthSweepIntervalMs?: number;
	/** How the health sweep is scheduled (the plugin registers it with Obsidian). */
	scheduleInterval?: IntervalScheduler;
	onConnectionCountChange?: (count: number) => void;
	log?: (message: string) => void;
}

export interface ListeningInfo {
	port: number;
	/** Set when a fixed port was taken and a random one was used instead. */
	warning?: string;
}

interface TrackedSocket {
	connection: ClientConnection;
	handler: ConnectionHandler;
	answeredLastPing: boolean;
}

const defaultScheduler: IntervalScheduler = (callback, intervalMs) => {
	const timer = setInterval(callback, intervalMs);
	return () => clearInterval(timer);
};

/**
 * The WebSocket server on 127.0.0.1: checks every upgrade (Origin, Host, token, capacity) before a
 * socket exists, caps message size, sweeps dead sockets and closes everything on stop.
 */
export class ConnectionManager {
	private readonly sockets = new Map<WebSocket, TrackedSocket>();
	private readonly wss: WebSocketServer;
	private httpServer: Server | undefined;
	private listeningPort: number | undefined;
	private pendingUpgrades = 0;
	private nextId = 1;
	private stopSweep: (() => void) | undefined;
	private lastSweepAt = 0;

	constructor(private readonly options: ConnectionManagerOptions) {
		this.wss = new WebSocketServer({
			noServer: true,
			maxPayload: options.maxIncomingBytes ?? MAX_INCOMING_MESSAGE_BYTES,
			perMessageDeflate: false,
			clientTracking: false,
			handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
		});
	}

	get port(): number | undefined {
		return this.listeningPort;
	}

	/** The address the server is bound to, while it listens. */
	get boundAddress(): { address: string; family: string; port: number } | undefined {
		const address = this.httpServer?.address();
		return typeof address === "object" && address
			? { address: address.address, family: address.family, port: address.port }
			: undefined;
	}

	get connectionCount(): number {
		return this.sockets.size;
	}

	get connections(): ClientConnection[] {
		return [...this.sockets.values()].map((tracked) => tracked.connection);
	}

	async start(): Promise<ListeningInfo> {
		if (this.httpServer) throw new Error("The server is already running");
		const wanted = this.options.port ?? 0;
		let info: ListeningInfo;
		try {
			info = { port: await this.listen(wanted) };
		} catch (error) {
			if (wanted === 0 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
			const port = await this.listen(0);
			info = {
				port,
				warning: `Port ${wanted} is in use; listening on port ${port} instead. Choose another fixed port or leave it empty for a random one.`,
			};
		}
		this.listeningPort = info.port;
		const interval = this.options.healthSweepIntervalMs ?? HEALTH_SWEEP_INTERVAL_MS;
		this.lastSweepAt = Date.now();
		this.stopSweep = (this.options.scheduleInterval ?? defaultScheduler)(() => this.sweep(interval), interval);
		return info;
	}

	/** Closes every socket (1001), then the server. Safe to call twice. */
	async stop(): Promise<void> {
		this.stopSweep?.();
		this.stopSweep = undefined;
		const server = this.httpServer;
		this.httpServer = undefined;
		this.listeningPort = undefined;
		// close() stops accepting at once; its callback waits for the open sockets below.
		const serverClosed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
		server?.closeIdleConnections();
		await Promise.all([...this.sockets.keys()].map((socket) => closeGracefully(socket)));
		server?.closeAllConnections();
		await serverClosed;
	}

	/** Closes every open socket with the given code, e.g. after the token changed. */
	closeAll(code: number, reason: string): void {
		for (const tracked of this.sockets.values()) tracked.connection.close(code, reason);
	}

	private listen(port: number): Promise<number> {
		const server = createServer((_request, response) => {
			response.writeHead(426, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
			response.end("This is the Claude Code IDE WebSocket endpoint; connect with a WebSocket client.\n");
		});
		server.headersTimeout = UPGRADE_HEADERS_TIMEOUT_MS;
		server.requestTimeout = UPGRADE_HEADERS_TIMEOUT_MS;
		server.on("upgrade", (request, socket, head) => this.handleUpgrade(request, socket, head));
		server.on("clientError", (_error, socket) => socket.destroy());
		return new Promise<number>((resolve, reject) => {
			server.once("error", reject);
			server.listen(port, LOOPBACK_HOST, () => {
				server.off("error", reject);
				server.on("error", (error) => this.log(`Server error: ${error.message}`));
				this.httpServer = server;
				const address = server.address();
				resolve(typeof address === "object" && address ? address.port : port);
			});
		});
	}

	private handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
		socket.on("error", () => socket.destroy());
		const refusal = this.refusalFor(request);
		if (refusal) {
			this.log(`Refused a connection: ${refusal.status} ${refusal.reason}`);
			refuse(socket, refusal.status, refusal.reason);
			return;
		}
		this.pendingUpgrades++;
		let settled = false;
		const settle = () => {
			if (!settled) {
				settled = true;
				this.pendingUpgrades--;
			}
		};
		// ws answers a malformed handshake itself and never calls back; the socket then closes.
		socket.once("close", settle);
		this.wss.handleUpgrade(request, socket, head, (ws) => {
			settle();
			socket.off("close", settle);
			if (!this.httpServer) {
				ws.close(CLOSE_GOING_AWAY, "Bridge stopped");
				return;
			}
			this.accept(ws);
		});
	}

	private refusalFor(request: IncomingMessage): { status: number; reason: string } | undefined {
		if (request.headers.origin !== undefined) {
			return { status: 403, reason: "Connections from web pages are not allowed" };
		}
		if (!isLoopbackHost(request.headers.host, this.listeningPort)) {
			return { status: 403, reason: "Host not allowed" };
		}
		if (!isAuthorised(this.options.getToken(), request.headers[AUTH_HEADER])) {
			return { status: 401, reason: "Missing or wrong auth token" };
		}
		if (this.sockets.size + this.pendingUpgrades >= (this.options.maxConnections ?? MAX_CONNECTIONS)) {
			return { status: 503, reason: "Too many connections" };
		}
		return undefined;
	}

	private accept(ws: WebSocket): void {
		const connection: ClientConnection = {
			id: this.nextId++,
			connectedAt: new Date(),
			send: (text) => {
				if (ws.readyState === ws.OPEN) ws.send(text);
			},
			sendBytes: (utf8) => {
				if (ws.readyState === ws.OPEN) ws.send(utf8, { binary: false });
			},
			close: (code, reason) => ws.close(code, reason),
		};
		let handler: ConnectionHandler;
		try {
			handler = this.options.onConnection(connection);
		} catch (error) {
			this.log(`Could not set up a session: ${describeError(error)}`);
			ws.terminate();
			return;
		}
		const tracked: TrackedSocket = { connection, handler, answeredLastPing: true };
		this.sockets.set(ws, tracked);
		ws.on("pong", () => {
			tracked.answeredLastPing = true;
		});
		ws.on("message", (data: RawData) => {
			try {
				handler.onMessage(rawDataToText(data));
			} catch (error) {
				this.log(`Message handler failed: ${describeError(error)}`);
			}
		});
		// ws reports protocol faults (e.g. a message over maxPayload) here and then closes the socket itself.
		ws.on("error", (error) => this.log(`Connection ${connection.id}: ${error.message}`));
		ws.once("close", () => {
			this.sockets.delete(ws);
			try {
				handler.onClose();
			} finally {
				this.options.onConnectionCountChange?.(this.sockets.size);
			}
		});
		this.options.onConnectionCountChange?.(this.sockets.size);
	}

	private sweep(intervalMs: number): void {
		const now = Date.now();
		const slept = now - this.lastSweepAt > intervalMs * HEALTH_SWEEP_LATE_FACTOR;
		this.lastSweepAt = now;
		for (const [ws, tracked] of this.sockets) {
			if (!tracked.answeredLastPing && !slept) {
				this.log(`Connection ${tracked.connection.id} did not answer a ping; dropping it`);
				ws.terminate();
				continue;
			}
			tracked.answeredLastPing = false;
			ws.ping();
		}
	}

	private log(message: string): void {
		this.options.log?.(message);
	}
}

function refuse(socket: Duplex, status: number, reason: string): void {
	const statusText: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 503: "Service Unavailable" };
	const body = `${reason}\n`;
	socket.end(
		`HTTP/1.1 ${status} ${statusText[status] ?? "Error"}\r\n` +
			"Connection: close\r\n" +
			"Content-Type: text/plain; charset=utf-8\r\n" +
			`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
			body,
		() => socket.destroy(),
	);
}

export function rawDataToText(data: RawData): string {
	if (Buffer.isBuffer(data)) return data.toString("utf8");
	if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
	return Buffer.from(data).toString("utf8");
}

const CLOSE_GRACE_MS = 1000;

function closeGracefully(ws: WebSocket): Promise<void> {
	return new Promise((resolve) => {
		if (ws.readyState === ws.CLOSED) return resolve();
		const timer = setTimeout(() => {
			ws.terminate();
			resolve();
		}, CLOSE_GRACE_MS);
		ws.once("close", () => {
			clearTimeout(timer);
			resolve();
		});
		ws.close(CLOSE_GOING_AWAY, "Bridge stopped");
	});
}
