import { clearTimeout, setTimeout } from "node:timers";
import type { Readable, Writable } from "node:stream";
import { ErrorCode, errorResponse } from "../../protocol/json-rpc";
import { MAX_INCOMING_MESSAGE_BYTES } from "../../server/limits";
import { LineTransport } from "./line-transport";

/** How long calls already made may still run after the client closed stdin. */
export const STDIN_CLOSED_GRACE_MS = 5_000;

export interface StdioChannelOptions {
	input: Readable;
	output: Writable;
	/** Answers one frame; settles when its answer is written. */
	handle: (line: string) => Promise<void>;
	/** The client closed stdin and the calls it made are answered (or the grace period ran out): release everything. */
	stop: () => void;
	log: (message: string) => void;
	graceMs?: number;
}

/**
 * One MCP session's frames on stdin/stdout: each line handed to the session, a frame over the size limit answered
 * with an error unread, and, when the client closes stdin, the calls it already made answered before `stop` (reads
 * take milliseconds). A call still running after the grace period (a write waiting for the user's review) is
 * cancelled by `stop`: its review is withdrawn.
 */
export class StdioChannel {
	private readonly transport: LineTransport;
	private readonly inFlight = new Set<Promise<void>>();

	constructor(private readonly options: StdioChannelOptions) {
		this.transport = new LineTransport({
			input: options.input,
			output: options.output,
			maxLineBytes: MAX_INCOMING_MESSAGE_BYTES,
			onLine: (line) => this.received(line),
			onOversize: () => this.oversize(),
			onEnd: () => void this.finishThenStop(),
			log: options.log,
		});
	}

	send(text: string): void {
		this.transport.send(text);
	}

	private received(line: string): void {
		const answered = this.options.handle(line);
		this.inFlight.add(answered);
		void answered.finally(() => this.inFlight.delete(answered));
	}

	private oversize(): void {
		this.options.log(`Dropped an incoming message of over ${MAX_INCOMING_MESSAGE_BYTES} bytes`);
		this.transport.send(
			JSON.stringify(
				errorResponse(null, {
					code: ErrorCode.InvalidRequest,
					message: `Invalid request: a message over ${MAX_INCOMING_MESSAGE_BYTES} bytes was dropped unread`,
				}),
			),
		);
	}

	private async finishThenStop(): Promise<void> {
		const grace = setTimeout(this.options.stop, this.options.graceMs ?? STDIN_CLOSED_GRACE_MS);
		await Promise.allSettled([...this.inFlight]);
		clearTimeout(grace);
		this.options.stop();
	}
}
