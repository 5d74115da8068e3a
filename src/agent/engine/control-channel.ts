/**
 * The CLI's control protocol over stream-json: `control_request` / `control_response` pairs flow both ways,
 * matched by `request_id`; the CLI may withdraw one of its requests with `control_cancel_request`.
 */
import { isJsonRecord, type JsonRecord } from "../claude-cli/json-lines";

/** Answers one request the CLI sent; a thrown error becomes an error response. The signal fires if the CLI withdraws it. */
export type ControlRequestHandler = (request: JsonRecord, signal: AbortSignal) => Promise<JsonRecord>;

interface PendingRequest {
	subtype: string;
	resolve: (response: JsonRecord) => void;
	reject: (error: Error) => void;
}

export class ControlChannel {
	private readonly pending = new Map<string, PendingRequest>();
	private readonly incoming = new Map<string, AbortController>();
	private counter = 0;
	private closedWith: string | undefined;

	constructor(
		private readonly write: (record: JsonRecord) => void,
		private readonly handler: ControlRequestHandler,
	) {}

	/** Sends a control request (e.g. `{ subtype: "interrupt" }`); resolves with the CLI's response payload. */
	request(request: JsonRecord & { subtype: string }): Promise<JsonRecord> {
		if (this.closedWith !== undefined) return Promise.reject(new Error(`${request.subtype}: ${this.closedWith}`));
		this.counter += 1;
		const requestId = `obsidian_${this.counter}`;
		return new Promise<JsonRecord>((resolve, reject) => {
			this.pending.set(requestId, { subtype: request.subtype, resolve, reject });
			this.write({ type: "control_request", request_id: requestId, request });
		});
	}

	/** Takes a message from the CLI if it belongs to the control protocol; returns false for any other message. */
	accept(message: JsonRecord): boolean {
		switch (message["type"]) {
			case "control_response":
				this.settle(message["response"]);
				return true;
			case "control_request":
				this.answer(message);
				return true;
			case "control_cancel_request":
				if (typeof message["request_id"] === "string") this.withdraw(message["request_id"]);
				return true;
			default:
				return false;
		}
	}

	/** The process is gone: every request waiting for an answer fails with `reason`, every handler is aborted. */
	close(reason: string): void {
		this.closedWith = reason;
		for (const [id, request] of this.pending) {
			this.pending.delete(id);
			request.reject(new Error(`${request.subtype}: ${reason}`));
		}
		for (const controller of this.incoming.values()) controller.abort();
		this.incoming.clear();
	}

	private withdraw(requestId: string): void {
		const controller = this.incoming.get(requestId);
		this.incoming.delete(requestId);
		controller?.abort();
	}

	private settle(response: unknown): void {
		if (!isJsonRecord(response) || typeof response["request_id"] !== "string") return;
		const pending = this.pending.get(response["request_id"]);
		if (!pending) return;
		this.pending.delete(response["request_id"]);
		if (response["subtype"] === "success") {
			pending.resolve(isJsonRecord(response["response"]) ? response["response"] : {});
		} else {
			const error = typeof response["error"] === "string" ? response["error"] : "the CLI refused the request";
			pending.reject(new Error(`${pending.subtype}: ${error}`));
		}
	}

	private answer(message: JsonRecord): void {
		const requestId = message["request_id"];
		const request = message["request"];
		if (typeof requestId !== "string") return;
		if (!isJsonRecord(request)) {
			this.write(errorResponse(requestId, "control_request without a request object"));
			return;
		}
		const controller = new AbortController();
		this.incoming.set(requestId, controller);
		void this.handler(request, controller.signal).then(
			(response) => {
				if (this.incoming.delete(requestId) && this.closedWith === undefined) {
					this.write({
						type: "control_response",
						response: { subtype: "success", request_id: requestId, response },
					});
				}
			},
			(error: unknown) => {
				if (this.incoming.delete(requestId) && this.closedWith === undefined) {
					this.write(errorResponse(requestId, error instanceof Error ? error.message : String(error)));
				}
			},
		);
	}
}

function errorResponse(requestId: string, error: string): JsonRecord {
	return { type: "control_response", response: { subtype: "error", request_id: requestId, error } };
}
