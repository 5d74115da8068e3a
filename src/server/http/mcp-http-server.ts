import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isAuthorised } from "../auth";
import { LOOPBACK_HOST } from "../limits";
import { isLoopbackHost } from "../loopback-host";
import { describeError } from "../../shared/describe-error";
import { MAX_HTTP_BODY_BYTES, HTTP_CALL_LIMIT_MS, HTTP_HEADERS_TIMEOUT_MS, HTTP_BODY_TIMEOUT_MS } from "./http-limits";

export interface McpHttpServerOptions {
	/** The port, the same across restarts; 0 only in tests. A taken port is an error in the status, never replaced. */
	port: number;
	/** The bearer token, read per request so a rotation applies at once. Undefined or "": every request gets 401. */
	token: () => string | undefined;
	/**
	 * Answers one JSON-RPC message (a single object): the answer's text, or undefined when it needs none (a
	 * notification or a response: 202). `signal` aborts when the client goes away or the call limit passes.
	 */
	handle: (body: string, signal: AbortSignal) => Promise<string | undefined>;
	/** `MCP-Protocol-Version` values accepted; another value gets 400 (the header may be absent). */
	protocolVersions: readonly string[];
	maxBodyBytes?: number;
	/**
	 * A call still running after this long is aborted and answered (a write waiting for review is withdrawn):
	 * Claude Code gives up on an HTTP call after 60 s and would otherwise not hear the outcome.
	 */
	callLimitMs?: number;
	log?: (message: string) => void;
	/** Debug lines: a client's normal protocol probes (a GET for a stream, OAuth discovery), which are not problems. */
	debug?: (message: string) => void;
	onStatusChange?: (status: McpHttpStatus) => void;
	now?: () => Date;
}

export interface McpHttpStatus {
	state: "stopped" | "listening" | "failed";
	port: number;
	/** `http://127.0.0.1:<port>/mcp` while listening. */
	url?: string;
	/** Why it is not listening (e.g. the port is taken). */
	error?: string;
	/** Authorised MCP requests answered since the start. */
	calls: number;
	lastCallAt?: Date;
	/** Requests refused (401, 403, 413, 415, …) since the start, the protocol probes below apart. */
	refused: number;
	/**
	 * Requests that are a normal part of an MCP client's start, answered as the protocol expects: a GET for a stream
	 * (405), OAuth discovery under `/.well-known/` (404), an `MCP-Protocol-Version` this server does not speak (400, the
	 * client then uses an older one). Counted apart, so that `refused` means something went wrong.
	 */
	probes: number;
	/** The port is held by another process (EADDRINUSE). */
	portTaken?: true;
	/** Clients that made authorised calls, by `User-Agent` (stateless HTTP knows no more), latest first. */
	clients: { userAgent: string; lastCallAt: Date }[];
}

/** Distinct clients remembered for the status. */
const MAX_REMEMBERED_CLIENTS = 10;

/** `probe`: an answer an MCP client expects while it starts (see `McpHttpStatus.probes`), not a refusal. */
type Refusal = { status: number; text: string; headers?: Record<string, string>; probe?: true };

const STATUS_TEXT: Record<number, string> = {
	400: "Bad Request",
	401: "Unauthorized",
	403: "Forbidden",
	404: "Not Found",
	405: "Method Not Allowed",
	413: "Payload Too Large",
	415: "Unsupported Media Type",
};

/**
 * MCP's Streamable HTTP transport on 127.0.0.1, stateless and POST-only: each POST to `/mcp` carries one JSON-RPC
 * message and is answered with one `application/json` body (or 202). No sessions, no SSE, no CORS headers.
 * Before a body is read: a foreign Host or Origin gets 403, `/.well-known/*` a plain 404 (Claude Code probes
 * OAuth metadata there), other paths 404, other methods 405, a missing or wrong bearer token 401 (compared in
 * constant time; a plain `Bearer` challenge), a body over 1 MiB 413.
 */
export class McpHttpServer {
	private server: Server | undefined;
	private state: McpHttpStatus["state"] = "stopped";
	private error: string | undefined;
	private calls = 0;
	private refused = 0;
	private probes = 0;
	private portTaken = false;
	private lastCallAt: Date | undefined;
	private listeningPort: number | undefined;
	private readonly clients = new Map<string, Date>();
	private readonly running = new Set<AbortController>();
	/** A start still waiting for its port: a stop meanwhile must wait for it, or the port it opens stays open. */
	private starting: Promise<McpHttpStatus> | undefined;

	constructor(private readonly options: McpHttpServerOptions) {}

	status(): McpHttpStatus {
		const port = this.listeningPort ?? this.options.port;
		const clients = [...this.clients].reverse().map(([userAgent, lastCallAt]) => ({ userAgent, lastCallAt }));
		const status: McpHttpStatus = {
			state: this.state,
			port,
			calls: this.calls,
			refused: this.refused,
			probes: this.probes,
			clients,
		};
		if (this.portTaken) status.portTaken = true;
		if (this.state === "listening") status.url = `http://${LOOPBACK_HOST}:${port}/mcp`;
		if (this.error !== undefined) status.error = this.error;
		if (this.lastCallAt) status.lastCallAt = this.lastCallAt;
		return status;
	}

	/** Starts listening; failures (a taken port) are in the status, not thrown. */
	async start(): Promise<McpHttpStatus> {
		if (this.state === "listening") return this.status();
		if (this.starting) return this.starting;
		this.starting = this.listen();
		try {
			return await this.starting;
		} finally {
			this.starting = undefined;
		}
	}

	private async listen(): Promise<McpHttpStatus> {
		this.error = undefined;
		this.portTaken = false;
		const server = createServer((request, response) => void this.serve(request, response));
		server.headersTimeout = HTTP_HEADERS_TIMEOUT_MS;
		server.requestTimeout = HTTP_BODY_TIMEOUT_MS;
		server.on("clientError", (_error, socket) => socket.destroy());
		try {
			await new Promise<void>((resolve, reject) => {
				server.once("error", reject);
				server.listen(this.options.port, LOOPBACK_HOST, () => {
					server.off("error", reject);
					resolve();
				});
			});
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			this.portTaken = code === "EADDRINUSE";
			this.error =
				code === "EADDRINUSE"
					? `Port ${this.options.port} is in use by another program; the MCP endpoint is off. Choose another port (it stays fixed so Claude Code's configuration keeps working).`
					: `Could not listen on 127.0.0.1:${this.options.port}: ${describeError(error)}`;
			this.setState("failed");
			return this.status();
		}
		server.on("error", (error) => this.log(`HTTP server error: ${error.message}`));
		this.server = server;
		const address = server.address();
		this.listeningPort = typeof address === "object" && address ? address.port : this.options.port;
		this.setState("listening");
		return this.status();
	}

	/** Aborts running calls, closes every connection and the port. Safe to call twice. */
	async stop(): Promise<void> {
		await this.starting;
		const server = this.server;
		this.server = undefined;
		for (const controller of this.running) controller.abort();
		if (server) {
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await closed;
		}
		this.listeningPort = undefined;
		if (this.state === "listening") this.setState("stopped");
	}

	private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const refusal = this.refusalFor(request);
		if (refusal) {
			if (refusal.probe) this.probes++;
			else this.refused++;
			(refusal.probe
				? (message: string) => this.options.debug?.(message)
				: (message: string) => this.log(message))(
				`${refusal.probe ? "Protocol probe" : "Refused"} ${request.method ?? "?"} ${pathOf(request)}: ${refusal.status} ${refusal.text}`,
			);
			reply(response, refusal.status, "text/plain; charset=utf-8", `${refusal.text}\n`, {
				...refusal.headers,
				Connection: "close",
			});
			// A refused body is never read; close rather than drain it.
			request.resume();
			return;
		}
		let body: string;
		try {
			body = await readBody(request, this.options.maxBodyBytes ?? MAX_HTTP_BODY_BYTES);
		} catch (error) {
			this.refused++;
			if (error instanceof BodyTooLarge) {
				// The rest is discarded unread; "Connection: close" ends the socket once the answer is out.
				reply(response, 413, "text/plain; charset=utf-8", `${error.message}\n`, { Connection: "close" });
				request.resume();
			} else response.destroy();
			return;
		}
		const invalid = invalidMessage(body);
		if (invalid) {
			reply(response, 400, "application/json", JSON.stringify({ jsonrpc: "2.0", id: null, error: invalid }));
			return;
		}
		this.noteCall(request.headers["user-agent"]);
		await this.answer(body, response);
	}

	private noteCall(userAgent: string | undefined): void {
		const now = (this.options.now ?? (() => new Date()))();
		this.calls++;
		this.lastCallAt = now;
		const name = (userAgent ?? "").slice(0, 200) || "unknown client";
		this.clients.delete(name);
		this.clients.set(name, now);
		if (this.clients.size > MAX_REMEMBERED_CLIENTS) {
			const oldest = this.clients.keys().next().value;
			if (oldest !== undefined) this.clients.delete(oldest);
		}
	}

	private async answer(body: string, response: ServerResponse): Promise<void> {
		const controller = new AbortController();
		this.running.add(controller);
		// The client went away (Claude Code's 60 s limit, a cancelled call): abort, so a pending review is withdrawn.
		const onClose = (): void => {
			if (!response.writableFinished) controller.abort();
		};
		response.on("close", onClose);
		const limit = setTimeout(() => controller.abort(), this.options.callLimitMs ?? HTTP_CALL_LIMIT_MS);
		try {
			const answer = await this.options.handle(body, controller.signal);
			if (response.destroyed) return;
			if (answer === undefined) reply(response, 202, undefined, "");
			else reply(response, 200, "application/json", answer);
		} catch (error) {
			this.log(`MCP request failed: ${describeError(error)}`);
			if (!response.destroyed)
				reply(
					response,
					200,
					"application/json",
					JSON.stringify({
						jsonrpc: "2.0",
						id: null,
						error: { code: -32603, message: `Internal error: ${describeError(error)}` },
					}),
				);
		} finally {
			clearTimeout(limit);
			this.running.delete(controller);
			response.off("close", onClose);
		}
	}

	private refusalFor(request: IncomingMessage): Refusal | undefined {
		if (!isLoopbackHost(request.headers.host, this.listeningPort))
			return { status: 403, text: "Host not allowed: this endpoint answers only 127.0.0.1 and localhost" };
		const origin = request.headers.origin;
		if (origin !== undefined && !this.isOwnOrigin(origin))
			return { status: 403, text: "Requests from web pages are not allowed" };
		const path = pathOf(request);
		if (path.startsWith("/.well-known/")) return { status: 404, text: "Not found", probe: true };
		if (path !== "/mcp") return { status: 404, text: "Not found: the MCP endpoint is POST /mcp" };
		if (request.method !== "POST") {
			return {
				status: 405,
				text: "Method not allowed: this MCP endpoint is stateless and answers POST only",
				headers: { Allow: "POST" },
				...(request.method === "GET" ? { probe: true as const } : {}),
			};
		}
		const expected = this.options.token();
		if (
			expected === undefined ||
			expected === "" ||
			!isAuthorised(expected, bearerToken(request.headers.authorization))
		) {
			// RFC 6750's challenge, without resource metadata (there is no OAuth here). Claude Code 2.1.330 treats this
			// 401 exactly as one without the header: final when a header is configured, else its OAuth probe ends in 404s.
			return {
				status: 401,
				text: "Missing or wrong bearer token",
				headers: { "WWW-Authenticate": 'Bearer realm="claude-code-bridge"' },
			};
		}
		const length = Number(request.headers["content-length"]);
		const max = this.options.maxBodyBytes ?? MAX_HTTP_BODY_BYTES;
		if (Number.isFinite(length) && length > max)
			return { status: 413, text: `Request body over the ${max} byte limit` };
		const type = request.headers["content-type"];
		if (type === undefined || !/^application\/json\s*(;|$)/i.test(type))
			return { status: 415, text: "Content-Type must be application/json" };
		const version = request.headers["mcp-protocol-version"];
		if (version !== undefined && !this.options.protocolVersions.includes(String(version))) {
			return {
				status: 400,
				text: `Unsupported MCP-Protocol-Version: ${String(version)}; supported: ${this.options.protocolVersions.join(", ")}`,
				probe: true,
			};
		}
		return undefined;
	}

	private isOwnOrigin(origin: string): boolean {
		const port = this.listeningPort;
		return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(
			origin.toLowerCase(),
		);
	}

	private setState(state: McpHttpStatus["state"]): void {
		this.state = state;
		try {
			this.options.onStatusChange?.(this.status());
		} catch (error) {
			this.log(`Status listener failed: ${describeError(error)}`);
		}
	}

	private log(message: string): void {
		this.options.log?.(message);
	}
}

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, max: number): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on("data", (chunk: Buffer) => {
			size += chunk.length;
			if (size > max) {
				request.removeAllListeners("data");
				reject(new BodyTooLarge(`Request body over the ${max} byte limit`));
				return;
			}
			chunks.push(chunk);
		});
		request.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		request.once("error", reject);
		request.once("aborted", () => reject(new Error("request aborted")));
	});
}

/** A body that is not one JSON-RPC object: the parse error or invalid-request error to answer with 400. */
function invalidMessage(body: string): { code: number; message: string } | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		return { code: -32700, message: "Parse error: the body is not JSON" };
	}
	if (Array.isArray(parsed))
		return { code: -32600, message: "Invalid request: batches are not supported; send one message per POST" };
	if (typeof parsed !== "object" || parsed === null)
		return { code: -32600, message: "Invalid request: expected a JSON-RPC message object" };
	return undefined;
}

function bearerToken(header: string | undefined): string | undefined {
	const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
	return match?.[1];
}

function pathOf(request: IncomingMessage): string {
	const url = request.url ?? "/";
	const end = url.search(/[?#]/);
	return end === -1 ? url : url.slice(0, end);
}

function reply(
	response: ServerResponse,
	status: number,
	type: string | undefined,
	body: string,
	headers: Record<string, string> = {},
): void {
	const all: Record<string, string | number> = {
		"Cache-Control": "no-store",
		"X-Content-Type-Options": "nosniff",
		...headers,
	};
	if (type !== undefined) all["Content-Type"] = type;
	all["Content-Length"] = Buffer.byteLength(body);
	response.writeHead(status, STATUS_TEXT[status], all);
	response.end(body);
}
