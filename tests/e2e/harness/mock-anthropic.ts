import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { classifyMessagesRequest, isJsonObject, type JsonObject, type MessagesRequest } from "./messages-request";
import { sideReply } from "./side-reply";
import { messageJson, streamMessage, textTurn, type ScriptedTurn } from "./sse-reply";
import { pollUntil } from "../../helpers/wait-until";

export const DEFAULT_REPLY = "Mock reply.";

export interface UnknownRoute {
	method: string;
	url: string;
}

export interface WaitForRequestOptions {
	/** Skip the first `since` main-loop requests (read `mainRequests.length` before acting). */
	since?: number;
	where?: (request: MessagesRequest) => boolean;
	timeoutMs?: number;
}

/** A scripted turn, or one made from the request it answers (e.g. a path the CLI put in its system prompt). */
export type TurnSource = ScriptedTurn | ((request: JsonObject) => ScriptedTurn);

/**
 * A loopback stand-in for the Anthropic Messages API. Main-loop requests take their answers from a
 * queue of scripted turns (then `DEFAULT_REPLY`); side requests get a generic answer.
 */
export class MockAnthropic {
	readonly requests: MessagesRequest[] = [];
	readonly unknownRoutes: UnknownRoute[] = [];
	private readonly queue: TurnSource[] = [];
	private messageCounter = 0;
	/**
	 * Requests that are main-loop requests although they offer no tools (`classifyMessagesRequest` takes a request
	 * without tools for a side request): a text-only session's, such as an inline edit's.
	 */
	alsoMain: ((body: JsonObject) => boolean) | undefined;

	private constructor(private readonly server: http.Server) {}

	static async start(): Promise<MockAnthropic> {
		const server = http.createServer();
		const mock = new MockAnthropic(server);
		server.on("request", (request, response) => mock.handle(request, response));
		await new Promise<void>((resolve, reject) => {
			server.once("error", reject);
			server.listen(0, "127.0.0.1", resolve);
		});
		return mock;
	}

	get baseUrl(): string {
		const { port } = this.server.address() as AddressInfo;
		return `http://127.0.0.1:${port}`;
	}

	get mainRequests(): MessagesRequest[] {
		return this.requests.filter((request) => request.kind === "main");
	}

	enqueue(...turns: TurnSource[]): void {
		this.queue.push(...turns);
	}

	get pendingTurns(): number {
		return this.queue.length;
	}

	waitForMainRequest(options: WaitForRequestOptions = {}): Promise<MessagesRequest> {
		const since = options.since ?? 0;
		const where = options.where ?? (() => true);
		return pollUntil(
			() => this.mainRequests.slice(since).find(where),
			() => `a main-loop Messages request (#${since} or later; ${this.mainRequests.length} so far)`,
			{ timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 50 },
		);
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private handle(request: IncomingMessage, response: ServerResponse): void {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => this.route(request, Buffer.concat(chunks).toString("utf8"), response));
	}

	private route(request: IncomingMessage, rawBody: string, response: ServerResponse): void {
		const url = new URL(request.url ?? "/", "http://mock");
		const method = request.method ?? "GET";
		if (method === "POST" && url.pathname === "/v1/messages") {
			this.answerMessages(request, parseJson(rawBody), response);
		} else if (method === "POST" && url.pathname === "/v1/messages/count_tokens") {
			sendJson(response, 200, { input_tokens: Math.ceil(rawBody.length / 4) });
		} else if (url.pathname === "/api/hello") {
			sendJson(response, 200, {});
		} else {
			this.unknownRoutes.push({ method, url: request.url ?? "" });
			sendJson(response, 404, {
				type: "error",
				error: { type: "not_found_error", message: `mock has no ${method} ${url.pathname}` },
			});
		}
	}

	private answerMessages(request: IncomingMessage, body: JsonObject, response: ServerResponse): void {
		const kind = classifyMessagesRequest(body) === "main" || this.alsoMain?.(body) === true ? "main" : "side";
		const timing: NonNullable<MessagesRequest["timing"]> = { received: performance.now() };
		this.requests.push({
			index: this.requests.length,
			kind,
			receivedAt: Date.now(),
			timing,
			headers: request.headers,
			body,
		});
		const next = kind === "main" ? this.queue.shift() : undefined;
		const turn =
			kind === "main"
				? typeof next === "function"
					? next(body)
					: (next ?? textTurn(DEFAULT_REPLY))
				: sideReply(body);
		this.messageCounter += 1;
		const id = `msg_mock_${this.messageCounter}`;
		const model = typeof body["model"] === "string" ? body["model"] : "claude-mock";
		if (body["stream"] === true)
			streamMessage(response, id, model, turn, () => (timing.firstEventWritten = performance.now()));
		else sendJson(response, 200, messageJson(id, model, turn));
	}
}

function parseJson(text: string): JsonObject {
	try {
		const value: unknown = JSON.parse(text);
		return isJsonObject(value) ? value : {};
	} catch {
		return {};
	}
}

function sendJson(response: ServerResponse, status: number, body: JsonObject): void {
	response.writeHead(status, { "content-type": "application/json" });
	response.end(JSON.stringify(body));
}
